package dtm

import (
	"testing"

	"mateline.dev/mateline/board"
)

// TestDecidedBits: the generator marks a position decided exactly when
// the best of its captures and promotions, read from the tables they
// lead to, is its value; checked over every legal position of tables of
// two to four men, with and without pawns, both sides to move.
func TestDecidedBits(t *testing.T) {
	s := Open(t.TempDir(), Options{BuildMen: 4})
	defer s.Close()
	for _, name := range []string{"KQvK", "KRvKP", "KPvKP", "KQvKR", "KBNvK", "KPPvK", "KRvKB"} {
		m, err := ParseMaterial(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Table(m); err != nil {
			t.Fatal(err)
		}
		l := newLayout(m)
		val, decided, _ := buildMarked(t, s, m, l)
		var marked, legal int
		var ep epScratch
		for side := 0; side < 2; side++ {
			vals := val[side].bytes(l.size)
			for idx := int64(0); idx < l.size; idx++ {
				bit := decided[side][idx/64]>>(idx%64)&1 == 1
				sq, ok := l.stored(idx)
				nd := node{n: l.men, pc: l.pieces, sq: sq, stm: board.Color(side), ep: board.NoSquare}
				if !ok || !nd.legal() {
					continue
				}
				legal++
				var best bestMove
				var buf [64]move
				convs, _ := nd.conversions(buf[:0], nd.threatsTo(nd.stm))
				for _, mv := range convs {
					if mv.capture < 0 && mv.promo == board.NoPieceType {
						continue // a pawn's step
					}
					ch := nd.play(mv)
					v, err := valueOf(&ch, s.lookup, &ep)
					if err != nil {
						t.Fatal(err)
					}
					best.add(v)
				}
				want := false
				if best.have {
					v, err := best.value()
					want = err == nil && v == Value(vals[idx])
				}
				if bit != want {
					t.Fatalf("%s %v to move, index %d (value %v): decided %v, the captures say %v", name, board.Color(side), idx, Value(vals[idx]), bit, want)
				}
				if bit {
					marked++
				}
			}
		}
		if marked == 0 {
			t.Errorf("%s: no position decided", name)
		}
		t.Logf("%s: %d of %d legal positions decided by a capture or a promotion", name, marked, legal)
	}
}
