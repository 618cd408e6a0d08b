package puzzles_test

import (
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/solver"
)

// TestLimitVerdict: a limit that stopped the proof of shortness after a
// forced mate of the claimed length was proved is a timeout of the
// length, not ok; one that stopped the keys of a mate proved shortest is a
// timeout of the keys; what a limit leaves proved either way is a verdict.
func TestLimitVerdict(t *testing.T) {
	rec := epd.ParseLine("t.epd", 4, `b3kqr1/2p1p2K/2R2b2/1Q6/p1p5/1p6/8/8 w - - bm #9; id "long";`)
	key := board.Move(0)
	for _, c := range []struct {
		name string
		res  solver.Result
		want puzzles.Verdict
		cut  puzzles.Cut
	}{
		{"mate within, not shortest", solver.Result{Status: solver.StatusLimit, MateWithin: 9, Depth: 6}, puzzles.VerdictTimeout, puzzles.CutLength},
		{"nothing proved", solver.Result{Status: solver.StatusLimit}, puzzles.VerdictTimeout, puzzles.CutLength},
		{"keys cut", solver.Result{Status: solver.StatusMate, Mate: 9, Depth: 9, Partial: true, Keys: []board.Move{key}}, puzzles.VerdictTimeout, puzzles.CutKeys},
		{"a shorter mate within", solver.Result{Status: solver.StatusLimit, MateWithin: 7, Depth: 4}, puzzles.VerdictShorter, ""},
		{"none within the claim", solver.Result{Status: solver.StatusLimit, Depth: 9}, puzzles.VerdictNoMate, ""},
	} {
		if v, cut := puzzles.VerdictOf(&rec, c.res, 9); v != c.want || cut != c.cut {
			t.Errorf("%s: verdict %q cut %q, want %q %q", c.name, v, cut, c.want, c.cut)
		}
	}
}
