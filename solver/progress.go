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
	tbHits   atomic.Uint64
	selDepth atomic.Int32
	mu       sync.Mutex // one report at a time, and guards b
	b        bounds     // the bounds proved so far
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

// proved records the bounds that s proved and reports them; a new mate
// (or its proof of shortness) comes with NewBound and its line.
func (r *reporter) proved(s *searcher, b bounds, lim *limits) {
	lim.nodes.Add(s.nodes - s.published)
	s.published = s.nodes
	r.publish(s)
	r.mu.Lock()
	defer r.mu.Unlock()
	fresh := b.mateWithin != 0 && (b.mateWithin != r.b.mateWithin || b.shortest != r.b.shortest || r.b.line == nil && b.line != nil)
	r.b = b
	r.send(lim, fresh)
}

func (r *reporter) report(lim *limits) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.send(lim, false)
}

// send hands the current bounds to the callback (under mu).
func (r *reporter) send(lim *limits, fresh bool) {
	p := Progress{
		Depth:      r.b.depth,
		MateWithin: r.b.mateWithin,
		Shortest:   r.b.shortest,
		NewBound:   fresh,
		Nodes:      lim.nodes.Load(),
		TBHits:     r.tbHits.Load(),
		SelDepth:   int(r.selDepth.Load()),
		Elapsed:    time.Since(r.start),
		Hashfull:   r.tt.hashfull(),
	}
	if fresh {
		p.Line = r.b.line
	}
	r.fn(p)
}
