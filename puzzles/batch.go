package puzzles

import (
	"context"
	"errors"
	"io"
	"runtime"
	"sync"
)

// Batch runs Work over a stream of records with several workers and hands
// the outcomes to Emit in input order. At most Window records are in
// flight, so memory does not grow with the input. When the context is
// cancelled, the workers stop, every outcome that can be emitted in order
// is emitted, and Run returns ErrInterrupted.
type Batch struct {
	Workers int                                   // default: all cores
	Window  int                                   // records in flight; default 64 per worker
	Skip    func(*Record) bool                    // records to pass over (resume, shards); may be nil
	Work    func(worker int, rec *Record) Outcome // must set Interrupted if stopped by cancellation
	Emit    func(o *Outcome) error                // called in input order, from one goroutine
	OnRead  func(rec *Record)                     // called for each record read, skipped or not; may be nil
}

// ErrInterrupted is returned by Run when the context was cancelled before
// every record was done.
var ErrInterrupted = errors.New("interrupted")

type job struct {
	seq int
	raw Raw
}

type done struct {
	seq     int
	out     Outcome
	skipped bool
}

// Run reads every record from next (which returns io.EOF at the end),
// parses and works on them in the workers, and returns the number of
// outcomes emitted.
func (b *Batch) Run(ctx context.Context, next func() (Raw, error)) (int, error) {
	workers := b.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	window := b.Window
	if window <= 0 {
		window = 64 * workers
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	jobs := make(chan job)
	results := make(chan done, workers)
	slots := make(chan struct{}, window) // one per record in flight
	var readErr error

	go func() { // reader
		defer close(jobs)
		for seq := 0; ; {
			raw, err := next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				readErr = err
				cancel()
				return
			}
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- job{seq, raw}:
				seq++
			case <-ctx.Done():
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
				rec := j.raw.Parse()
				if b.Skip != nil && b.Skip(&rec) {
					results <- done{seq: j.seq, skipped: true}
					continue
				}
				results <- done{seq: j.seq, out: b.Work(w, &rec)}
			}
		}(w)
	}
	go func() { wg.Wait(); close(results) }()

	pending := map[int]done{}
	nextSeq, emitted := 0, 0
	stopped := false // an outcome was interrupted: emit nothing after it
	var emitErr error
	for d := range results {
		if stopped || emitErr != nil {
			continue
		}
		pending[d.seq] = d
		for {
			p, ok := pending[nextSeq]
			if !ok {
				break
			}
			delete(pending, nextSeq)
			o := p.out
			if p.skipped {
				nextSeq++
				<-slots
				continue
			}
			if o.Interrupted {
				stopped = true
				cancel()
				break
			}
			if err := b.Emit(&o); err != nil {
				emitErr = err
				cancel()
				break
			}
			emitted++
			nextSeq++
			<-slots
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
