package dtm

import (
	"bytes"
	"path/filepath"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// valuesWhole builds m's table in a store of o and returns its layout and
// its values whole, White to move then Black.
func valuesWhole(t *testing.T, m tablefile.Material, o Options) (*tablefile.Layout, []byte) {
	t.Helper()
	ref := Open(t.TempDir(), o)
	defer ref.Close()
	rt, err := ref.Table(m)
	if err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	if _, err := rt.z.DecompressAll(&raw); err != nil {
		t.Fatal(err)
	}
	return rt.l, raw.Bytes()
}

// corruptValue is v moved by one: a mate a move sooner or later, a draw
// made a win, by k's choice; v itself when there is no such value.
func corruptValue(v tablefile.Value, k uint64) tablefile.Value {
	switch n := v.Moves(); {
	case v.Win() && k%2 == 0 && n > 1:
		return tablefile.WinIn(n - 1)
	case v.Win() && n < tablefile.MaxMoves:
		return tablefile.WinIn(n + 1)
	case v.Loss() && k%2 == 0 && n > 0:
		return tablefile.LossIn(n - 1)
	case v.Loss() && n < tablefile.MaxMoves:
		return tablefile.LossIn(n + 1)
	case v == tablefile.Draw:
		return tablefile.WinIn(int(3 + k%5))
	}
	return v
}

// TestStepAgrees: verify's one-ply check, which reads a move into the side
// a file does not store only until it knows enough (stepAgrees), says of
// every position's value what the exact check says (oneStep's value equal
// to it), on a KQvKR file of one side whose values are one in 23 moved by
// a move either way. Both kinds of wrong value are found: a value better
// than the moves give (no move matches it) and one worse (a move beats
// it). Cutting a move short at v before another has matched, or taking
// a value no move matches, fails it.
func TestStepAgrees(t *testing.T) {
	m, _ := tablefile.ParseMaterial("KQvKR")
	l, data := valuesWhole(t, m, Options{BuildMen: 4, Format: 2})
	for idx := int64(0); idx < 2*l.Size; idx++ {
		if k := uint64(idx) * 0x9E3779B97F4A7C15; (k>>40)%23 == 0 {
			data[idx] = byte(corruptValue(tablefile.Value(data[idx]), k>>20))
		}
	}
	dir := t.TempDir()
	s := Open(dir, Options{BuildMen: 4})
	s.format3, s.format3Men = 2, 4
	for _, c := range m.Children() {
		if !c.Bare() {
			if _, err := s.Table(c); err != nil {
				t.Fatal(err)
			}
		}
	}
	zero := [2][]uint64{make([]uint64, (l.Size+63)/64), make([]uint64, (l.Size+63)/64)}
	sides := [2][]byte{data[:l.Size], data[l.Size:]}
	if _, err := tablefile.WriteFile(filepath.Join(dir, m.String()+tablefile.FileSuffix), l, sides, tablefile.ZOptions{Decided: zero, Unused: zero, OneSide: true}, 2); err != nil {
		t.Fatal(err)
	}
	tb, err := s.Table(m)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if h := tb.z.Header; !h.Decides() || h.SidesStored() != 1 {
		t.Fatalf("format %d, %d sides stored", h.Version, h.SidesStored())
	}
	stride := int64(29)
	if testing.Short() {
		stride = 211
	}
	w := &stepScratch{}
	var checked, tooGood, tooBad, searchedSide int
	for idx := int64(0); idx < l.Size; idx += stride {
		nd, ok := ownNode(l, idx)
		if !ok {
			continue
		}
		for side := board.White; side <= board.Black; side++ {
			nd.Stm = side
			if !nd.Legal() {
				continue
			}
			v, err := s.answer(tb, &nd, 0)
			if err != nil {
				t.Fatal(err)
			}
			same, err := s.stepAgrees(&nd, v, w)
			if err != nil {
				t.Fatal(err)
			}
			want, err := s.oneStep(&nd, w)
			if err != nil {
				t.Fatal(err)
			}
			if same != (want == v) {
				t.Fatalf("%s: value %s, its moves give %s, stepAgrees says %v", nd.FEN(), v, want, same)
			}
			checked++
			if tb.z.Header.Stores(int(side)) {
				searchedSide++
			}
			switch {
			case want == v:
			case v.Better(want):
				tooGood++
			default:
				tooBad++
			}
		}
	}
	t.Logf("%d positions (%d of the side stored): %d valued better than their moves give, %d worse", checked, searchedSide, tooGood, tooBad)
	if searchedSide < 1000 || tooGood < 20 || tooBad < 20 {
		t.Errorf("too few cases: %d of the side stored, %d too good, %d too bad", searchedSide, tooGood, tooBad)
	}
	// the sample, on two workers: the wrong values found, the same report
	// for the same seed
	r1, err1 := s.VerifySample(m, 4000, 3, nil)
	r2, err2 := s.VerifySample(m, 4000, 3, nil)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if r1.OK() || r1.Inconsistent < 20 || r1.Positions != 4000 || r1.String() != r2.String() {
		t.Errorf("sample of a table with wrong values:\n%s\n%s", r1, r2)
	}
}
