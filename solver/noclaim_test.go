package solver

import (
	"context"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// noClaimMates are lines of matetrack.epd outside the shared samples
// (every 13th line, less those the samples hold), with their stated mate.
var noClaimMates = []struct {
	fen string
	bm  problem.Mate
}{
	{"1K5b/1p1Np1n1/1R3p2/1PP5/2pkp3/R3N1p1/2PP2bq/8 w - - 0 1", 11},
	{"5k2/6N1/4B2K/6B1/4N3/3p4/1n4p1/b2b4 w - - 0 1", 12},
	{"3b4/8/p3Bn2/p2p2Np/1P1kpB1P/N4pK1/3PbP2/8 w - - 0 1", 13},
	{"8/2p1K1p1/3pp2b/2B3k1/N2pR2N/3p2p1/2n5/rb1B4 w - - 0 1", 14},
	{"1R2B1b1/5p2/1b2p3/2pp4/8/8/1p1K4/k6n w - - 0 1", 15},
	{"3R4/2R5/8/7k/p7/4K1p1/8/1r4r1 w - - 0 1", 16},
	{"6r1/1R3p2/4p1q1/1R1p4/1pB5/8/1p2N3/kb1K4 w - - 0 1", 17},
}

// TestNoClaimFindsLongMates: asked with no claim and no cap, as a user at
// a terminal or a GUI asks, each of these mates in 11 to 17 is found
// within a budget of a few seconds, with its key and a whole line that
// ends in mate; the search never calls it no-mate or capped, and what it
// proves from below agrees with the mate it found.
func TestNoClaimFindsLongMates(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds a position")
	}
	sv := New(64)
	for _, tc := range noClaimMates {
		pos := board.MustParseFEN(tc.fen)
		res := sv.Solve(context.Background(), pos, Options{MaxMate: MaxMateMoves, Nodes: 12_000_000, Threads: 1})
		m := res.Mate
		if res.Status == StatusLimit {
			m = res.MateWithin
		}
		if res.Status != StatusMate && res.Status != StatusLimit || m <= 0 {
			t.Errorf("%s (#%d): %v mate %v within %v depth %d after %d nodes", tc.fen, tc.bm, res.Status, res.Mate, res.MateWithin, res.Depth, res.Nodes)
			continue
		}
		if len(res.PV) != m.Plies() || !checkmates(pos, res.PV) || len(res.Keys) == 0 || res.Keys[0] != res.PV[0] || res.Partial {
			t.Errorf("%s: %v %v with keys %v and line %v (%d plies), partial %v", tc.fen, res.Status, m, res.Keys, res.PV, len(res.PV), res.Partial)
		}
		if m < tc.bm || res.Depth >= m.Moves() {
			t.Errorf("%s: mate %v and no mate in %d or fewer, where matetrack states #%d", tc.fen, m, res.Depth, tc.bm)
		}
		t.Logf("#%d: %v %v, no mate in %d or fewer, %d nodes", tc.bm, res.Status, m, res.Depth, res.Nodes)
	}
}

// TestMateWithinKeys: a limit after a forced mate was proved, but not
// its shortness, still gives the proved line (exact plies, ending in
// mate) and its key first; with AllKeys the other keys are looked for
// within the twentieth of the nodes kept for them, and a list it could not finish says
// so (Partial), never passing for every key.
func TestMateWithinKeys(t *testing.T) {
	pos := board.MustParseFEN("k7/2Q5/8/2p5/1pp5/1pp5/prp5/nbK5 w - - 0 1")
	for _, all := range []bool{false, true} {
		res := New(64).Solve(context.Background(), pos, Options{MaxMate: MaxMateMoves, Nodes: 1_000_000, Threads: 1, AllKeys: all})
		if res.Status != StatusLimit || res.MateWithin <= 0 || len(res.PV) != res.MateWithin.Plies() || !checkmates(pos, res.PV) {
			t.Fatalf("all %v: %v within %v line %v after %d nodes", all, res.Status, res.MateWithin, res.PV, res.Nodes)
		}
		if len(res.Keys) == 0 || res.Keys[0] != res.PV[0] || res.AllKeys && res.Partial || all && !res.AllKeys && !res.Partial || !all && (res.AllKeys || res.Partial) {
			t.Errorf("all %v: keys %v (every one %v, partial %v), line %v", all, res.Keys, res.AllKeys, res.Partial, res.PV)
		}
		t.Logf("all %v: %v within %v, no mate in %d or fewer: keys %v (every one %v, partial %v)", all, res.Status, res.MateWithin, res.Depth, res.Keys, res.AllKeys, res.Partial)
	}
}
