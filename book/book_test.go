package book

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/shareddata"
)

func TestStartKey(t *testing.T) {
	p := board.StartPosition()
	if k := Key(&p); k != 0x463b96181691fc9c {
		t.Errorf("start key %016x, want 463b96181691fc9c", k)
	}
}

// checkVectors matches every row of a reference file: key, moves and
// weights, order included.
func checkVectors(t *testing.T, vectors string, bk *Book) {
	f, err := os.Open(vectors)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows := 0
	for line := 1; sc.Scan(); line++ {
		if line == 1 {
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 3 {
			continue
		}
		rows++
		pos, err := board.ParseFEN(cols[0])
		if err != nil {
			t.Fatalf("%s:%d: %v", vectors, line, err)
		}
		res, err := bk.Lookup(&pos)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%016x", res.Key); got != cols[1] {
			t.Errorf("%s:%d %s: key %s, want %s", vectors, line, cols[0], got, cols[1])
		}
		var moves []string
		for _, m := range res.Moves {
			moves = append(moves, fmt.Sprintf("%s:%d", m.Move.UCI(), m.Weight))
		}
		got := strings.Join(moves, ",")
		if got == "" {
			got = "-"
		}
		if got != cols[2] {
			t.Errorf("%s:%d %s:\n got  %s\n want %s", vectors, line, cols[0], got, cols[2])
		}
	}
	t.Logf("%d rows of %s", rows, filepath.Base(vectors))
}

func TestGnuchessVectors(t *testing.T) {
	bk, err := Open(shareddata.Path(t, "books", "gnuchess.bin"))
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	checkVectors(t, shareddata.Path(t, "books", "book-vectors.tsv"), bk)
}

func TestTinyVectors(t *testing.T) {
	bk, err := Open("testdata/tiny.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	checkVectors(t, shareddata.Path(t, "books", "tiny-vectors.tsv"), bk)
}

// TestRookMoveIsNotCastling: the raw move e1h1 is castling only with the
// king on e1 (tiny.bin holds both cases).
func TestRookMoveIsNotCastling(t *testing.T) {
	for fen, want := range map[string]string{
		"r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4": "e1g1",
		"r1bq1rk1/ppp2pp1/2np1n1p/2b1p3/2B1P3/5N1P/PPPP1PPK/RNBQR3 w - - 0 8": "e1h1",
	} {
		pos, _ := board.ParseFEN(fen)
		m, ok := DecodeMove(&pos, 0x0107)
		if !ok || m.UCI() != want {
			t.Errorf("%s: 0107 decodes to %v %v, want %s", fen, m, ok, want)
		}
	}
}

func TestIllegalEntriesAreSkipped(t *testing.T) {
	// A one-entry book whose move (a2a4 for the start key) is fine, and
	// one whose move (e1e8) is not legal.
	dir := t.TempDir()
	write := func(name string, move uint16) string {
		p := filepath.Join(dir, name)
		b := make([]byte, 16)
		for i, x := range []byte{0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c} {
			b[i] = x
		}
		b[8], b[9], b[11] = byte(move>>8), byte(move), 1
		os.WriteFile(p, b, 0o644)
		return p
	}
	bk, err := Open(write("ok.bin", 0x0218), write("bad.bin", 0x013c))
	if err != nil {
		t.Fatal(err)
	}
	pos := board.StartPosition()
	res, _ := bk.Lookup(&pos)
	if len(res.Moves) != 1 || res.Moves[0].Move.UCI() != "a2a4" || res.Skipped != 1 {
		t.Errorf("moves %v, skipped %d", res.Moves, res.Skipped)
	}
}

func TestBadBooks(t *testing.T) {
	good, err := os.ReadFile("testdata/tiny.bin")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	unsorted := append(append([]byte{}, good[16:32]...), good[0:16]...)
	unsorted = append(unsorted, good[32:]...)
	cases := map[string][]byte{
		"truncated.bin": good[:len(good)-5],
		"empty.bin":     {},
		"unsorted.bin":  unsorted,
	}
	want := map[string]string{
		"truncated.bin": "not a multiple of 16",
		"empty.bin":     "empty file",
		"unsorted.bin":  "out of key order",
		"missing.bin":   "no such file",
	}
	for name, data := range cases {
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	for name, msg := range want {
		path := filepath.Join(dir, name)
		_, err := Open(path)
		var be *BookError
		if !errors.As(err, &be) || !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want an error naming the file and saying %q", name, err, msg)
		}
	}
}

func TestECODefault(t *testing.T) {
	bk := New()
	pos := board.StartPosition()
	for _, u := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"} {
		m, _ := pos.ParseUCI(u)
		pos.Play(m)
	}
	res, err := bk.Lookup(&pos)
	if err != nil || res.ECO == nil || res.ECO.Code != "C60" || !strings.HasPrefix(res.ECO.Name, "Ruy Lopez") {
		t.Fatalf("after 1.e4 e5 2.Nf3 Nc6 3.Bb5: %+v %v", res.ECO, err)
	}
	if len(res.Moves) < 5 || res.Moves[0].Share <= 0 {
		t.Errorf("ECO continuations: %v", res.Moves)
	}
	var total float64
	for _, m := range res.Moves {
		total += m.Share
	}
	if total < 0.999 || total > 1.001 {
		t.Errorf("shares add up to %f", total)
	}
}

func BenchmarkLookup(b *testing.B) {
	bk, err := Open(shareddata.Path(b, "books", "gnuchess.bin"))
	if err != nil {
		b.Fatal(err)
	}
	defer bk.Close()
	var positions []board.Position
	pos := board.StartPosition()
	for _, u := range strings.Fields("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7") {
		positions = append(positions, pos)
		m, _ := pos.ParseUCI(u)
		pos.Play(m)
	}
	n := 0
	for b.Loop() {
		p := &positions[n%len(positions)]
		if _, err := bk.Lookup(p); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "lookups/s")
}

// TestRunAcrossBlocks: the entries of one key may straddle blocks of the
// sparse index.
func TestRunAcrossBlocks(t *testing.T) {
	var data []byte
	entry := func(key uint64, w uint16) {
		b := make([]byte, 16)
		for i := 0; i < 8; i++ {
			b[i] = byte(key >> (56 - 8*i))
		}
		b[8], b[9] = 0x03, 0x1c // e2e4
		b[10], b[11] = byte(w>>8), byte(w)
		data = append(data, b...)
	}
	for i := 0; i < 250; i++ {
		entry(uint64(i), 1)
	}
	for i := 0; i < 300; i++ { // key 1000 from entry 250 to 549
		entry(1000, 1)
	}
	for i := 0; i < 100; i++ {
		entry(uint64(2000+i), 1)
	}
	f, err := NewFile("synthetic", bytesReaderAt(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[uint64]int{1000: 300, 0: 1, 249: 1, 2099: 1, 999: 0, 5000: 0} {
		got, err := f.Lookup(key)
		if err != nil || len(got) != want {
			t.Errorf("key %d: %d entries, %v; want %d", key, len(got), err, want)
		}
	}
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(b)) {
		return 0, errors.New("EOF")
	}
	return copy(p, b[off:]), nil
}

// TestECOMinPieces: no position on an ECO line has fewer pieces than the
// bound below which lookups skip the data.
func TestECOMinPieces(t *testing.T) {
	ecoOnce.Do(loadECO)
	if eco.minPieces < ecoMinPieces {
		t.Errorf("an ECO position has %d pieces; ecoMinPieces is %d", eco.minPieces, ecoMinPieces)
	}
	if len(eco.next) < 1000 {
		t.Errorf("the ECO data has %d positions", len(eco.next))
	}
}
