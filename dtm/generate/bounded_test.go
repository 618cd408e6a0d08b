package generate

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"mateline.dev/mateline/dtm/tablefile"
)

// memTables builds tables in memory, each after the tables it reads, for
// tests that need no store.
type memTables struct {
	t     testing.TB
	built map[string]heldTable
}

func newMemTables(t testing.TB) *memTables {
	return &memTables{t: t, built: map[string]heldTable{}}
}

// table returns the table of m (canonical), building it and what it
// reads first, by rows.
func (m *memTables) table(mat tablefile.Material) heldTable {
	if tab, ok := m.built[mat.String()]; ok {
		return tab
	}
	for _, c := range mat.Children() {
		if !c.Bare() {
			m.table(c)
		}
	}
	l := tablefile.NewLayout(mat)
	b, err := Build(l, m.lookup, m.resolve, Options{Workers: 2})
	if err != nil {
		m.t.Fatalf("%s: %v", mat, err)
	}
	tab := heldTable{l, append(append([]byte(nil), b.Values[0].Bytes(l.Size)...), b.Values[1].Bytes(l.Size)...)}
	m.built[mat.String()] = tab
	return tab
}

// resolve finds a node's table among those built.
func (m *memTables) resolve(nd *tablefile.Node) (Resolved, error) {
	mat := nd.Material()
	if mat.Bare() {
		return Resolved{}, nil
	}
	c, flip := mat.Canonical()
	return Resolved{Table: m.table(c), Flip: flip}, nil
}

// lookup reads a node's value from its table.
func (m *memTables) lookup(nd *tablefile.Node) (tablefile.Value, error) {
	r, err := m.resolve(nd)
	if err != nil || r.Table == nil {
		return tablefile.Draw, err
	}
	x := *nd
	if r.Flip {
		x = nd.Flipped()
	}
	return r.Table.Read(&x)
}

// canonicalMaterial parses sig into its canonical material.
func canonicalMaterial(t *testing.T, sig string) tablefile.Material {
	t.Helper()
	mat, err := tablefile.ParseMaterial(sig)
	if err != nil {
		t.Fatal(err)
	}
	mat, _ = mat.Canonical()
	return mat
}

// TestBoundedMatchesRows builds pawnless tables in bounded memory and by
// rows and compares their values byte for byte: identical men, men on
// both sides, knights and sliders as the free man; every other table with
// its done and blocked sets in files (SetsOnDisk), and the last three
// both ways.
func TestBoundedMatchesRows(t *testing.T) {
	sigs := []string{"KQvK", "KRvK", "KBvK", "KNvK", "KBNvK", "KNNvK", "KBBvK", "KQvKR", "KRvKB", "KRvKN", "KQvKQ", "KBvKN", "KNvKN", "KRRvK", "KQBvK", "KBNvKB", "KRvKNN"}
	if os.Getenv("MATELINE_BOUNDED_ALL") != "" {
		sigs = append(sigs, "KQRvKR", "KRNvKN", "KRBvKR", "KQvKBN", "KNNvKN", "KRRvKR", "KBBvKN")
	}
	type run struct {
		sig    string
		onDisk bool
	}
	var runs []run
	for i, sig := range sigs {
		runs = append(runs, run{sig, i%2 == 1})
		if i >= len(sigs)-3 {
			runs = append(runs, run{sig, i%2 == 0})
		}
	}
	m := newMemTables(t)
	for _, r := range runs {
		sig := r.sig
		mat := canonicalMaterial(t, sig)
		want := m.table(mat)
		l := tablefile.NewLayout(mat)
		scratch := t.TempDir()
		b, err := Build(l, m.lookup, m.resolve, Options{Workers: 2, Bounded: true, ScratchDir: scratch, SetsOnDisk: r.onDisk})
		if err != nil {
			t.Fatalf("%s: %v", sig, err)
		}
		if left, _ := os.ReadDir(scratch); len(left) != 0 {
			t.Errorf("%s: the scratch directory holds %d files", sig, len(left))
		}
		// read back in uneven pieces, as no writer asks, to cross the
		// king pairs' edges anywhere
		got := make([]byte, 2*l.Size)
		for side := 0; side < 2; side++ {
			for from := int64(0); from < l.Size; {
				n := min(l.Size-from, 1+(from*7919)%(3*l.KkWeight))
				if err := b.Stream(side, from, got[int64(side)*l.Size+from:][:n]); err != nil {
					t.Fatal(err)
				}
				from += n
			}
		}
		b.Release()
		if bytes.Equal(got, want.values) {
			continue
		}
		n := 0
		for i := range got {
			if got[i] != want.values[i] {
				if n < 5 {
					t.Errorf("%s (sets on disk %v): value %d: bounded %v, rows %v", sig, r.onDisk, i, tablefile.Value(got[i]), tablefile.Value(want.values[i]))
				}
				n++
			}
		}
		t.Errorf("%s (sets on disk %v): %d of %d values differ", sig, r.onDisk, n, len(got))
	}
}

// TestBoundedWide builds tables in bounded memory with two bytes a value
// (as KRNvKNN's are), writes them as wide files, and reads every value
// back through the blocks, against the rows generator's bytes.
func TestBoundedWide(t *testing.T) {
	m := newMemTables(t)
	for _, sig := range []string{"KQvKR", "KBNvK", "KRvKN"} {
		mat := canonicalMaterial(t, sig)
		want := m.table(mat)
		l := tablefile.NewLayout(mat)
		dir := t.TempDir()
		b, err := Build(l, m.lookup, m.resolve, Options{Workers: 2, Bounded: true, ScratchDir: dir, Wide: true})
		if err != nil {
			t.Fatalf("%s: %v", sig, err)
		}
		if !b.Wide {
			t.Fatalf("%s: not wide", sig)
		}
		path := filepath.Join(dir, mat.String()+tablefile.FileSuffix)
		_, err = tablefile.WriteFileFrom(path, l, tablefile.Stream{Values: b.Stream, Wide: true}, max(l.KkWeight, 1<<15), 2)
		b.Release()
		if err != nil {
			t.Fatal(err)
		}
		z, release, err := tablefile.OpenCompressed(path, l, true)
		if err != nil {
			t.Fatal(err)
		}
		z.Cache = tablefile.NewBlockCache(1 << 24)
		if !z.Header.Wide() || z.Header.Longest != uint16(longestOf(want.values)) {
			t.Errorf("%s: header %+v, want wide, longest %d", sig, z.Header, longestOf(want.values))
		}
		bad := 0
		for side := 0; side < 2; side++ {
			for idx := int64(0); idx < l.Size; idx++ {
				v, err := z.At(side, idx)
				if err != nil {
					t.Fatal(err)
				}
				if w := tablefile.Value(want.values[int64(side)*l.Size+idx]); v != w {
					if bad < 5 {
						t.Errorf("%s: side %d index %d: wide file %v, rows %v", sig, side, idx, v, w)
					}
					bad++
				}
			}
		}
		release()
		if bad > 0 {
			t.Errorf("%s: %d values differ", sig, bad)
		}
	}
}

// longestOf is the longest mate among one-byte values.
func longestOf(vals []byte) int {
	n := 0
	for _, v := range vals {
		n = max(n, tablefile.Value(v).Moves())
	}
	return n
}

// TestBoundedDecided builds pawnless tables in bounded memory with
// decided bits and compares the bits, and the values, with the rows
// generator's: the bits of a file of format 3, found again as the
// values are read.
func TestBoundedDecided(t *testing.T) {
	sigs := []string{"KQvK", "KBNvK", "KNNvK", "KQvKR", "KRvKN", "KBvKN", "KQvKQ", "KRRvK", "KBNvKB", "KRvKNN"}
	if os.Getenv("MATELINE_BOUNDED_ALL") != "" {
		sigs = append(sigs, "KQRvKR", "KRNvKN", "KNNvKN", "KBBvKN")
	}
	m := newMemTables(t)
	for _, sig := range sigs {
		mat := canonicalMaterial(t, sig)
		for _, c := range mat.Children() {
			if !c.Bare() {
				m.table(c)
			}
		}
		l := tablefile.NewLayout(mat)
		want, err := Build(l, m.lookup, m.resolve, Options{Workers: 2, Decide: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Build(l, m.lookup, m.resolve, Options{Workers: 2, Bounded: true, Decide: true, ScratchDir: t.TempDir()})
		if err != nil {
			t.Fatalf("%s: %v", sig, err)
		}
		if got.Flags == nil {
			t.Fatalf("%s: no flags", sig)
		}
		chunk := max(l.KkWeight, 1<<15)
		vals := make([]byte, chunk)
		dec, unused := make([]uint64, chunk/64), make([]uint64, chunk/64)
		bad := 0
		for side := 0; side < 2; side++ {
			wantVals := want.Values[side].Bytes(l.Size)
			for from := int64(0); from < l.Size; from += chunk {
				n := min(chunk, l.Size-from)
				words := (n + 63) / 64
				if err := got.Stream(side, from, vals[:n]); err != nil {
					t.Fatal(err)
				}
				if err := got.Flags(side, from, dec[:words], unused[:words]); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(vals[:n], wantVals[from:from+n]) {
					t.Errorf("%s: side %d: values from %d differ", sig, side, from)
				}
				for k := int64(0); k < words; k++ {
					wd, wu := want.Decided[side][from/64+k], want.Unused[side][from/64+k]
					if dec[k] != wd || unused[k] != wu {
						if bad < 5 {
							t.Errorf("%s: side %d word %d: decided %x unused %x, rows %x %x", sig, side, from/64+k, dec[k], unused[k], wd, wu)
						}
						bad++
					}
				}
			}
		}
		got.Release()
		if bad > 0 {
			t.Errorf("%s: %d words differ", sig, bad)
		}
	}
}

// TestWideRow: the positions of a row whose high byte is not zero,
// whatever the low byte, are never decided.
func TestWideRow(t *testing.T) {
	hi := make([]byte, 128)
	for _, c := range []struct {
		set  []int // squares of row 1 with a high byte
		want uint64
	}{
		{nil, 0},
		{[]int{0}, 1},
		{[]int{7, 8, 63}, 1<<7 | 1<<8 | 1<<63},
		{[]int{1, 2, 3, 4, 5, 6, 9}, 0b1001111110},
	} {
		clear(hi)
		for _, f := range c.set {
			hi[64+f] = byte(f%3 + 1)
		}
		hi[5] = 1 // row 0: not read
		if got := wideRow(hi, 1); got != c.want {
			t.Errorf("%v: %b, want %b", c.set, got, c.want)
		}
	}
	if wideRow(nil, 3) != 0 {
		t.Error("no high bytes: some position wide")
	}
}
