package puzzles_test

import (
	"testing"

	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/solver"
)

// TestLimitVerdict: a limit that stopped the proof of shortness after a
// forced mate of the claimed length was proved is a timeout, not ok.
func TestLimitVerdict(t *testing.T) {
	rec := epd.ParseLine("t.epd", 4, `b3kqr1/2p1p2K/2R2b2/1Q6/p1p5/1p6/8/8 w - - bm #9; id "long";`)
	res := solver.Result{Status: solver.StatusLimit, MateWithin: 9, Depth: 6}
	if v := puzzles.VerdictOf(&rec, res, 9); v != puzzles.VerdictTimeout {
		t.Errorf("verdict %q, want %q", v, puzzles.VerdictTimeout)
	}
}
