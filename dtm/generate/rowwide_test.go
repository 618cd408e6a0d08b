package generate

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// shiftedTable is a table whose every mate is k moves longer than the
// table's own (a draw stays a draw): a table a conversion leads to whose
// values take two bytes, as a six-man table with pawns may meet.
type shiftedTable struct {
	heldTable
	k int
}

// shifted is v with its mate k moves longer.
func shifted(v tablefile.Value, k int) tablefile.Value {
	switch {
	case v.Win():
		return tablefile.WinIn(v.Moves() + k)
	case v.Loss():
		return tablefile.LossIn(v.Moves() + k)
	}
	return v
}

func (t shiftedTable) Values() []byte { return nil }
func (t shiftedTable) Read(nd *tablefile.Node) (tablefile.Value, error) {
	v, err := t.heldTable.Read(nd)
	return shifted(v, t.k), err
}
func (t shiftedTable) ReadIndex(side board.Color, idx int64) (tablefile.Value, error) {
	v, err := t.heldTable.ReadIndex(side, idx)
	return shifted(v, t.k), err
}

// shiftedTables are memTables read with every mate k moves longer.
type shiftedTables struct {
	m *memTables
	k int
}

func (s shiftedTables) resolve(nd *tablefile.Node) (Resolved, error) {
	r, err := s.m.resolve(nd)
	if ht, ok := r.Table.(heldTable); ok {
		r.Table = shiftedTable{ht, s.k}
	}
	return r, err
}

func (s shiftedTables) lookup(nd *tablefile.Node) (tablefile.Value, error) {
	v, err := s.m.lookup(nd)
	return shifted(v, s.k), err
}

// builtValues reads a build's values whole, by side to move: from its
// stream when it has one.
func builtValues(t *testing.T, l *tablefile.Layout, b Built) [2][]tablefile.Value {
	t.Helper()
	var out [2][]tablefile.Value
	for s := range 2 {
		out[s] = make([]tablefile.Value, l.Size)
		if b.Stream == nil {
			for i, v := range b.Values[s].Bytes(l.Size) {
				out[s][i] = tablefile.Value(v)
			}
			continue
		}
		width := int64(1)
		if b.Wide {
			width = 2
		}
		buf := make([]byte, width*l.Size)
		if err := b.Stream(s, 0, buf); err != nil {
			t.Fatal(err)
		}
		for i := range out[s] {
			out[s][i] = tablefile.Value(buf[width*int64(i)])
			if b.Wide {
				out[s][i] |= tablefile.Value(buf[2*i+1]) << 8
			}
		}
	}
	return out
}

// checkAgainstMoves checks every legal position's value: its outcome is
// want's (the same table built with the conversions unshifted: shifting
// mates changes no outcome), and it is the best its moves give, read in
// the values themselves and, for a conversion, through lookup. Both
// together make the values exact: a mate claimed too long has a move to
// a position whose claim is too long, down to one whose claim is exact.
// It returns how many values take two bytes.
func checkAgainstMoves(t *testing.T, l *tablefile.Layout, vals [2][]tablefile.Value, want heldTable, lookup tablefile.Lookup) int {
	t.Helper()
	key := (&tablefile.Node{N: l.Men, Pieces: l.Pieces}).MaterialKey()
	own := func(nd *tablefile.Node) (tablefile.Value, error) {
		if nd.MaterialKey() != key {
			return lookup(nd)
		}
		idx, err := l.IndexOf(nd)
		if err != nil {
			return tablefile.Draw, err
		}
		return vals[nd.Stm][idx], nil
	}
	var wide, bad atomic.Int64
	var wg sync.WaitGroup
	const parts = 2
	for part := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ep tablefile.EPScratch
			var moves []tablefile.Move
			for s := range 2 {
				for idx := int64(part); idx < l.Size; idx += parts {
					sq, ok := l.Stored(idx)
					nd := tablefile.Node{N: l.Men, Pieces: l.Pieces, Sq: sq, Stm: board.Color(s), Ep: board.NoSquare}
					if !ok || !nd.Legal() {
						continue
					}
					v := vals[s][idx]
					if v.Wide() {
						wide.Add(1)
					}
					if w := tablefile.Value(want.values[int64(s)*l.Size+idx]); w.Sign() != v.Sign() {
						if bad.Add(1) <= 5 {
							t.Errorf("%s %s: %v, outcome of %v", l.Mat, nd.FEN(), v, w)
						}
						continue
					}
					moves = nd.Moves(moves[:0])
					best := tablefile.BestMove{Wide: true}
					for _, m := range moves {
						ch := nd.Play(m)
						after, err := tablefile.ValueOf(&ch, own, &ep)
						if err != nil {
							t.Error(err)
							return
						}
						best.Add(after)
					}
					step, err := best.Value()
					switch {
					case err != nil:
						t.Error(err)
						return
					case len(moves) == 0 && nd.InCheck():
						step = tablefile.LossIn(0)
					}
					if step != v && bad.Add(1) <= 5 {
						t.Errorf("%s %s: %v, its moves give %v", l.Mat, nd.FEN(), v, step)
					}
				}
			}
		}()
	}
	wg.Wait()
	return int(wide.Load())
}

// TestRowsWide builds tables with pawns by rows from conversions whose
// mates are made longer than a byte holds, and checks every value
// against its moves and its outcome: the plies past MaxMoves, values of
// two bytes from a conversion, from a pawn's step into a slice solved
// before, and settled by the set-up; with the decided bits (format 3)
// and with the values on disk under a checkpoint, killed and resumed.
func TestRowsWide(t *testing.T) {
	m := newMemTables(t)
	for _, c := range []struct {
		sig string
		k   int
	}{
		{"KPvK", 110}, {"KPvK", 125}, {"KPvK", 300}, {"KQvKP", 120}, {"KPvKP", 115},
	} {
		mat := canonicalMaterial(t, c.sig)
		l := tablefile.NewLayout(mat)
		want := m.table(mat)
		sh := shiftedTables{m, c.k}
		var first [2][]tablefile.Value
		for _, o := range []Options{{Workers: 2}, {Workers: 2, Decide: true}} {
			start := time.Now()
			b, err := Build(l, sh.lookup, sh.resolve, o)
			if err != nil {
				t.Fatalf("%s shifted %d: %v", c.sig, c.k, err)
			}
			built := time.Since(start)
			vals := builtValues(t, l, b)
			if !b.Wide {
				t.Errorf("%s shifted %d: not wide", c.sig, c.k)
			}
			if !o.Decide {
				first = vals
				wide := checkAgainstMoves(t, l, vals, want, sh.lookup)
				t.Logf("%s shifted %d moves: %d values of two bytes; built in %v, checked in %v", c.sig, c.k, wide, built, time.Since(start)-built)
				if wide == 0 {
					t.Errorf("%s shifted %d: no value of two bytes", c.sig, c.k)
				}
				checkWideFile(t, l, b, vals)
				continue
			}
			// the same values with the decided bits, none of them wide
			for s := range 2 {
				for i := range vals[s] {
					if vals[s][i] != first[s][i] {
						t.Fatalf("%s shifted %d, decided: side %d index %d: %v, without %v", c.sig, c.k, s, i, vals[s][i], first[s][i])
					}
				}
			}
			checkDecidedNotWide(t, l, b, vals)
		}
	}
}

// checkWideFile writes a wide build's stream as a file (format 4) and
// reads every value back.
func checkWideFile(t *testing.T, l *tablefile.Layout, b Built, vals [2][]tablefile.Value) {
	t.Helper()
	path := filepath.Join(t.TempDir(), l.Mat.String()+tablefile.FileSuffix)
	if _, err := tablefile.WriteFileFrom(path, l, tablefile.Stream{Values: b.Stream, Wide: true}, 1<<17, 2); err != nil {
		t.Fatal(err)
	}
	z, release, err := tablefile.OpenCompressed(path, l, true)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	z.Cache = tablefile.NewBlockCache(1 << 24)
	for s := range 2 {
		for i, w := range vals[s] {
			v, err := z.At(s, int64(i))
			if err != nil {
				t.Fatal(err)
			}
			if v != w {
				t.Fatalf("%s: side %d index %d: file %v, build %v", l.Mat, s, i, v, w)
			}
		}
	}
}

// checkDecidedNotWide: no value of two bytes is left to its conversions.
func checkDecidedNotWide(t *testing.T, l *tablefile.Layout, b Built, vals [2][]tablefile.Value) {
	t.Helper()
	dec := make([]uint64, (l.Size+63)/64)
	unused := make([]uint64, len(dec))
	for s := range 2 {
		if b.Flags == nil {
			t.Fatal("a wide build with decided bits gives no flags")
		}
		if err := b.Flags(s, 0, dec, unused); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals[s] {
			if v.Wide() && dec[i/64]>>(i%64)&1 != 0 {
				t.Fatalf("%s: side %d index %d: %v left to its conversions", l.Mat, s, i, v)
			}
		}
	}
}

// TestRowsWideCheckpoint: a build with values of two bytes, on disk
// under a checkpoint, stopped at a random ply and group end and built
// again, gives the values of the build never stopped.
func TestRowsWideCheckpoint(t *testing.T) {
	m := newMemTables(t)
	mat := canonicalMaterial(t, "KPvKP")
	l := tablefile.NewLayout(mat)
	sh := shiftedTables{m, 118}
	whole, err := Build(l, sh.lookup, sh.resolve, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := builtValues(t, l, whole)
	dir := t.TempDir()
	c := &Checkpoint{Prefix: filepath.Join(dir, "KPvKP.part"), Key: "k"}
	for _, stopAt := range []int{300, 1200} {
		reports := 0
		o := Options{Workers: 2, ValuesOnDisk: true, ScratchDir: dir, Checkpoint: c, Progress: func(done, total int64, ply int) {
			if ply == SetUpPly {
				return // (from the workers)
			}
			if reports++; reports == stopAt {
				panic(stopBuild{})
			}
		}}
		b, stopped, err := buildCatching(l, sh.lookup, sh.resolve, o)
		if stopped {
			t.Logf("stopped at report %d of %d groups, %d groups done", stopAt, len(l.SliceGroups()), c.GroupsDone())
			o.Progress = nil
			b, err = Build(l, sh.lookup, sh.resolve, o)
		} else {
			t.Errorf("not stopped at report %d (%d reports)", stopAt, reports)
		}
		if err != nil {
			t.Fatal(err)
		}
		got := builtValues(t, l, b)
		for s := range 2 {
			for i := range got[s] {
				if got[s][i] != want[s][i] {
					t.Fatalf("stopped at %d: side %d index %d: %v, want %v", stopAt, s, i, got[s][i], want[s][i])
				}
			}
		}
		if b.Release != nil {
			b.Release()
		}
		c.Remove()
		if _, err := os.Stat(c.highFile()); err == nil {
			t.Error("the high bytes' file is left")
		}
	}
}

// buildCatching is Build stopped by a progress that panics with
// stopBuild, as a kill would stop it.
func buildCatching(l *tablefile.Layout, lookup tablefile.Lookup, resolve ResolveFunc, o Options) (b Built, stopped bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopBuild); !ok {
				panic(r)
			}
			stopped = true
		}
	}()
	b, err = Build(l, lookup, resolve, o)
	return b, false, err
}
