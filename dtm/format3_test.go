package dtm

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/tablebase/dtmline"
)

// TestFormat3Probes (MATELINE_DTM=DIR holding tables of format 2,
// MATELINE_DTM_FORMAT3=KQRvKR,...): each five-man table built again in
// format 3, both sides and one side, gives the same value as DIR's file
// for random positions of either side to move; the sizes are logged.
func TestFormat3Probes(t *testing.T) {
	dir, names := os.Getenv("MATELINE_DTM"), os.Getenv("MATELINE_DTM_FORMAT3")
	if dir == "" || names == "" {
		t.Skip("MATELINE_DTM=DIR MATELINE_DTM_FORMAT3=KQRvKR,... compares format 3 with DIR's tables")
	}
	ref := Open(dir, Options{BuildMen: 5, Format: 2})
	defer ref.Close()
	for _, name := range strings.Split(names, ",") {
		m, err := tablefile.ParseMaterial(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ref.Table(m); err != nil {
			t.Fatal(err)
		}
		refInfo, _ := os.Stat(ref.Path(m))
		men := "K" + m.Side(0)[1:] + "k" + strings.ToLower(m.Side(1)[1:])
		for mode := 1; mode <= 2; mode++ {
			// the tables it reads are DIR's (format 2): builds do not
			// read format 3 yet
			tmp := t.TempDir()
			files, _ := os.ReadDir(dir)
			if os.Getenv("MATELINE_DTM_FORMAT3_FRESH") != "" {
				files = nil // every table built here, its five-man ones in format 3
			}
			for _, f := range files {
				if n := f.Name(); strings.HasSuffix(n, ".mldtm") && n != name+".mldtm" {
					if err := os.Symlink(dir+"/"+n, tmp+"/"+n); err != nil {
						t.Fatal(err)
					}
				}
			}
			s := Open(tmp, Options{BuildMen: 5})
			s.format3 = mode
			start := time.Now()
			if _, err := s.Table(m); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s built in %.1f s", name, time.Since(start).Seconds())
			info, err := os.Stat(s.Path(m))
			if err != nil {
				t.Fatal(err)
			}
			tb, _ := s.Table(m)
			t.Logf("%s format 3, mode %d (sides %d): %d bytes, format 2 %d (%.1f %%)", name, mode, tb.z.Header.Sides, info.Size(), refInfo.Size(), 100*float64(info.Size())/float64(refInfo.Size()))
			rng := rand.New(rand.NewPCG(uint64(mode), 7))
			checked := 0
			for checked < 200000 {
				side := " w "
				if rng.IntN(2) == 1 {
					side = " b "
				}
				pos, err := board.ParseFEN(testpos.Placement(rng, men) + side + "- - 0 1")
				if err != nil || !Covers(&pos) {
					continue
				}
				want, err1 := ref.Probe(&pos)
				got, err2 := s.Probe(&pos)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s: %v %v", pos.FEN(), err1, err2)
				}
				if got != want {
					t.Fatalf("%s mode %d: %s: format 3 says %v, format 2 %v", name, mode, pos.FEN(), got, want)
				}
				checked++
			}
			s.Close()
		}
	}
}

// TestFormat3Small: tables of three and four men written in format 3
// (both sides, and one side), those of four men built from the ones of
// three and four they read in format 3 (their values built again), give
// the legal positions of both sides (every 13th index) the value format
// 2 gives.
func TestFormat3Small(t *testing.T) {
	ref := Open(t.TempDir(), Options{BuildMen: 4})
	defer ref.Close()
	names := []string{"KQvKR", "KPvKP", "KRvKB"}
	if testing.Short() {
		names = names[:1]
	}
	// mode 1: both sides; 2: one side, its fill chosen; 3 and 4: one
	// side, the byte before and a row back
	for mode := 1; mode <= 4; mode++ {
		s := Open(t.TempDir(), Options{BuildMen: 4})
		s.format3, s.format3Men = min(mode, 2), 3
		s.fill = tablefile.FillMode(max(mode-2, 0))
		for _, name := range names {
			m, err := tablefile.ParseMaterial(name)
			if err != nil {
				t.Fatal(err)
			}
			tb, err := s.Table(m)
			if err != nil {
				t.Fatal(err)
			}
			if tb.z.Header.Version != tablefile.ZFormatDecided || mode >= 2 && tb.z.Header.SidesStored() != 1 ||
				mode == 3 && tb.z.Header.Flags&tablefile.FlagFillUp != 0 || mode == 4 && tb.z.Header.Flags&tablefile.FlagFillUp == 0 {
				t.Fatalf("%s: format %d, sides %d", name, tb.z.Header.Version, tb.z.Header.Sides)
			}
			compared := sameValues(t, ref, s, tb.l, 13, fmt.Sprintf("%s mode %d", name, mode))
			t.Logf("%s mode %d: %d positions the same", name, mode, compared)
		}
		s.Close()
	}
}

// sameValues compares, for every step-th index of both sides to move of
// layout l (a sample: one-ply answers are slow), the legal positions'
// values in store s with those of ref, and returns how many it compared.
func sameValues(t *testing.T, ref, s *Store, l *tablefile.Layout, step int64, what string) int {
	t.Helper()
	compared := 0
	for side := 0; side < 2; side++ {
		for idx := int64(side); idx < l.Size; idx += step {
			sq, ok := l.Stored(idx)
			nd := tablefile.Node{N: l.Men, Pieces: l.Pieces, Sq: sq, Stm: board.Color(side), Ep: board.NoSquare}
			if !ok || !nd.Legal() {
				continue
			}
			want, err1 := ref.lookup(&nd)
			got, err2 := s.lookup(&nd)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if got != want {
				t.Fatalf("%s, %v to move, index %d: %v, the reference %v", what, board.Color(side), idx, got, want)
			}
			compared++
		}
	}
	return compared
}

// TestFormat3Wide: tables built in bounded memory with two-byte values
// and written in format 5 (one side stored, the values captures give
// left to the probe, as KRNvKNN's file is) give every legal position of
// both sides the value format 2 gives. A mutant that marks one more
// position decided than its captures decide must fail it.
func TestFormat3Wide(t *testing.T) {
	ref := Open(t.TempDir(), Options{BuildMen: 4, Format: 2})
	defer ref.Close()
	s := Open(t.TempDir(), Options{BuildMen: 4, Bounded: true})
	s.format3, s.format3Men = 2, 3
	defer s.Close()
	names := []string{"KBNvK", "KQvKR", "KRvKN"}
	if testing.Short() {
		names = names[:1]
	}
	searched := 0
	for _, name := range names {
		m, err := tablefile.ParseMaterial(name)
		if err != nil {
			t.Fatal(err)
		}
		// (the tables it reads in one byte: no build reads a wide one)
		for _, c := range m.Children() {
			if !c.Bare() {
				if _, err := s.Table(c); err != nil {
					t.Fatal(err)
				}
			}
		}
		s.wide = true
		tb, err := s.Table(m)
		s.wide = false
		if err != nil {
			t.Fatal(err)
		}
		if h := tb.z.Header; h.Version != tablefile.ZFormatDecidedWide || h.SidesStored() != 1 || !h.Wide() || !h.Decides() {
			t.Fatalf("%s: format %d, sides %d", name, h.Version, h.Sides)
		}
		refTable, err := ref.Table(m)
		if err != nil {
			t.Fatal(err)
		}
		if tb.z.Header.Longest != refTable.z.Header.Longest {
			t.Errorf("%s: longest %d, format 2 says %d", name, tb.z.Header.Longest, refTable.z.Header.Longest)
		}
		compared := sameValues(t, ref, s, tb.l, 3, name)
		t.Logf("%s: %d positions the same", name, compared)
		// the longest mates: the side stored's, else the other side's
		// found from the positions one move on
		want, err1 := ref.LongestMates(m, 1<<20)
		got, err2 := s.LongestMates(m, 1<<20)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if got.Count == 0 || got.Moves != want.Moves {
			t.Fatalf("%s: longest %d in %d positions, format 2 %d", name, got.Moves, got.Count, want.Moves)
		}
		side := strings.Fields(got.Positions[0])[1]
		var same []string
		for _, fen := range want.Positions {
			if strings.Fields(fen)[1] == side {
				same = append(same, fen)
			}
		}
		if strings.Join(got.Positions, ";") != strings.Join(same, ";") {
			t.Errorf("%s: longest mates %v, format 2 %v", name, got.Positions, same)
		}
		t.Logf("%s: longest %d moves, %d positions (%s to move; stored side %d)", name, got.Moves, got.Count, side, tb.z.Header.Sides)
		// the side not stored's wins of that length, searched from the
		// side stored, against format 2's
		other := board.White
		if tb.z.Header.Sides == 1 {
			other = board.Black
		}
		found, err := s.longestUnstored(tb, got.Moves)
		if err != nil {
			t.Fatal(err)
		}
		wins, err := ref.storedWith(refTable, func(v tablefile.Value) bool { return v.Win() && v.Moves() == got.Moves })
		if err != nil {
			t.Fatal(err)
		}
		var wantFens, gotFens []string
		for _, nd := range wins {
			if nd.Stm == other {
				wantFens = append(wantFens, nd.FEN())
			}
		}
		for _, nd := range found {
			gotFens = append(gotFens, nd.FEN())
		}
		searched += len(wantFens)
		if strings.Join(gotFens, ";") != strings.Join(wantFens, ";") {
			t.Errorf("%s: %v to move, wins in %d searched: %v, format 2 %v", name, other, got.Moves, gotFens, wantFens)
		}
		t.Logf("%s: %v to move, %d wins in %d found from the side stored", name, other, len(gotFens), got.Moves)
	}
	if searched == 0 {
		t.Error("no side not stored had a win of its table's longest length")
	}
}

// BenchmarkProbeFormat3 (MATELINE_DTM3=DIR holding KQRvKR in format 3):
// along the lines of BenchmarkProbeAccess, every position probed
// (lines: the side not stored answered one ply deep), and the search's
// prober that answers only the side stored (lines-stored-only: the
// others refused at once; answered counts the answers), and the same
// with the block cache warmed by one pass over the lines first.
func BenchmarkProbeFormat3(b *testing.B) {
	dir := os.Getenv("MATELINE_DTM3")
	if dir == "" {
		b.Skip("MATELINE_DTM3 does not hold KQRvKR in format 3")
	}
	r := rand.New(rand.NewPCG(3, 4))
	lines := quietLines(r, randomPositions(r, "KQRkr", 1<<14))
	for _, c := range []struct {
		name         string
		stored, warm bool
	}{{"lines", false, false}, {"lines-stored-only", true, false}, {"lines-stored-only-warm", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			s := Open(dir, Options{})
			defer s.Close()
			p := s.Prober(0)
			if c.stored {
				p = p.StoredOnly()
			}
			if c.warm {
				for i := range lines {
					p.ProbeDTM(&lines[i])
				}
			}
			answered := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, ok := p.ProbeDTM(&lines[i%len(lines)]); ok {
					answered++
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
			b.ReportMetric(float64(answered)/b.Elapsed().Seconds(), "answers/s")
		})
	}
}

// TestFormat3RebuildReported: a build that reads tables of format 3 built
// by another process builds their values again, and says so.
func TestFormat3RebuildReported(t *testing.T) {
	dir := t.TempDir()
	s1 := Open(dir, Options{BuildMen: 3})
	s1.format3, s1.format3Men = 2, 3
	for _, name := range []string{"KQvK", "KRvK"} {
		m, _ := tablefile.ParseMaterial(name)
		if _, err := s1.Table(m); err != nil {
			t.Fatal(err)
		}
	}
	s1.Close()
	var mu sync.Mutex
	var events []BuildEvent
	s2 := Open(dir, Options{BuildMen: 4, Progress: func(ev BuildEvent) {
		mu.Lock()
		events = append(events, ev)
		mu.Unlock()
	}})
	defer s2.Close()
	m, _ := tablefile.ParseMaterial("KQvKR")
	if _, err := s2.Table(m); err != nil {
		t.Fatal(err)
	}
	again := map[string]bool{}
	built := map[string]bool{}
	for _, ev := range events {
		switch {
		case ev.Again && ev.Finished:
			again[ev.Table] = true
		case ev.Finished:
			built[ev.Table] = true
		}
	}
	if !again["KQvK"] || !again["KRvK"] || !built["KQvKR"] || built["KQvK"] || again["KQvKR"] {
		t.Fatalf("built again %v, built %v", again, built)
	}
}

// TestFormat3Verify: tables verify of a format-3 file compares each block
// with a fresh build's: equal for a file the writer made, different for
// one whose positions decided by captures were not filled.
func TestFormat3Verify(t *testing.T) {
	m, _ := tablefile.ParseMaterial("KQvK")
	// each fill is checked as written (flagFillUp)
	var dir string
	for _, fill := range []tablefile.FillMode{tablefile.FillUp, tablefile.FillPrev} {
		dir = t.TempDir()
		s1 := Open(dir, Options{BuildMen: 3})
		s1.format3, s1.format3Men, s1.fill = 2, 3, fill
		tb, err := s1.Table(m)
		if err != nil {
			t.Fatal(err)
		}
		if tb.z.Header.Version != tablefile.ZFormatDecided || (tb.z.Header.Flags&tablefile.FlagFillUp != 0) != (fill == tablefile.FillUp) {
			t.Fatalf("format %d, flags %d", tb.z.Header.Version, tb.z.Header.Flags)
		}
		s1.Close()
		s2 := Open(dir, Options{BuildMen: 3})
		r, err := s2.Verify(m, nil)
		s2.Close()
		if err != nil || !r.OK() || r.FileBlocks == 0 || r.FileMismatch != 0 || r.Positions == 0 {
			t.Fatalf("fill %d: %v: %v", fill, err, r)
		}
	}
	// the same values, nothing filled: every value right, the bytes not
	// the writer's
	l, raw := valuesWhole(t, m, Options{BuildMen: 3})
	zero := [2][]uint64{make([]uint64, (l.Size+63)/64), make([]uint64, (l.Size+63)/64)}
	sides := [2][]byte{raw[:l.Size], raw[l.Size:]}
	if _, err := tablefile.WriteFile(filepath.Join(dir, "KQvK"+tablefile.FileSuffix), l, sides, tablefile.ZOptions{Decided: zero, Unused: zero, OneSide: true}, 2); err != nil {
		t.Fatal(err)
	}
	s3 := Open(dir, Options{BuildMen: 3})
	defer s3.Close()
	r, err := s3.Verify(m, nil)
	if err != nil || r.OK() || r.FileMismatch == 0 || r.Inconsistent != 0 {
		t.Fatalf("%v: %v", err, r)
	}
	t.Log(r)
}

// TestFormat3StoredOnly: the search's prober answers the side a format-3
// file stores with the table's value, in both colourings of the
// material, and refuses the other side.
func TestFormat3StoredOnly(t *testing.T) {
	s := Open(t.TempDir(), Options{BuildMen: 4})
	defer s.Close()
	s.format3, s.format3Men = 2, 4
	ref := Open(t.TempDir(), Options{BuildMen: 4})
	defer ref.Close()
	p, rp := s.Prober(4).StoredOnly(), ref.Prober(4)
	r := rand.New(rand.NewPCG(5, 6))
	for _, men := range []string{"KQkr", "KRkq"} {
		answered, refused := 0, 0
		for n := 0; n < 3000; {
			pos, err := board.ParseFEN(testpos.Placement(r, men) + " " + []string{"w", "b"}[n%2] + " - - 0 1")
			if err != nil {
				continue
			}
			n++
			want, wok := rp.ProbeDTM(&pos)
			got, ok := p.ProbeDTM(&pos)
			switch {
			case !ok:
				refused++
			case !wok || got != want:
				t.Fatalf("%s: stored-only %d, format 2 %d (%v)", pos.FEN(), got, want, wok)
			default:
				answered++
			}
		}
		if answered < 1000 || refused < 1000 {
			t.Fatalf("%s: %d answered, %d refused", men, answered, refused)
		}
		t.Logf("%s: %d answered, %d refused", men, answered, refused)
	}
}

// unstored hides a prober's StoredDTM: its lines test every move with a
// whole probe, as before the bounded tests.
type unstored struct{ p Prober }

func (u unstored) ProbeDTM(pos *board.Position) (int, bool) { return u.p.ProbeDTM(pos) }

// TestFormat3Lines: the DTM line from a format-3 file of one side (its
// moves into the side not stored tested with a bound, by two goroutines)
// is the line of whole probes, and the line of format 2, for random won
// and lost positions of both sides to move.
func TestFormat3Lines(t *testing.T) {
	s := Open(t.TempDir(), Options{BuildMen: 4})
	defer s.Close()
	s.format3, s.format3Men = 2, 4
	ref := Open(t.TempDir(), Options{BuildMen: 4})
	defer ref.Close()
	p, rp := s.Prober(4), ref.Prober(4)
	r := rand.New(rand.NewPCG(8, 9))
	for _, men := range []string{"KQkr", "KRkn", "KBNk"} {
		lines, plies := 0, 0
		for tries := 0; lines < 150 && tries < 20000; tries++ {
			pos, err := board.ParseFEN(testpos.Placement(r, men) + " " + []string{"w", "b"}[tries%2] + " - - 0 1")
			if err != nil || !Covers(&pos) {
				continue
			}
			if m, ok := rp.ProbeDTM(&pos); !ok || m == 0 {
				continue
			}
			want, wok := dtmline.Line(rp, pos)
			whole, hok := dtmline.Line(unstored{p}, pos)
			got, ok := dtmline.Line(p, pos)
			if !wok || !hok || !ok || !slices.Equal(got, want) || !slices.Equal(whole, want) {
				t.Fatalf("%s: line %v (%v), whole probes %v (%v), format 2 %v (%v)", pos.FEN(), got, ok, whole, hok, want, wok)
			}
			lines++
			plies += len(got)
		}
		if lines < 150 {
			t.Fatalf("%s: %d lines", men, lines)
		}
		t.Logf("%s: %d lines, %d plies", men, lines, plies)
	}
}
