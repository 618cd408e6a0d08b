package dtm

import (
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

func TestParseMaterial(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"KQvKR", "KQvKR", ""},
		{"krkq", "KRvKQ", ""},
		{"KPRvK", "KRPvK", ""},
		{"KQQQQvK", "", "6 men"},
		{"KXvK", "", "not a piece"},
		{"QvK", "", "king"},
	} {
		m, err := tablefile.ParseMaterial(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one saying %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || m.String() != c.want {
			t.Errorf("%s: %v %v, want %s", c.in, m, err, c.want)
		}
	}
	if m, _ := tablefile.ParseMaterial("KRvKQ"); true {
		c, flip := m.Canonical()
		if c.String() != "KQvKR" || !flip {
			t.Errorf("canonical of KRvKQ: %s %v", c, flip)
		}
	}
	if n := len(tablefile.AllUpTo(4)); n != 5+25 {
		// 3 men: KQ KR KB KN KP vs K; 4 men: 15 two-piece sides and 15 one-v-one, less duplicates
		t.Logf("%d signatures up to 4 men", n)
	}
}

// TestMovesMatchBoard compares the table's move generator with the board
// package's on random positions of several materials.
func TestMovesMatchBoard(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, sig := range []string{"KQvKR", "KPvKP", "KRPvKR", "KBNvKP", "KPPvKP", "KQvKQ"} {
		m, _ := tablefile.ParseMaterial(sig)
		l := tablefile.NewLayout(m)
		for i := 0; i < 3000; i++ {
			nd := tablefile.RandomNode(r, l)
			pos, err := board.ParseFEN(nd.FEN())
			if err != nil {
				t.Fatalf("%s: %v", nd.FEN(), err)
			}
			var bl board.MoveList
			pos.LegalMoves(&bl)
			var want []string
			for _, mv := range bl.Slice() {
				want = append(want, mv.UCI())
			}
			var got []string
			for _, mv := range nd.Moves(nil) {
				s := nd.Sq[mv.Slot].String() + mv.To.String()
				if mv.Promo != board.NoPieceType {
					s += strings.ToLower(board.MakePiece(board.Black, mv.Promo).String())
				}
				got = append(got, s)
			}
			sort.Strings(want)
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("%s: moves %v, board says %v", nd.FEN(), got, want)
			}
			// conversions: the same moves, the quiet ones counted
			all := nd.Moves(nil)
			conv, quiet := nd.Conversions(nil, nd.ThreatsTo(nd.Stm))
			wantConv := 0
			for _, mv := range all {
				if !mv.Quiet(&nd) {
					wantConv++
				}
			}
			if len(conv) != wantConv || quiet != len(all)-wantConv {
				t.Fatalf("%s: conversions give %d moves and %d quiet, want %d and %d", nd.FEN(), len(conv), quiet, wantConv, len(all)-wantConv)
			}
			for _, mv := range conv {
				if mv.Quiet(&nd) {
					t.Fatalf("%s: conversions gave a quiet move", nd.FEN())
				}
			}
			// captures and promotions: the same moves, pawn steps left out
			var wantTaking []tablefile.Move
			for _, mv := range all {
				if mv.Capture >= 0 || mv.Promo != board.NoPieceType {
					wantTaking = append(wantTaking, mv)
				}
			}
			if got := nd.CapturesAndPromotions(nil, nd.ThreatsTo(nd.Stm)); !slices.Equal(got, wantTaking) {
				t.Fatalf("%s: captures and promotions %v, want %v", nd.FEN(), got, wantTaking)
			}
		}
	}
}

// TestIndexRoundTrip checks that every stored index decodes to a
// position that indexes back to it, on random positions.
func TestIndexRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, sig := range []string{"KQvKR", "KRRvK", "KPvKP", "KPPvK", "KBNvKN"} {
		m, _ := tablefile.ParseMaterial(sig)
		l := tablefile.NewLayout(m)
		for i := 0; i < 5000; i++ {
			nd := tablefile.RandomNode(r, l)
			sq := nd.Sq
			idx, ok := l.Index(&sq)
			if !ok || idx < 0 || idx >= l.Size {
				t.Fatalf("%s %s: index %d %v", sig, nd.FEN(), idx, ok)
			}
			back := l.Decode(idx)
			again, ok := l.Index(&back)
			if !ok || again != idx {
				t.Fatalf("%s %s: index %d decodes to one indexed %d", sig, nd.FEN(), idx, again)
			}
		}
	}
}

// TestSyzygyAgreement compares win, draw and loss with every row of the
// shared Syzygy probe vectors of up to 4 men (5 with MATELINE_DTM5=1,
// which builds 5-man tables: minutes each).
func TestSyzygyAgreement(t *testing.T) {
	rows := readTSV(t, "syzygy", "probe-vectors.tsv")
	// MATELINE_DTM5=1 builds every five-man table the rows need (hours);
	// MATELINE_DTM5=DIR reads the five-man tables of DIR and leaves out
	// the rows whose table is not there.
	maxMen, five := 4, os.Getenv("MATELINE_DTM5")
	s := testStore(t)
	s5 := s
	if five != "" {
		maxMen = 5
		if five != "1" {
			s5 = Open(five, Options{})
			defer s5.Close()
		}
	}
	n, n5, skipped := 0, 0, 0
	for _, r := range rows {
		line, cols := r.line, r.cols
		pos, err := board.ParseFEN(cols[0])
		if err != nil || pos.Occupied().Count() > maxMen || pos.Castling() != 0 {
			continue
		}
		wdl, _ := strconv.Atoi(cols[1])
		store := s
		if pos.Occupied().Count() == 5 {
			store = s5
		}
		v, err := store.Probe(&pos)
		if errors.Is(err, ErrMissing) && store != s {
			skipped++
			continue
		}
		if err != nil {
			t.Fatalf("line %d %s: %v", line, cols[0], err)
		}
		if v.Sign() != sign(wdl) {
			t.Errorf("line %d %s: DTM %s, Syzygy WDL %d", line, cols[0], v, wdl)
		}
		n++
		if pos.Occupied().Count() == 5 {
			n5++
		}
	}
	t.Logf("%d positions of up to %d men agree (%d of 5 men; %d of 5 men left out, their tables not in %s)", n, maxMen, n5, skipped, five)
	if n == 0 {
		t.Fatal("no rows compared")
	}
}

// TestConsistency checks whole tables one ply deep (Verify).
func TestConsistency(t *testing.T) {
	s := testStore(t)
	for _, sig := range []string{"KQvK", "KPvK", "KRvKN"} {
		m, _ := tablefile.ParseMaterial(sig)
		if _, err := s.Build(m); err != nil {
			t.Fatal(err)
		}
		r, err := s.Verify(m, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !r.OK() || r.Positions == 0 {
			t.Errorf("%s", r)
		}
	}
}

// TestLongestKnown checks the longest mates of some tables against the
// published figures (Thompson, Nalimov): KQvKR 35 moves, KRvK 16, KQvK
// 10, KBNvK 33.
func TestLongestKnown(t *testing.T) {
	s := testStore(t)
	for sig, want := range map[string]int{"KQvK": 10, "KRvK": 16, "KQvKR": 35, "KBNvK": 33} {
		m, _ := tablefile.ParseMaterial(sig)
		if _, err := s.Build(m); err != nil {
			t.Fatal(err)
		}
		r, err := s.Verify(m, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Longest.Moves() != want {
			t.Errorf("%s: longest mate %d moves, want %d", sig, r.Longest.Moves(), want)
		}
		// and the positions that have it, each probed again
		lr, err := s.LongestMates(m, 3)
		if err != nil {
			t.Fatal(err)
		}
		if lr.Moves != want || lr.Count == 0 || len(lr.Positions) != int(min(lr.Count, 3)) {
			t.Errorf("%s: %+v", sig, lr)
		}
		for _, fen := range lr.Positions {
			pos, err := board.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			if v, err := s.Probe(&pos); err != nil || v.Moves() != want {
				t.Errorf("%s: %s probes %v %v, want %d moves", sig, fen, v, err, want)
			}
		}
	}
}

func TestCorruptFileRebuilt(t *testing.T) {
	dir := t.TempDir()
	var warnings []string
	s := Open(dir, Options{BuildMen: 5, Warn: func(m string) { warnings = append(warnings, m) }})
	m, _ := tablefile.ParseMaterial("KRvK")
	if _, err := s.Build(m); err != nil {
		t.Fatal(err)
	}
	s.Close()
	path := filepath.Join(dir, "KRvK"+tablefile.FileSuffix)
	data, _ := os.ReadFile(path)
	for _, damage := range []func([]byte) []byte{
		func(b []byte) []byte { b[len(b)-100] ^= 0xff; return b }, // a block
		func(b []byte) []byte { return b[:len(b)-7] },             // truncated
		func(b []byte) []byte { b[16] = 'X'; return b },           // another signature
	} {
		os.WriteFile(path, damage(append([]byte(nil), data...)), 0o644)
		warnings = nil
		s := Open(dir, Options{BuildMen: 5, Warn: func(m string) { warnings = append(warnings, m) }})
		pos := board.MustParseFEN("8/8/8/8/8/2k5/8/K6R w - - 0 1")
		v, err := s.Probe(&pos)
		if err != nil || !v.Win() {
			t.Errorf("after damage: %v %v", v, err)
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], path) {
			t.Errorf("warnings %q, want one naming %s", warnings, path)
		}
		s.Close()
		if got, _ := os.ReadFile(path); string(got) != string(data) {
			t.Errorf("the rebuilt file differs from the first build")
		}
	}
}

func TestReadOnlyCache(t *testing.T) {
	// a path under a file cannot be written, even by root
	dir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(dir, nil, 0o644)
	var warnings []string
	s := Open(filepath.Join(dir, "dtm"), Options{BuildMen: 5, Warn: func(m string) { warnings = append(warnings, m) }})
	pos := board.MustParseFEN("8/8/8/8/8/2k5/8/K6R w - - 0 1")
	for i := 0; i < 3; i++ {
		if _, err := s.Probe(&pos); !errors.Is(err, ErrMissing) {
			t.Fatalf("probe: %v, want ErrMissing", err)
		}
	}
	if len(warnings) != 1 {
		t.Errorf("warnings %q, want one", warnings)
	}
}

func TestConcurrentBuilds(t *testing.T) {
	dir := t.TempDir()
	m, _ := tablefile.ParseMaterial("KRvKN")
	if testing.Short() {
		m, _ = tablefile.ParseMaterial("KRvK")
	}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// two workers: under the race detector (CI) a build's steps
			// are shared out, and its children built side by side
			s := Open(dir, Options{BuildMen: 5, Workers: 2})
			defer s.Close()
			_, errs[i] = s.Build(m)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s := Open(dir, Options{BuildMen: 0})
	defer s.Close()
	r, err := s.Verify(m, nil)
	if err != nil || !r.OK() {
		t.Fatalf("%v %v", r, err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.tmp*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestVerifySample checks a sample of a table's positions against their
// moves, and says it was a sample.
func TestVerifySample(t *testing.T) {
	s := Open(t.TempDir(), Options{BuildMen: 4})
	defer s.Close()
	m, _ := tablefile.ParseMaterial("KRvKN")
	if _, err := s.Build(m); err != nil {
		t.Fatal(err)
	}
	r, err := s.VerifySample(m, 3000, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || r.Positions != 3000 || r.Wins == 0 || r.Sampled != 3000 || !strings.Contains(r.String(), "a sample of 3000 positions") {
		t.Errorf("%+v: %s", r, r)
	}
}

// TestCoversSixMen: the six-man positions are the tables', with pawns or
// without; seven men are not.
func TestCoversSixMen(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want bool
	}{
		{"4k3/8/8/8/8/8/QRBN4/4K3 b - - 0 1", true},
		{"4k3/8/8/8/8/8/PRBN4/4K3 b - - 0 1", true},
		{"4k3/8/8/8/8/8/QRBNN3/4K3 b - - 0 1", false},
		{"4k3/8/8/8/8/8/QRB5/4K3 b - - 0 1", true},
	} {
		pos, err := board.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := Covers(&pos); got != c.want {
			t.Errorf("Covers(%s) = %v, want %v", c.fen, got, c.want)
		}
	}
}
