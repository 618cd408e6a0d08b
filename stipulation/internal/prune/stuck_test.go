package prune

import (
	"strings"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// TestBudgetTestCasesByHand: positions where the budget test must refuse
// (no mate or stalemate left within the moves given) or allow, White to
// give it with m moves, Black with d.
func TestBudgetTestCasesByHand(t *testing.T) {
	cases := []struct {
		name  string
		fen   string
		aim   problem.Aim
		m, d  int
		allow bool
	}{
		// the mate c6xb7 needs a black man on b7 to take
		{"pawn takes nothing", "k7/p1K5/2P5/8/8/8/8/8 w - - 0 1", problem.Checkmate, 1, 0, false},
		{"pawn takes the knight", "k7/pnK5/2P5/8/8/8/8/8 w - - 0 1", problem.Checkmate, 1, 0, true},
		{"a knight can come to be taken", "k7/p1K5/2P5/8/n7/8/8/8 w - - 0 1", problem.Checkmate, 1, 2, true},
		// the king on a8 has no move; the queen on h1 must be taken
		{"a free queen", "k7/3N4/1K6/8/8/8/8/7q w - - 0 1", problem.Stalemate, 1, 0, false},
		{"a queen the rook takes", "k7/3N4/1K6/8/8/7R/8/7q w - - 0 1", problem.Stalemate, 1, 0, true},
		{"two queens, one move", "k7/3N4/1K6/7q/8/7R/8/7q w - - 0 1", problem.Stalemate, 1, 0, false},
		{"two queens, two moves", "k7/3N4/1K6/7q/8/7R/8/7q w - - 0 1", problem.Stalemate, 2, 0, true},
		// the knight on h8 and the pawns: blocked, or the knight free
		{"a knight blocked by its pawns", "k6n/3N1p2/1K3Pp1/6P1/8/8/8/8 w - - 0 1", problem.Stalemate, 1, 0, true},
		{"a knight free", "k6n/3N1p2/1K3P2/6P1/8/8/8/8 w - - 0 1", problem.Stalemate, 1, 0, false},
		// the knights on a7 and b8 can only be pinned, each by a pinner
		// of its own: the queen pins one of them at most
		{"two knights, one pinner", "kn6/n7/2K5/8/8/8/8/7Q w - - 0 1", problem.Stalemate, 1, 0, false},
		{"two knights, two pinners", "kn6/n7/2K5/8/8/8/8/R6Q w - - 0 1", problem.Stalemate, 1, 0, true},
	}
	for _, tc := range cases {
		pos, err := board.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		var bt BudgetTest
		if got := bt.anySquareLeft(&pos, tc.aim, board.White, tc.m, tc.d); got != tc.allow {
			t.Errorf("%s: %s, m %d d %d: allows %v, want %v", tc.name, tc.fen, tc.m, tc.d, got, tc.allow)
		}
	}
}

// TestStuckAllowsSolutions: every position along the solutions of
// Popeye's helpstalemates (BEISPIEL/hpint.inp) is let through by the
// budget test, the stuck test included, and by the movers test, and no
// move of them is dropped unplayed (movable, endsOn, quietRefused).
func TestStuckAllowsSolutions(t *testing.T) {
	for _, tc := range []struct{ name, fen, stip, line string }{
		{"hpint.inp:260", "8/p7/B7/7p/P3K1pr/7b/1p2p2p/6k1 b - - 0 1", "h=5", "b2b1r a4a5 b1b6 a5b6 e2e1n b6b7 e1g2 b7b8q h2h1b b8g3"},
		{"hpint.inp:276", "8/8/6KP/8/8/8/1pp1Rppp/k7 b - - 0 1", "h=4", "c2c1r h6h7 c1h1 h7h8q g2g1b h8h3 b2b1n h3f1"},
		{"hpint.inp:284", "8/7K/6P1/8/8/8/1pp1Rppp/k7 b - - 0 1", "h=4", "c2c1r g6g7 c1h1 g7g8q g2g1b g8g2 b2b1n g2f1"},
		{"hpint.inp:603", "5N2/p6b/6pk/8/6K1/1p6/1Pp4P/2N5 b - - 0 1", "h=5", "a7a5 h2h4 a5a4 h4h5 a4a3 h5g6 a3a2 g6h7 a2a1n h7h8b"},
		{"hpint.inp:611", "8/p6b/6pk/8/6K1/8/1p5P/1B6 b - - 0 1", "h=5", "a7a5 h2h4 a5a4 h4h5 a4a3 h5g6 a3a2 g6h7 a2a1b h7h8b"},
		{"hpint.inp:619", "7k/1p3n2/5N2/8/8/8/p1p1P3/BbN4K b - - 0 1", "h=5", "b7b5 e2e4 b5b4 e4e5 b4b3 e5e6 b3b2 e6f7 b2a1r f7f8b"},
		{"hpint.inp:773", "8/8/6K1/8/1P3p2/8/1p1p2p1/7k b - - 0 1", "h=6", "g2g1b b4b5 g1a7 b5b6 b2b1r b6a7 b1b8 a7b8q d2d1n b8f4 d1f2 f4f2"},
		{"hpint.inp:922", "5n2/K7/8/8/8/8/p2pP1p1/7k b - - 0 1", "h=6", "a2a1b e2e4 a1f6 e4e5 g2g1r e5f6 g1g7 f6g7 d2d1n g7f8q d1f2 f8f2"},
		// the man that moves with two black moves left moves once, with
		// another man after it (endsOn)
		{"hpint.inp:64", "5k2/3r3p/6b1/1p6/3RQ3/3KB1r1/B7/8 b - - 0 1", "h=3", "d7e7 d4d8 g6e8 e4b4 g3g7 e3h6"},
		{"hpint.inp:371", "bqknn2R/p6r/3Q4/8/8/7R/1rB4K/8 b - - 0 1", "h=3", "h7d7 h3c3 e8c7 d6a6 b2b7 c2f5"},
		{"hpint.inp:729", "b7/8/8/8/3r4/7K/8/1N5k b - - 0 1", "h=2", "d4d2 b1d2 a8f3 d2f3"},
		{"hpint.inp:939", "kr6/b1p5/8/8/2K5/8/2P5/8 b - - 0 1", "h=4", "a8b7 c4b5 b8a8 c2c4 a7b8 c4c5 b7a7 c5c6"},
	} {
		pos, err := board.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := problem.Parse(tc.stip)
		plies := st.Plies()
		var bt BudgetTest
		var mv moversTest
		h := New(plies, problem.Stalemate, EndsInAim, All)
		for i, uci := range strings.Fields(tc.line) {
			left := plies - i
			mater, mm := pos.Side(), (left+1)/2
			if left%2 == 0 {
				mater, mm = mater.Other(), left/2
			}
			if left >= 2 && !bt.anySquareLeft(&pos, problem.Stalemate, mater, mm, left-mm) {
				t.Errorf("%s: refused after %d plies (%s), %d moves and %d left", tc.name, i, pos.FEN(), mm, left-mm)
			}
			if left >= 2 && !mv.canStalemate(&pos, budget(), mater, mm, left-mm) {
				t.Errorf("%s: the movers test refuses after %d plies (%s), %d moves and %d left", tc.name, i, pos.FEN(), mm, left-mm)
			}
			m, err := pos.ParseUCI(uci)
			if err != nil {
				t.Fatalf("%s: %s: %v", tc.name, uci, err)
			}
			// the move is kept by dropMoves: its man is movable and, with
			// two moves left, may end where it goes (endsOn); or, the
			// other side's, quietRefused does not drop it
			movable := Everywhere
			if pos.Side() != mater {
				movable = h.movers.movable(&pos, budget(), mater, mm, left-mm)
			}
			if !movable.Has(m.From()) {
				t.Errorf("%s: %s is of a man movable leaves out (%s)", tc.name, uci, pos.FEN())
			} else if left >= 2 {
				var l board.MoveList
				l.Moves[0], l.N = m, 1
				if h.dropMoves(&pos, &l, movable, mater, mm, left-mm); l.N == 0 {
					t.Errorf("%s: dropMoves drops %s (%s)", tc.name, uci, pos.FEN())
				}
			}
			pos.Play(m)
		}
		if !pos.IsStalemate() {
			t.Errorf("%s: the line does not stalemate", tc.name)
		}
	}
}
