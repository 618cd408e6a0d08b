package stipulation

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"mateline.dev/mateline/problem"
)

// TestInterruptedNeverLies stops help, series and forced solves at random
// moments, by a node limit and by cancelling the context, one and two
// threads: each stopped solve says ErrLimit, and each that finishes gives
// the whole answer, never a part of it taken for the whole.
func TestInterruptedNeverLies(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 55))
	stops, finished := 0, 0
	for seed := uint64(1); stops < 120; seed++ {
		help := seed%3 != 0
		var c sweepCase
		if help {
			c = drawSweepCase(seed)
		} else {
			c = drawForcedCase(seed)
		}
		full, nodes, ok := answerWithin(context.Background(), c, Limits{Nodes: sweepNodes})
		if !ok || nodes < 2000 {
			continue // too big for the test, or too small to stop in the middle
		}
		for try := 0; try < 3; try++ {
			lim := Limits{Threads: 1 + rng.IntN(2)}
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if try == 0 {
				ctx, cancel = context.WithTimeout(ctx, time.Duration(rng.IntN(2000))*time.Microsecond)
			} else {
				lim.Nodes = 1 + rng.Uint64N(nodes)
			}
			got, _, ok := answerWithin(ctx, c, lim)
			cancel()
			if !ok {
				stops++
				continue
			}
			finished++
			if !slices.Equal(got, full) {
				t.Fatalf("seed %d: %s %s, %+v: a stopped solve gave %d of the %d lines or keys as its answer",
					seed, c.pos.FEN(), c.stip, lim, len(got), len(full))
			}
		}
	}
	t.Logf("%d solves stopped, %d finished with the whole answer", stops, finished)
}

// answerWithin solves c within ctx and lim: the solutions (help and
// series play) or the shortest length and keys (forced play), the nodes,
// and false when a limit stopped it.
func answerWithin(ctx context.Context, c sweepCase, lim Limits) ([]string, uint64, bool) {
	if c.stip.IsForced() {
		res, err := Selfmates(ctx, c.pos, c.stip, lim)
		if errors.Is(err, ErrLimit) {
			return nil, res.Nodes, false
		}
		out := []string{problem.Mate(res.Shortest).String()}
		for _, k := range res.Keys {
			out = append(out, k.UCI())
		}
		return out, res.Nodes, true
	}
	res, err := Lines(ctx, c.pos, c.stip, lim)
	if errors.Is(err, ErrLimit) {
		return nil, res.Nodes, false
	}
	return lines(res.Solutions), res.Nodes, true
}
