package puzzles

import (
	"testing"

	"mateline.dev/mateline/solver"
)

// TestLimitVerdict: a limit that stopped the proof of shortness after a
// forced mate of the claimed length was proved is a timeout, not ok.
func TestLimitVerdict(t *testing.T) {
	rec := ParseEPDLine("t.epd", 4, `b3kqr1/2p1p2K/2R2b2/1Q6/p1p5/1p6/8/8 w - - bm #9; id "long";`)
	res := solver.Result{Status: solver.StatusLimit, MateWithin: 9, Depth: 6}
	if v := verdict(&rec, res, 9); v != VerdictTimeout {
		t.Errorf("verdict %q, want %q", v, VerdictTimeout)
	}
}
