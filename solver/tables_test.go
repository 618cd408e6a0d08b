package solver_test

import (
	"context"
	"errors"
	"io"
	"testing"

	"mateline.dev/mateline/endgame"
	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/internal/shareddata"
	"mateline.dev/mateline/solver"
)

// TestTablesKeepMateLengths solves samples of KRvK and KQvKR with and
// without the Syzygy tables under the same node budget: every mate proved
// both ways has the same length and the suite's, and the tables never cost
// more nodes.
func TestTablesKeepMateLengths(t *testing.T) {
	tb, err := endgame.Open(shareddata.Path(t, "syzygy"))
	if err != nil {
		t.Fatal(err)
	}
	prober := endgame.Prober{TB: tb}
	for _, file := range []string{"KRvK1000pv.epd", "KQvKR1000pv.epd"} {
		r, c, err := inputs.Open(shareddata.Path(t, "suites", "matetools", file), inputs.FormatAuto)
		if err != nil {
			t.Fatal(err)
		}
		var nodesWith, nodesWithout uint64
		solvedWith, solvedWithout, n := 0, 0, 0
		for i := 0; n < 12; i++ {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil || rec.Err != nil || i%40 != 0 || rec.Claim.Mate.Moves() > 8 {
				continue
			}
			n++
			opt := solver.Options{Nodes: 3_000_000}.ForClaim(rec.Claim.Mate)
			plain := solver.New(16).Solve(context.Background(), rec.Pos, opt)
			opt.Prober = prober
			with := solver.New(16).Solve(context.Background(), rec.Pos, opt)
			nodesWith += with.Nodes
			nodesWithout += plain.Nodes
			if with.Status == solver.StatusMate {
				solvedWith++
				if with.Mate != rec.Claim.Mate {
					t.Errorf("%s:%d: with tables mate %d, suite %d", file, rec.Line, with.Mate, rec.Claim.Mate)
				}
			}
			if plain.Status == solver.StatusMate {
				solvedWithout++
				if with.Status == solver.StatusMate && with.Mate != plain.Mate {
					t.Errorf("%s:%d: tables changed the mate: %d vs %d", file, rec.Line, with.Mate, plain.Mate)
				}
			}
			if with.TBHits == 0 {
				t.Errorf("%s:%d: no table hits", file, rec.Line)
			}
		}
		c.Close()
		t.Logf("%s: %d positions; with tables %d solved in %d nodes, without %d in %d", file, n,
			solvedWith, nodesWith, solvedWithout, nodesWithout)
		if solvedWith < solvedWithout || nodesWith > nodesWithout {
			t.Errorf("%s: the tables made things worse", file)
		}
	}
}
