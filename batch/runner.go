package batch

import (
	"context"
	"errors"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
)

// runner runs work over a stream of records with several workers and hands
// the results to emit in input order. At most window records are in
// flight (read and not yet emitted), so memory does not grow with the
// input. When the context is cancelled, the workers stop, every result
// that can be emitted in order is emitted, and run returns
// ErrInterrupted.
type runner struct {
	workers int                                       // default: all cores
	window  int                                       // records in flight; default 64 per worker
	skip    func(*record.Record) bool                 // records to pass over (resume, shards); may be nil
	work    func(worker int, rec *record.Record) item // must mark the outcome Interrupted if stopped by cancellation
	emit    func(it *item) error                      // called in input order, from one goroutine
}

// item is one record's result on its way to the output: the outcome, and
// its text as the output's writer renders it (nil: render when written).
type item struct {
	out      puzzles.Answer
	rendered []byte
}

// ErrInterrupted is returned by Run when the context was cancelled before
// every record was done.
var ErrInterrupted = errors.New("interrupted")

// chunkSize is the most records handed around together: short problems
// take tens of microseconds, and one hand-off per record would cost as
// much as the work. Chunks are cut to about chunkTime of work each, by
// the time the records took so far (pace), so that long problems go out
// one by one and the workers end together.
const chunkSize = 16

// chunkTime is the work a chunk is cut to.
const chunkTime = time.Millisecond

// pace is the time a record takes, a running mean over the workers.
type pace struct{ ns atomic.Int64 }

// add counts a record that took d.
func (p *pace) add(d time.Duration) {
	if old := p.ns.Load(); old > 0 {
		p.ns.Store(old + (int64(d)-old)/8)
	} else {
		p.ns.Store(max(int64(d), 1))
	}
}

// chunk is the number of records the next chunk holds: one until a
// record's time is known.
func (p *pace) chunk() int {
	ns := p.ns.Load()
	if ns <= 0 {
		return 1
	}
	return int(min(max(int64(chunkTime)/ns, 1), chunkSize))
}

type job struct {
	seq  int // chunk number
	raws []record.Raw
}

type done struct {
	it      item
	skipped bool
}

// result is one record's result on its way back from a worker: its chunk,
// its place in the chunk, and the chunk's length.
type result struct {
	seq, idx, n int
	d           done
}

// run reads every record from next (which returns io.EOF at the end),
// parses and works on them in the workers, and returns the number of
// results emitted. Records go out to the workers in chunks, but each
// result comes back alone and is emitted as soon as every record before it
// is: a finished record waits only for earlier records still being solved.
func (b *runner) run(ctx context.Context, next func() (record.Raw, error)) (int, error) {
	workers := b.workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	window := b.window
	if window <= 0 {
		window = 64 * workers
	}
	window = max(window, 2)
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	jobs := make(chan job)
	results := make(chan result, workers*chunkSize)
	slots := make(chan struct{}, window) // one per record in flight
	var readErr error
	var pc pace

	go func() { // reader
		defer close(jobs)
		seq := 0
		var raws []record.Raw
		send := func() bool {
			select {
			case jobs <- job{seq, raws}:
				seq++
				raws = nil
				return true
			case <-ctx.Done():
				return false
			}
		}
		for {
			raw, err := next()
			if errors.Is(err, io.EOF) {
				if len(raws) > 0 {
					send()
				}
				return
			}
			if err != nil {
				readErr = err
				cancel()
				return
			}
			select {
			case slots <- struct{}{}:
			default:
				// the window is full: what is held goes out first (the
				// records it waits for may be among them)
				if len(raws) > 0 && !send() {
					return
				}
				select {
				case slots <- struct{}{}:
				case <-ctx.Done():
					return
				}
			}
			raws = append(raws, raw)
			if len(raws) >= pc.chunk() && !send() {
				return
			}
		}
	}()

	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for j := range jobs {
				for i, raw := range j.raws {
					r := result{seq: j.seq, idx: i, n: len(j.raws)}
					start := time.Now()
					rec := raw.Parse()
					if b.skip != nil && b.skip(&rec) {
						r.d.skipped = true
					} else {
						r.d.it = b.work(w, &rec)
					}
					pc.add(time.Since(start))
					results <- r
					if r.d.it.out.Interrupted {
						break // the rest would be interrupted too
					}
				}
			}
		}(w)
	}
	go func() { wg.Wait(); close(results) }()

	pending := map[int][]*done{} // results that wait for earlier ones, by chunk
	nextSeq, nextIdx, emitted := 0, 0, 0
	stopped := false // an outcome was interrupted: emit nothing after it
	var emitErr error
	for r := range results {
		if stopped || emitErr != nil {
			continue
		}
		c := pending[r.seq]
		if c == nil {
			c = make([]*done, r.n)
			pending[r.seq] = c
		}
		c[r.idx] = &r.d
		for {
			c, ok := pending[nextSeq]
			if !ok || c[nextIdx] == nil {
				break
			}
			p := c[nextIdx]
			if p.it.out.Interrupted {
				stopped = true
				cancel()
				break
			}
			if !p.skipped {
				if err := b.emit(&p.it); err != nil {
					emitErr = err
					cancel()
					break
				}
				emitted++
			}
			<-slots
			if nextIdx++; nextIdx == len(c) {
				delete(pending, nextSeq)
				nextSeq, nextIdx = nextSeq+1, 0
			}
		}
	}
	switch {
	case emitErr != nil:
		return emitted, emitErr
	case readErr != nil:
		return emitted, readErr
	case stopped || parent.Err() != nil:
		return emitted, ErrInterrupted
	}
	return emitted, nil
}
