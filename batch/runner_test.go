package batch

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
)

// TestPaceCutsChunks: chunks are one record until a record's time is
// known, and then about chunkTime of work, between 1 and chunkSize.
func TestPaceCutsChunks(t *testing.T) {
	var p pace
	steps := []struct {
		took time.Duration // the time of the records added
		n    int           // how many
		want int           // the chunk after them
	}{
		{0, 0, 1},
		{10 * time.Microsecond, 40, chunkSize},
		{100 * time.Microsecond, 60, 10},
		{50 * time.Millisecond, 60, 1},
	}
	for _, s := range steps {
		for i := 0; i < s.n; i++ {
			p.add(s.took)
		}
		if got := p.chunk(); got != s.want {
			t.Errorf("after %d records of %v: chunk %d, want %d", s.n, s.took, got, s.want)
		}
	}
}

// TestRunnerWindowAndOrder: with records of very different lengths, the
// results come out in input order and no more than window records are
// ever read and not yet emitted.
func TestRunnerWindowAndOrder(t *testing.T) {
	const records, window = 60, 5
	r := epd.NewReader(strings.NewReader(benchEPD(records)), "test.epd")
	var inFlight, most atomic.Int64
	var got []string
	b := runner{
		workers: 2,
		window:  window,
		work: func(_ int, rec *record.Record) item {
			if strings.HasSuffix(rec.ID, "0") {
				time.Sleep(3 * time.Millisecond) // a long one among short ones
			}
			return item{out: puzzles.Answer{Outcome: puzzles.Outcome{ID: rec.ID}}}
		},
		emit: func(it *item) error {
			got = append(got, it.out.ID)
			inFlight.Add(-1)
			return nil
		},
	}
	next := func() (record.Raw, error) {
		raw, err := r.NextRaw()
		if err == nil {
			if k := inFlight.Add(1); k > most.Load() {
				most.Store(k) // (only the reader stores)
			}
		}
		return raw, err
	}
	n, err := b.run(context.Background(), next)
	if err != nil || n != records {
		t.Fatalf("run: %d records, %v", n, err)
	}
	for i, id := range got {
		if want := fmt.Sprintf("p%04d", i); id != want {
			t.Fatalf("result %d is %s, want %s", i, id, want)
		}
	}
	// (one record read past the window waits in next's caller)
	if most.Load() > window+1 {
		t.Errorf("%d records in flight, window %d", most.Load(), window)
	}
}
