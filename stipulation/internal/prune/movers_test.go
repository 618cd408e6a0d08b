package prune

import (
	"math/rand/v2"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/testpos"
)

// TestMoversCasesByHand: positions where the movers test must refuse or
// allow a stalemate of Black, White having m moves and Black d.
func TestMoversCasesByHand(t *testing.T) {
	cases := []struct {
		name  string
		fen   string
		m, d  int
		allow bool
	}{
		// the bishop on e6 must be taken, the pawns on a7 and c2 taken or
		// blocked: three moves of White's, or Black's one move for one
		{"three to stop, two moves", "8/p7/3Kbp2/8/4k3/1p2B3/1Pp1P3/8 w - - 7 5", 2, 1, false},
		{"three to stop, three moves", "8/p7/3Kbp2/8/4k3/1p2B3/1Pp1P3/8 w - - 7 5", 3, 1, true},
		// the queen and the bishop are free; White can take one
		{"queen and bishop free", "8/p7/3K1p2/5kB1/2b5/1p6/1P2P3/2q5 w - - 0 5", 2, 1, false},
		// the king on h8 has three flights White's king cannot attack
		{"a free king", "7k/8/8/8/8/1p6/2p4p/n1K5 b - - 0 1", 1, 1, false},
		// the king steps to d8, where the knight and the bishop (taking
		// on c6, the pawn's only stop) attack its flights
		{"the king steps into the net", "1K6/1B2k3/2p5/5N2/8/8/8/8 b - - 0 1", 1, 1, true},
		// two knights in the open, one move each side: no
		{"two knights free", "7k/8/2n5/8/4n3/8/8/K7 b - - 0 1", 1, 1, false},
		// one knight, the other side's rook pins it on the king's file
		{"a knight pinned", "4k3/8/4n3/8/8/8/8/K3R3 b - - 0 1", 1, 1, true},
		// the pawn on b2 must move, and promotes: the piece it becomes is
		// free on b1 unless White takes it there
		{"a free promoted piece", "7k/5K1p/7P/8/8/8/1p6/8 b - - 0 1", 1, 1, false},
		{"a promoted piece taken", "7k/5K1p/7P/8/8/8/1p6/R7 b - - 0 1", 1, 1, true},
	}
	for _, tc := range cases {
		pos, err := board.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		var mv moversTest
		if got := mv.canStalemate(&pos, budget(), board.White, tc.m, tc.d); got != tc.allow {
			t.Errorf("%s: %s, m %d d %d: allows %v, want %v", tc.name, tc.fen, tc.m, tc.d, got, tc.allow)
		}
	}
}

// TestSoloCostIsStayCost: soloCosts, worked out once per man, gives what
// stayCost gives for that man moving alone, on every square it may fill,
// on none, and back on its own square; a pair pairFree refuses has
// stayCost never, and a man alone it refuses has soloCost never. On
// random positions of Black's men in the open or behind pawns, Black to
// be stalemated with one or two moves.
func TestSoloCostIsStayCost(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	b := budget()
	checked := 0
	for n := 0; n < 3000; n++ {
		pos, err := board.ParseFEN(testpos.OpenPlacement(rng, 5) + " b - - 0 1")
		if err != nil || pos.InCheck() {
			continue
		}
		m, d := 1+rng.IntN(3), 1+rng.IntN(2)
		var mv moversTest
		mv.place(&pos, b, board.Black, d)
		mv.reaches(&pos, b, board.White, m, board.NoSquare, 0)
		mv.fitsPlaced(m, d)
		hard1 := mv.hardMen(1)
		for i, x := range mv.from {
			sc := mv.soloCosts(x)
			if !mv.pairFree(hard1, i, i) && (sc.cost(board.NoSquare) != never || sc.back != never || !sc.hard) {
				t.Fatalf("%s: pairFree refuses %s alone, soloCost does not", pos.FEN(), x)
			}
			one := [1]pick{{sq: x}}
			if got, want := sc.cost(board.NoSquare), mv.stayCost(one[:], board.SquareBB(x)); got != want {
				t.Fatalf("%s, %s alone filling none: %d, stayCost %d", pos.FEN(), x, got, want)
			}
			if got, want := sc.back, mv.stayCost(one[:], 0); got != want {
				t.Fatalf("%s, %s back: %d, stayCost %d", pos.FEN(), x, got, want)
			}
			for fs := b.stands[board.Black][mv.kinds[i]][x][d] &^ board.SquareBB(x); fs != 0; {
				f := fs.PopFirst()
				one[0].reach = board.SquareBB(f)
				if got, want := sc.cost(f), mv.stayCost(one[:], board.SquareBB(x)); got != want {
					t.Fatalf("%s, %s filling %s: %d, stayCost %d", pos.FEN(), x, f, got, want)
				}
				checked++
			}
		}
		hard := mv.hardMen(2)
		for i := range mv.from {
			for j := i + 1; j < len(mv.from); j++ {
				ps := [2]pick{mv.singleMove(i), mv.singleMove(j)}
				if !mv.pairFree(hard, i, j) && mv.stayCost(ps[:], board.SquareBB(mv.from[i])|board.SquareBB(mv.from[j])) != never {
					t.Fatalf("%s: pairFree refuses %s and %s, stayCost does not", pos.FEN(), mv.from[i], mv.from[j])
				}
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d squares checked", checked)
	}
}
