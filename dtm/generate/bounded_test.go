package generate

import (
	"bytes"
	"os"
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

// TestBoundedMatchesRows builds pawnless tables in bounded memory and by
// rows and compares their values byte for byte: identical men, men on
// both sides, knights and sliders as the free man.
func TestBoundedMatchesRows(t *testing.T) {
	sigs := []string{"KQvK", "KRvK", "KBvK", "KNvK", "KBNvK", "KNNvK", "KBBvK", "KQvKR", "KRvKB", "KRvKN", "KQvKQ", "KBvKN", "KNvKN", "KRRvK", "KQBvK", "KBNvKB", "KRvKNN"}
	if os.Getenv("MATELINE_BOUNDED_ALL") != "" {
		sigs = append(sigs, "KQRvKR", "KRNvKN", "KRBvKR", "KQvKBN", "KNNvKN", "KRRvKR", "KBBvKN")
	}
	m := newMemTables(t)
	for _, sig := range sigs {
		mat, err := tablefile.ParseMaterial(sig)
		if err != nil {
			t.Fatal(err)
		}
		mat, _ = mat.Canonical()
		want := m.table(mat)
		l := tablefile.NewLayout(mat)
		b, err := Build(l, m.lookup, m.resolve, Options{Workers: 2, Bounded: true, ScratchDir: t.TempDir()})
		if err != nil {
			t.Fatalf("%s: %v", sig, err)
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
					t.Errorf("%s: value %d: bounded %v, rows %v", sig, i, tablefile.Value(got[i]), tablefile.Value(want.values[i]))
				}
				n++
			}
		}
		t.Errorf("%s: %d of %d values differ", sig, n, len(got))
	}
}
