package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"mateline.dev/mateline/board"
)

// TestProofNumberAgainstMinimax: on random positions the proof-number
// search decides "mates within k plies" and "is mated within k plies"
// exactly as the plain minimax does, for k up to 4, and as the alpha-beta
// search does for 5 and 6 plies.
func TestProofNumberAgainstMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	s := testSearcher(New(8))
	yes, no := map[int]int{}, map[int]int{}
	for tries := 0; tries < 4000; tries++ {
		pos, ok := randomPosition(rng)
		if !ok {
			continue
		}
		for plies := 1; plies <= 6; plies++ {
			var want bool
			switch {
			case plies <= 4 && plies%2 == 1:
				want = refWins(&pos, plies)
			case plies <= 4:
				want = refLoses(&pos, plies)
			default:
				want = s.rootTest(s.newQuery(attackerFor(pos, plies)), pos, plies)
			}
			got, decided := s.pnProve(s.newQuery(attackerFor(pos, plies)), pos, plies)
			if !decided || got != want {
				t.Fatalf("%s within %d plies: df-pn %v (decided %v), reference %v", pos.FEN(), plies, got, decided, want)
			}
			if want {
				yes[plies]++
			} else {
				no[plies]++
			}
		}
	}
	t.Logf("mates by plies: %v; none: %v", yes, no)
	for plies := 1; plies <= 6; plies++ {
		if yes[plies] < 20 || no[plies] < 20 {
			t.Errorf("too few cases at %d plies: %d mates, %d none", plies, yes[plies], no[plies])
		}
	}
}

// attackerFor is the side that mates within plies of pos: the side to move
// for an odd count, the other side for an even one.
func attackerFor(pos board.Position, plies int) board.Color {
	if plies%2 == 1 {
		return pos.Side()
	}
	return pos.Side().Other()
}

// TestMateWithinUnderLimits: with node limits too small for the iterations
// to finish, a mate the proof-number search proves is reported as an upper
// bound (never below the true length, never as the shortest), and without
// limits the solve still proves the exact length.
func TestMateWithinUnderLimits(t *testing.T) {
	tests := []struct {
		fen  string
		mate int
	}{
		{"8/8/2PBk1B1/4P3/1N1p3p/1K1p1P2/1n3pP1/5r1n w - - 0 1", 7},
		{"3K2B1/n7/2pk2N1/2r1N3/p3nP1p/B1p3P1/3bb2r/8 w - - 0 1", 7},
		{"8/8/6pp/3q2pk/4Nnb1/2Q4p/3NnPP1/7K w - - 0 1", 7},
		{"Kn2k3/6RN/4p3/b3p1B1/8/8/1p6/8 w - - 0 1", 7},
		{"1K6/1B3p2/1k6/b1p2p2/Pp1p1P2/1p1P4/1B6/8 w - - 0 1", 7},
		{"8/kP6/8/8/8/2B5/P5K1/5B2 w - - 0 1", 7},
	}
	sv := New(16)
	upper := 0
	for _, tc := range tests {
		pos, err := board.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		full := sv.Solve(context.Background(), pos, Options{MaxMate: tc.mate, Want: WantMate, NoKeys: true})
		if full.Status != StatusMate || int(full.Mate) != tc.mate {
			t.Fatalf("%s: %v mate %d, want mate %d", tc.fen, full.Status, full.Mate, tc.mate)
		}
		for _, nodes := range []uint64{30_000, 100_000, 300_000} {
			// A fresh solver: the tables of the full solve would answer at once.
			res := New(4).Solve(context.Background(), pos, Options{MaxMate: tc.mate, Want: WantMate, Nodes: nodes, NoKeys: true})
			switch res.Status {
			case StatusMate:
				if int(res.Mate) != tc.mate {
					t.Fatalf("%s with %d nodes: mate %d, want %d", tc.fen, nodes, res.Mate, tc.mate)
				}
			case StatusLimit:
				if res.Mate != 0 || res.Depth >= tc.mate {
					t.Fatalf("%s with %d nodes: limit with mate %d depth %d", tc.fen, nodes, res.Mate, res.Depth)
				}
				if res.MateWithin != 0 {
					upper++
					if int(res.MateWithin) < tc.mate || res.Depth >= res.MateWithin.Moves() {
						t.Fatalf("%s with %d nodes: mate within %d, depth %d; true mate %d", tc.fen, nodes, res.MateWithin, res.Depth, tc.mate)
					}
				}
			default:
				t.Fatalf("%s with %d nodes: %v", tc.fen, nodes, res.Status)
			}
		}
	}
	// Aimed at the claim while looking beyond it (as validate does), the
	// upper bound is the claim.
	aimed := 0
	for _, tc := range tests {
		pos, _ := board.ParseFEN(tc.fen)
		res := New(4).Solve(context.Background(), pos, Options{MaxMate: tc.mate + 2, Aim: tc.mate, Want: WantMate, Nodes: 100_000, NoKeys: true})
		if res.MateWithin != 0 {
			aimed++
			if int(res.MateWithin) != tc.mate {
				t.Errorf("%s aimed at %d: mate within %d", tc.fen, tc.mate, res.MateWithin)
			}
		}
		if res.Status == StatusMate && int(res.Mate) != tc.mate {
			t.Errorf("%s aimed at %d: mate %d", tc.fen, tc.mate, res.Mate)
		}
	}
	if aimed == 0 {
		t.Error("no aimed solve reported an upper bound")
	}
	if upper == 0 {
		t.Error("no limit fell between the proof-number search's proof and the iterations': the test checks nothing")
	}
	t.Logf("%d limited solves reported an upper bound", upper)
}

// TestProofNumberSlices: the proof-number search stopped again and again by
// small node budgets reaches the same answer as one run without limits.
func TestProofNumberSlices(t *testing.T) {
	tests := []struct {
		fen   string
		plies int
		mates bool
	}{
		{"b3kqr1/2p1p2K/2R2b2/1Q6/p1p5/1p6/8/8 w - - 0 1", 17, true},
		{"8/8/2PBk1B1/4P3/1N1p3p/1K1p1P2/1n3pP1/5r1n w - - 0 1", 13, true},
		{"8/8/2PBk1B1/4P3/1N1p3p/1K1p1P2/1n3pP1/5r1n w - - 0 1", 9, false},
		{"8/kP6/8/8/8/2B5/P5K1/5B2 w - - 0 1", 13, true},
	}
	for _, tc := range tests {
		pos, err := board.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, budget := range []uint64{1500, 5000, 20000} {
			s := testSearcher(New(4))
			slices := 0
			for ; slices < 100000; slices++ {
				q := s.newQuery(pos.Side()).withNodes(s, budget)
				mates, decided := s.pnProve(q, pos, tc.plies)
				if s.limitReached() {
					t.Fatal("a slice stopped the solve")
				}
				if decided {
					if mates != tc.mates {
						t.Fatalf("%s within %d plies: %v after %d slices of %d nodes, want %v", tc.fen, tc.plies, mates, slices, budget, tc.mates)
					}
					break
				}
			}
			if slices == 100000 {
				t.Fatalf("%s: undecided after %d slices", tc.fen, slices)
			}
		}
	}
}

// TestSolveFindsMateAfterSlices: the iterations and the proof-number search
// take turns, so the search is stopped and resumed many times; the mate
// must still be proved well within the budget. (A stop inside the
// alpha-beta search at the proof-number search's leaves once stored false
// disproofs, and this mate was never found.)
func TestSolveFindsMateAfterSlices(t *testing.T) {
	pos, err := board.ParseFEN("b3kqr1/2p1p2K/2R2b2/1Q6/p1p5/1p6/8/8 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	res := New(16).Solve(context.Background(), pos, Options{MaxMate: 9, Want: WantMate, Nodes: 3_000_000, NoKeys: true})
	if res.Status != StatusMate || res.Mate != 9 {
		t.Fatalf("%v mate %d (within %d, depth %d, %d nodes), want mate 9", res.Status, res.Mate, res.MateWithin, res.Depth, res.Nodes)
	}
}

// testSearcher binds a searcher of sv to a solve with no limits, for tests
// that ask it questions directly.
func testSearcher(sv *Solver) *searcher {
	return sv.threads(1, &env{tt: sv.tt, pn: sv.pn, lim: &limits{}, cuts: shortcuts.All()})[0]
}
