package dtm

import (
	"bytes"
	"math/rand"
	"path/filepath"
	"testing"

	"mateline.dev/mateline/board"
)

// TestBBTransform checks the bitboard symmetries against the square maps.
func TestBBTransform(t *testing.T) {
	for tr := uint8(0); tr < 8; tr++ {
		for s := 0; s < 64; s++ {
			if got, want := bbTransform(tr, 1<<s), uint64(1)<<transforms[tr][s]; got != want {
				t.Fatalf("symmetry %d of %v: %#x, want %#x", tr, board.Square(s), got, want)
			}
			if transforms[invTransform[tr]][transforms[tr][s]] != board.Square(s) {
				t.Fatalf("symmetry %d: inverse %d does not undo it", tr, invTransform[tr])
			}
		}
	}
	for s := 0; s < 64; s++ {
		if triCode[transforms[canonT[s]][s]] < 0 {
			t.Fatalf("canonT[%v] leaves the triangle", board.Square(s))
		}
	}
}

// TestRowsMatchPositions builds pawnless tables with both generators and
// compares the files byte for byte.
func TestRowsMatchPositions(t *testing.T) {
	sigs := []string{"KQvK", "KRvK", "KBvK", "KNvK", "KPvK", "KBBvK", "KBNvK", "KNNvK", "KQvKR", "KPvKP", "KPPvK", "KRPvK", "KQvKP", "KNvKP", "KQPvK", "KRRvK", "KBPvK"}
	if testing.Short() {
		sigs = sigs[:10]
	}
	old, rows := t.TempDir(), t.TempDir()
	so := Open(old, Options{BuildMen: 4})
	so.byPositions = true
	defer so.Close()
	sr := Open(rows, Options{BuildMen: 4})
	defer sr.Close()
	for _, sig := range sigs {
		m, err := ParseMaterial(sig)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := so.Build(m); err != nil {
			t.Fatal(err)
		}
		if _, err := sr.Build(m); err != nil {
			t.Fatal(err)
		}
		a := tableValues(t, filepath.Join(old, sig+".mldtm"), m)
		b := tableValues(t, filepath.Join(rows, sig+".mldtm"), m)
		if len(a) == 0 || !bytes.Equal(a, b) {
			n := 0
			for i := 0; i < min(len(a), len(b)); i++ {
				if a[i] != b[i] {
					if n < 10 {
						t.Errorf("%s: value %d: rows %d, positions %d", sig, i, b[i], a[i])
					}
					n++
				}
			}
			t.Errorf("%s: %d of %d bytes differ (sizes %d, %d)", sig, n, len(a), len(a), len(b))
		}
	}
}

// TestRowReaderIndex checks a row reader's arithmetic against the
// layout's own index: for random positions of several materials (identical
// men beside the varying one or elsewhere, colours swapped, pawns), every
// square of the varying man gives the index the layout gives. The tables
// are not built: their values are never read.
func TestRowReaderIndex(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, sig := range []string{"KRRvKR", "KRvKRR", "KQQvKB", "KBBvKN", "KRRRvK", "KRPvKR", "KPPvKR", "KRRvKP", "KNNvK", "KPPvK", "KQvKP"} {
		m, err := ParseMaterial(sig)
		if err != nil {
			t.Fatal(err)
		}
		c, flip := m.Canonical()
		l := newLayout(c)
		tab := &Table{l: l}
		data := make([]byte, 2*l.size)
		tab.raw.Store(&data)
		g := &rowGen{b: &builder{resolve: func(*node) (resolved, error) { return resolved{t: tab, flip: flip}, nil }}}
		w := &worker{}
		nl := newLayout(m)
		for i := 0; i < 300; i++ {
			nd := randomNode(r, nl)
			vary := r.Intn(nd.n)
			if nd.pc[vary].Type() == board.Pawn {
				continue
			}
			rd := g.newReader(w, &nd, vary)
			if !rd.ok {
				continue
			}
			for f := board.Square(0); f < 64; f++ {
				ch := nd
				ch.sq[vary] = f
				if ch.occupied().Count() != ch.n || !ch.legal() {
					continue
				}
				x := ch
				if flip {
					x = ch.flipped()
				}
				want, err := l.indexOf(&x)
				if err != nil {
					t.Fatal(err)
				}
				if got := rd.index(f); got != want {
					t.Fatalf("%s %s, %v on %v: reader index %d, layout %d", sig, ch.fen(), ch.pc[vary], f, got, want)
				}
			}
		}
	}
}
