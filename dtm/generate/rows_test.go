package generate

import (
	"bytes"
	"math/rand"
	"sync/atomic"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// TestBBTransform checks the bitboard symmetries against the square maps.
func TestBBTransform(t *testing.T) {
	for tr := uint8(0); tr < 8; tr++ {
		for s := 0; s < 64; s++ {
			if got, want := bbTransform(tr, 1<<s), uint64(1)<<tablefile.Transforms[tr][s]; got != want {
				t.Fatalf("symmetry %d of %v: %#x, want %#x", tr, board.Square(s), got, want)
			}
			if tablefile.Transforms[invTransform[tr]][tablefile.Transforms[tr][s]] != board.Square(s) {
				t.Fatalf("symmetry %d: inverse %d does not undo it", tr, invTransform[tr])
			}
		}
	}
	for s := 0; s < 64; s++ {
		if triCode[tablefile.Transforms[canonT[s]][s]] < 0 {
			t.Fatalf("canonT[%v] leaves the triangle", board.Square(s))
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
		m, err := tablefile.ParseMaterial(sig)
		if err != nil {
			t.Fatal(err)
		}
		c, flip := m.Canonical()
		l := tablefile.NewLayout(c)
		tab := heldTable{l, make([]byte, 2*l.Size)}
		g := &rowGen{b: &builder{resolve: func(*tablefile.Node) (Resolved, error) { return Resolved{Table: tab, Flip: flip}, nil }}}
		w := &worker{}
		nl := tablefile.NewLayout(m)
		for i := 0; i < 300; i++ {
			nd := tablefile.RandomNode(r, nl)
			vary := r.Intn(nd.N)
			if nd.Pieces[vary].Type() == board.Pawn {
				continue
			}
			rd := g.newReader(w, &nd, vary)
			if !rd.ok {
				continue
			}
			for f := board.Square(0); f < 64; f++ {
				ch := nd
				ch.Sq[vary] = f
				if ch.Occupied().Count() != ch.N || !ch.Legal() {
					continue
				}
				x := ch
				if flip {
					x = ch.Flipped()
				}
				want, err := l.IndexOf(&x)
				if err != nil {
					t.Fatal(err)
				}
				if got := rd.index(f); got != want {
					t.Fatalf("%s %s, %v on %v: reader index %d, layout %d", sig, ch.FEN(), ch.Pieces[vary], f, got, want)
				}
			}
		}
	}
}

// heldTable is a table whose values a test holds whole.
type heldTable struct {
	l      *tablefile.Layout
	values []byte
}

func (t heldTable) Layout() *tablefile.Layout { return t.l }
func (t heldTable) Values() []byte            { return t.values }
func (t heldTable) Read(nd *tablefile.Node) (tablefile.Value, error) {
	idx, err := t.l.IndexOf(nd)
	if err != nil {
		return tablefile.Draw, err
	}
	return tablefile.Value(t.values[int64(nd.Stm)*t.l.Size+idx]), nil
}

// ReadIndex reads one value of the values held.
func (t heldTable) ReadIndex(side board.Color, idx int64) (tablefile.Value, error) {
	return tablefile.Value(t.values[int64(side)*t.l.Size+idx]), nil
}

// fileTable is a table read as a build reads one it does not hold whole
// (a six-man promotion): through Read and ReadIndex only, counted.
type fileTable struct {
	heldTable
	reads, rowReads *atomic.Int64
}

func (t fileTable) Values() []byte { return nil }
func (t fileTable) Read(nd *tablefile.Node) (tablefile.Value, error) {
	t.reads.Add(1)
	return t.heldTable.Read(nd)
}
func (t fileTable) ReadIndex(side board.Color, idx int64) (tablefile.Value, error) {
	t.rowReads.Add(1)
	return t.heldTable.ReadIndex(side, idx)
}

// TestRowsReadThroughFiles: a table with pawns built with the tables it
// reads seen through their files (row readers reading values one at a
// time, or a position at a time where no reader serves a row) has the
// values of the build that holds them whole.
func TestRowsReadThroughFiles(t *testing.T) {
	m := newMemTables(t)
	var rowReads atomic.Int64
	for _, sig := range []string{"KPvK", "KPvKP", "KRPvK", "KQvKP", "KPPvK", "KNPvK"} {
		mat := canonicalMaterial(t, sig)
		l := tablefile.NewLayout(mat)
		want := m.table(mat)
		var reads atomic.Int64
		throughFiles := func(nd *tablefile.Node) (Resolved, error) {
			r, err := m.resolve(nd)
			if ht, ok := r.Table.(heldTable); ok {
				r.Table = fileTable{ht, &reads, &rowReads}
			}
			return r, err
		}
		before := rowReads.Load()
		b, err := Build(l, m.lookup, throughFiles, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		got := append(append([]byte(nil), b.Values[0].Bytes(l.Size)...), b.Values[1].Bytes(l.Size)...)
		if !bytes.Equal(got, want.values) {
			n := 0
			for i := range got {
				if got[i] != want.values[i] {
					n++
				}
			}
			t.Errorf("%s: %d of %d values differ read through files", sig, n, len(got))
		}
		t.Logf("%s: %d values read a row at a time, %d a position at a time", sig, rowReads.Load()-before, reads.Load())
		if reads.Load()+rowReads.Load()-before == 0 {
			t.Errorf("%s: no value read through a file", sig)
		}
	}
	if rowReads.Load() == 0 {
		t.Error("no value read a row at a time through a file")
	}
}

// TestSetUpProgress: the set-up of a large group says how far it is,
// rows done of the group's, up to all of them, and the values are those
// of a build that says nothing.
func TestSetUpProgress(t *testing.T) {
	m := newMemTables(t)
	mat := canonicalMaterial(t, "KRPvK")
	l := tablefile.NewLayout(mat)
	want := m.table(mat)
	defer func(n int64) { setUpReportRows = n }(setUpReportRows)
	setUpReportRows = 1
	var events, prev, total int64
	progress := func(done, of int64, ply int) {
		if ply != SetUpPly {
			return
		}
		events++
		if done < prev || done > of {
			t.Errorf("set-up progress %d of %d after %d", done, of, prev)
		}
		prev, total = done, of
		if done == of {
			prev = 0 // the next group's
		}
	}
	b, err := Build(l, m.lookup, m.resolve, Options{Workers: 2, Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	got := append(append([]byte(nil), b.Values[0].Bytes(l.Size)...), b.Values[1].Bytes(l.Size)...)
	if !bytes.Equal(got, want.values) {
		t.Error("the values differ with set-up progress")
	}
	groups := l.SliceGroups()
	last := groups[len(groups)-1]
	if rows := int64(last[1]-last[0]) * l.PerSlice / 64; events != 32*int64(len(groups)) || total != rows {
		t.Errorf("%d set-up events, the last group of %d rows; want 32 for each of %d groups, %d rows", events, total, len(groups), rows)
	}
}
