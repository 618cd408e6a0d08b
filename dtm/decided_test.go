package dtm

import (
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// TestDecidedBits: the generator marks a position decided exactly when
// the best of its captures and promotions, read from the tables they
// lead to, is its value; checked over every legal position of tables of
// two to four men, with and without pawns, both sides to move.
func TestDecidedBits(t *testing.T) {
	s := Open(t.TempDir(), Options{BuildMen: 4})
	defer s.Close()
	for _, name := range []string{"KQvK", "KRvKP", "KPvKP", "KQvKR", "KBNvK", "KPPvK", "KRvKB"} {
		m, err := tablefile.ParseMaterial(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Table(m); err != nil {
			t.Fatal(err)
		}
		l := tablefile.NewLayout(m)
		val, decided, _ := buildMarked(t, s, m, l)
		var marked, legal int
		var ep tablefile.EPScratch
		for side := 0; side < 2; side++ {
			vals := val[side].Bytes(l.Size)
			for idx := int64(0); idx < l.Size; idx++ {
				bit := decided[side][idx/64]>>(idx%64)&1 == 1
				sq, ok := l.Stored(idx)
				nd := tablefile.Node{N: l.Men, Pieces: l.Pieces, Sq: sq, Stm: board.Color(side), Ep: board.NoSquare}
				if !ok || !nd.Legal() {
					continue
				}
				legal++
				var best tablefile.BestMove
				var buf [64]tablefile.Move
				convs, _ := nd.Conversions(buf[:0], nd.ThreatsTo(nd.Stm))
				for _, mv := range convs {
					if mv.Capture < 0 && mv.Promo == board.NoPieceType {
						continue // a pawn's step
					}
					ch := nd.Play(mv)
					v, err := tablefile.ValueOf(&ch, s.lookup, &ep)
					if err != nil {
						t.Fatal(err)
					}
					best.Add(v)
				}
				want := false
				if best.Have {
					v, err := best.Value()
					want = err == nil && v == tablefile.Value(vals[idx])
				}
				if bit != want {
					t.Fatalf("%s %v to move, index %d (value %v): decided %v, the captures say %v", name, board.Color(side), idx, tablefile.Value(vals[idx]), bit, want)
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
