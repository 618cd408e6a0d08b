package board_test

import (
	"math/rand/v2"
	"testing"

	"mateline.dev/mateline/board"
)

// TestKeyAfter plays random games and compares KeyAfter with the key Play
// computes: equal for every move that changes no castling right and makes
// no en-passant square, as documented.
func TestKeyAfter(t *testing.T) {
	starts := randomGameStarts
	rng := rand.New(rand.NewPCG(3, 4))
	exact, hinted := 0, 0
	for game := 0; game < 200; game++ {
		pos, err := board.ParseFEN(starts[game%len(starts)])
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 120; ply++ {
			var l board.MoveList
			pos.LegalMoves(&l)
			if l.N == 0 {
				break
			}
			for _, m := range l.Slice() {
				child := pos
				child.Play(m)
				documented := child.Castling() == pos.Castling() && child.EnPassant() == board.NoSquare &&
					!m.IsCastling() && !m.IsEnPassant()
				if pos.KeyAfterIsExact(m) && pos.KeyAfter(m) != child.Key() {
					t.Fatalf("%s %s: KeyAfterIsExact, but KeyAfter %x, Play %x", pos.FEN(), m, pos.KeyAfter(m), child.Key())
				}
				if pos.KeyAfterIsExact(m) && !documented {
					t.Fatalf("%s %s: KeyAfterIsExact outside the documented cases", pos.FEN(), m)
				}
				switch got := pos.KeyAfter(m); {
				case !documented:
					hinted++
				case got != child.Key():
					t.Fatalf("%s %s: KeyAfter %x, Play %x", pos.FEN(), m, got, child.Key())
				default:
					exact++
				}
			}
			pos.Play(l.Moves[rng.IntN(l.N)])
		}
	}
	if exact < 100000 {
		t.Errorf("only %d moves compared", exact)
	}
	t.Logf("%d moves exact, %d outside the documented cases", exact, hinted)
}
