package solver

import (
	"sync"
	"sync/atomic"
	"time"
)

// reportInterval is how often a running solve reports its progress.
const reportInterval = time.Second

// reporter gathers what the threads of a solve have done and proved, and
// hands it to Options.Progress: when a bound is proved, and about once a
// second.
type reporter struct {
	fn       func(Progress)
	start    time.Time
	tt       *Table
	next     atomic.Int64 // when the next timed report is due (ns since start)
	depth    atomic.Int32
	within   atomic.Int32
	tbHits   atomic.Uint64
	selDepth atomic.Int32
	mu       sync.Mutex // one report at a time
}

// publish adds a searcher's counts since its last call.
func (r *reporter) publish(s *searcher) {
	if s.tbHits != s.tbPublished {
		r.tbHits.Add(s.tbHits - s.tbPublished)
		s.tbPublished = s.tbHits
	}
	for {
		cur := r.selDepth.Load()
		if int32(s.selDepth) <= cur || r.selDepth.CompareAndSwap(cur, int32(s.selDepth)) {
			break
		}
	}
}

// tick reports if a timed report is due.
func (r *reporter) tick(lim *limits) {
	now := int64(time.Since(r.start))
	next := r.next.Load()
	if now < next || !r.next.CompareAndSwap(next, now+int64(reportInterval)) {
		return
	}
	r.report(lim)
}

// proved records new bounds that s proved and reports them.
func (r *reporter) proved(s *searcher, depth int, within Mate, lim *limits) {
	lim.nodes.Add(s.nodes - s.published)
	s.published = s.nodes
	r.publish(s)
	r.depth.Store(int32(depth))
	r.within.Store(int32(within))
	r.report(lim)
}

func (r *reporter) report(lim *limits) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fn(Progress{
		Depth:      int(r.depth.Load()),
		MateWithin: Mate(r.within.Load()),
		Nodes:      lim.nodes.Load(),
		TBHits:     r.tbHits.Load(),
		SelDepth:   int(r.selDepth.Load()),
		Elapsed:    time.Since(r.start),
		Hashfull:   r.tt.hashfull(),
	})
}
