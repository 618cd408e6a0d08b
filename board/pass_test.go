package board

import "testing"

// TestPass: a passed position equals the same position read from a FEN
// with the other side to move and no en-passant right, key included.
func TestPass(t *testing.T) {
	for _, fen := range []string{
		"4k3/8/8/8/8/8/8/4K2R w - - 0 1",
		"4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", // an en-passant right that goes
		"r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
	} {
		p := MustParseFEN(fen)
		want, ok := p.Passed()
		if !ok {
			t.Fatalf("%s: no passed position", fen)
		}
		p.Pass()
		if p.FEN() != want.FEN() || p.Key() != want.Key() {
			t.Errorf("%s: Pass gives %s (key %x), want %s (key %x)", fen, p.FEN(), p.Key(), want.FEN(), want.Key())
		}
	}
}
