package stipulation

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/problem"
)

// nearStalemate reads placement, with the side to move of st (Black is
// stalemated: Black moves first in h=N, White in h=N.5) and the castling
// rights, and reports whether play can start there, Black having at
// most eight moves.
func nearStalemate(placement string, st problem.Stipulation, rights string) (board.Position, bool) {
	side := " b "
	if st.Plies()%2 == 1 {
		side = " w "
	}
	pos, err := board.ParseFEN(placement + side + rights + " - 0 1")
	if err != nil || pos.InCheck() || !pos.HasLegalMove() {
		return pos, false
	}
	black := pos
	if side == " w " {
		black.Pass()
	}
	var l board.MoveList
	black.LegalMoves(&l)
	return pos, len(l.Slice()) <= 8
}

// TestStuckSound: the stuck test drops no helpstalemate. On random
// positions with larger armies for the side to be stalemated (pawns that
// block one another, pieces to shut in) and at most eight moves for it,
// h=1 to h=2.5, the solutions with the tests equal those without them.
func TestStuckSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	const mating, stalemated = "QRBNNP", "pppppbnrq"
	compared, sols := compareNear(t, []string{"h=1", "h=1.5", "h=2", "h=2.5"}, 150, "-", func() string {
		men := "Kk"
		for n := rng.IntN(3); n > 0; n-- {
			men += string(mating[rng.IntN(len(mating))])
		}
		for n := 2 + rng.IntN(4); n > 0; n-- {
			men += string(stalemated[rng.IntN(len(stalemated))])
		}
		return testpos.Placement(rng, men)
	}, nil)
	if len(sols) == 0 {
		t.Error("no solution compared")
	}
	t.Logf("%d positions, %d solutions compared", compared, len(sols))
}

// compareNear compares, for each stipulation of stips, per positions
// near a stalemate (placements made by place, with the castling rights;
// keep, when not nil, may refuse one) solved with and without the tests
// (sameWithoutTests), and returns the positions compared and their
// solutions.
func compareNear(t *testing.T, stips []string, per int, rights string, place func() string, keep func(*board.Position) bool) (int, []Line) {
	t.Helper()
	compared := 0
	var sols []Line
	for _, stip := range stips {
		st, _ := problem.Parse(stip)
		for made := 0; made < per; {
			pos, ok := nearStalemate(place(), st, rights)
			if !ok || keep != nil && !keep(&pos) {
				continue
			}
			made++
			sols = append(sols, sameWithoutTests(t, pos, st)...)
			compared++
		}
	}
	return compared, sols
}

// TestStuckSoundWithCastling: while the stalemating side (White) may
// castle, its king and rook also count on their castled squares. On
// random helpstalemates with White's king and rooks at home and its
// rights, the solutions with the tests equal those without them.
func TestStuckSoundWithCastling(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	const stalemated = "pppppbnr"
	compared, sols := compareNear(t, []string{"h=1", "h=1.5", "h=2"}, 200, "KQ", func() string {
		grid := [64]byte{0: 'R', 4: 'K', 7: 'R'}
		men := "k"
		for n := rng.IntN(3); n > 0; n-- {
			men += string("QBNP"[rng.IntN(4)])
		}
		for n := 2 + rng.IntN(4); n > 0; n-- {
			men += string(stalemated[rng.IntN(len(stalemated))])
		}
		return testpos.PlacementOn(rng, &grid, men)
	}, func(pos *board.Position) bool { return pos.Castling() != 0 })
	castles := movesWhere(sols, board.Move.IsCastling)
	if len(sols) == 0 || castles == 0 {
		t.Errorf("%d solutions, %d castling: the comparison proved little", len(sols), castles)
	}
	t.Logf("%d positions, %d solutions compared, %d castling moves in them", compared, len(sols), castles)
}

// TestStuckSoundWithPromotions: a pawn of the stalemated side that may
// promote must end stuck as a pawn or as the piece it becomes. On random
// helpstalemates with one to three black pawns a move or two from
// promotion, the solutions with the tests equal those without them, and
// some of them promote.
func TestStuckSoundWithPromotions(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	const stalemated = "ppbnr"
	compared, sols := compareNear(t, []string{"h=1", "h=1.5", "h=2", "h=2.5"}, 150, "-", func() string {
		var grid [64]byte
		for n := 1 + rng.IntN(3); n > 0; n-- {
			grid[8+rng.IntN(16)] = 'p' // the second or third rank
		}
		men := "Kk"
		for n := rng.IntN(3); n > 0; n-- {
			men += string("QRBNP"[rng.IntN(5)])
		}
		for n := rng.IntN(3); n > 0; n-- {
			men += string(stalemated[rng.IntN(len(stalemated))])
		}
		return testpos.PlacementOn(rng, &grid, men)
	}, nil)
	promotions := movesWhere(sols, func(m board.Move) bool { return m.Promotion() != board.NoPieceType && m.To().Rank() == 0 })
	if len(sols) == 0 || promotions == 0 {
		t.Errorf("%d solutions, %d black promotions: the comparison proved little", len(sols), promotions)
	}
	t.Logf("%d positions, %d solutions compared, %d black promotions in them", compared, len(sols), promotions)
}

// TestStuckSoundFlightsHeld: in a stalemate a man of the stalemated side
// on one of its king's flights must end there unable to move. On random
// helpstalemates with black pieces round the black king, near an edge
// or a corner where its flights are few, the solutions with the tests
// equal those without them.
func TestStuckSoundFlightsHeld(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	compared, sols := compareNear(t, []string{"h=1", "h=1.5", "h=2"}, 200, "-", func() string {
		var grid [64]byte
		f, r := rng.IntN(8), 7-rng.IntN(2)
		if rng.IntN(2) == 0 {
			f = 7 * rng.IntN(2)
		}
		k := board.MakeSquare(f, r)
		grid[k] = 'k'
		ring := board.KingAttacks(k)
		for n := 1 + rng.IntN(3); n > 0 && ring != 0; n-- {
			sq := ring.PopFirst()
			for skip := rng.IntN(3); skip > 0 && ring != 0; skip-- {
				sq = ring.PopFirst()
			}
			grid[sq] = "bnrqp"[rng.IntN(5)]
			if grid[sq] == 'p' && sq.Rank() == 7 {
				grid[sq] = 'n'
			}
		}
		men := "K"
		for n := 1 + rng.IntN(2); n > 0; n-- {
			men += string("QRBNP"[rng.IntN(5)])
		}
		return testpos.PlacementOn(rng, &grid, men)
	}, nil)
	if len(sols) == 0 {
		t.Error("no solution compared")
	}
	t.Logf("%d positions, %d solutions compared", compared, len(sols))
}

// movesWhere counts the moves of the lines for which is holds.
func movesWhere(lines []Line, is func(board.Move) bool) int {
	n := 0
	for _, line := range lines {
		for _, m := range line {
			if is(m) {
				n++
			}
		}
	}
	return n
}

// TestStuckSoundPawns: each pawn of the stalemated side ends promoted,
// taken, pinned or blocked. On random helpstalemates with three to six
// black pawns (some near promotion, some that can take) and a few white
// men, the solutions with the tests equal those without them.
// MATELINE_STUCK_SWEEP=N makes N positions per stipulation, h=3 too.
func TestStuckSoundPawns(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	stips, per := []string{"h=1", "h=1.5", "h=2", "h=2.5"}, 150
	if s := os.Getenv("MATELINE_STUCK_SWEEP"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("MATELINE_STUCK_SWEEP=%q: %v", s, err)
		}
		stips, per = append(stips, "h=3"), n
	}
	compared, sols := compareNear(t, stips, per, "-", func() string {
		var grid [64]byte
		for n := 3 + rng.IntN(4); n > 0; n-- {
			grid[8+rng.IntN(32)] = 'p' // the second to the fifth rank
		}
		men := "Kk"
		for n := 1 + rng.IntN(3); n > 0; n-- {
			men += string("QRBNPP"[rng.IntN(6)])
		}
		for n := rng.IntN(2); n > 0; n-- {
			men += string("bnr"[rng.IntN(3)])
		}
		return testpos.PlacementOn(rng, &grid, men)
	}, nil)
	promotions := movesWhere(sols, func(m board.Move) bool { return m.Promotion() != board.NoPieceType && m.To().Rank() == 0 })
	if len(sols) == 0 || promotions == 0 {
		t.Errorf("%d solutions, %d black promotions: the comparison proved little", len(sols), promotions)
	}
	t.Logf("%d positions, %d solutions compared, %d black promotions in them", compared, len(sols), promotions)
}

// TestMoversSound: the movers test drops no helpstalemate, nor do the
// moves it drops before they are played (movers.movable, quietRefused).
// On random positions where Black's pieces stand in the open or behind
// their pawns, White with line pieces to pin and take, h=1.5 to h=3 (the
// test is made with Black's last one or two moves to come), the
// solutions with the tests equal those without them.
// MATELINE_MOVERS_SWEEP=N,SEED makes N positions per stipulation from
// another seed, h=3.5 too.
func TestMoversSound(t *testing.T) {
	per, seed, stips := 120, uint64(41), []string{"h=1.5", "h=2", "h=2.5", "h=3"}
	if s := os.Getenv("MATELINE_MOVERS_SWEEP"); s != "" {
		if _, err := fmt.Sscanf(s, "%d,%d", &per, &seed); err != nil {
			t.Fatalf("MATELINE_MOVERS_SWEEP=%q: want N,SEED: %v", s, err)
		}
		stips = append(stips, "h=3.5")
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	compared, sols := compareNear(t, stips, per, "-", func() string { return testpos.OpenPlacement(rng, 3) }, nil)
	if len(sols) == 0 {
		t.Error("no solution compared")
	}
	t.Logf("%d positions, %d solutions compared", compared, len(sols))
}
