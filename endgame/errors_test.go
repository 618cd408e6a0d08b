package endgame

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/shareddata"
)

// damagedDir makes a folder with KRvK.rtbw changed by mutate (or absent).
func damagedDir(t *testing.T, mutate func([]byte) []byte) string {
	t.Helper()
	src := shareddata.Path(t, "syzygy", "KRvK.rtbw")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if mutate != nil {
		if err := os.WriteFile(filepath.Join(dir, "KRvK.rtbw"), mutate(append([]byte(nil), data...)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestBadTables(t *testing.T) {
	pos, _ := board.ParseFEN("8/K6k/8/8/8/8/R7/8 w - - 0 1")
	cases := map[string]struct {
		mutate func([]byte) []byte
		want   string
	}{
		"truncated":    {func(b []byte) []byte { return b[:len(b)-20] }, "truncated"},
		"flipped byte": {func(b []byte) []byte { b[1] ^= 0x40; return b }, "bad magic"},
		"header byte":  {func(b []byte) []byte { b[0x0c+1] = 0xff; return b }, ""},
		"empty":        {func(b []byte) []byte { return nil }, "empty file"},
		"piece code":   {func(b []byte) []byte { b[6] = 0x7f; return b }, "piece list does not match"},
		"missing":      {nil, "table missing"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			tb, err := Open(damagedDir(t, c.mutate))
			if err != nil {
				t.Fatal(err)
			}
			if name == "missing" {
				// Open found nothing; a probe must say which table is missing.
				tb.maxPieces = 3
			}
			_, err = tb.ProbeWDL(&pos)
			var te *TableError
			if !errors.As(err, &te) || !strings.Contains(err.Error(), "KRvK.rtbw") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v, want a table error naming KRvK.rtbw and saying %q", err, c.want)
			}
		})
	}
}

func TestNotInTables(t *testing.T) {
	tb := openShared(t)
	for _, fen := range []string{
		"r3k3/8/8/8/8/8/8/4K3 w q - 0 1",                        // castling rights
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", // 32 pieces
		"4k3/8/8/8/8/8/8/R2QK2R w - - 0 1",                      // 5 pieces but KQRRvK is not here
	} {
		pos, _ := board.ParseFEN(fen)
		_, err := tb.ProbeWDL(&pos)
		if err == nil {
			t.Errorf("%s: probed", fen)
		}
		if strings.Contains(fen, "KQRRvK") && !errors.Is(err, ErrMissing) {
			t.Errorf("%s: %v, want table missing", fen, err)
		}
	}
	pos, _ := board.ParseFEN("8/8/8/8/8/8/8/K1k5 w - - 0 1")
	if w, err := tb.ProbeWDL(&pos); err != nil || w != 0 {
		t.Errorf("KvK: %d %v", w, err)
	}
}

// TestConcurrentProbes probes from 8 goroutines at once (run with -race).
func TestConcurrentProbes(t *testing.T) {
	tb := openShared(t)
	rows := readTSV(t, shareddata.Path(t, "syzygy", "probe-vectors.tsv"))
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := g; i < len(rows); i += 8 * 4 {
				pos, _ := board.ParseFEN(rows[i]["fen"])
				w, err := tb.ProbeWDL(&pos)
				if err != nil || rows[i]["wdl"] != strconv.Itoa(w) {
					errs <- rows[i]["fen"]
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for fen := range errs {
		t.Errorf("%s: wrong under concurrency", fen)
	}
}

// FuzzHeader feeds damaged copies of a small table to the header parser and
// the decoder: errors are fine, panics are not.
func FuzzHeader(f *testing.F) {
	data, err := os.ReadFile(shareddata.Path(f, "syzygy", "KRvK.rtbw"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, uint16(0), byte(0))
	f.Add(data, uint16(12), byte(0xff))
	f.Fuzz(func(t *testing.T, base []byte, at uint16, x byte) {
		b := append([]byte(nil), base...)
		if len(b) > 0 {
			b[int(at)%len(b)] ^= x
		}
		tab, err := parseTable("KRvK", "fuzz", b, false)
		if err != nil {
			return
		}
		pos, _ := board.ParseFEN("8/4K3/8/8/8/3R4/5k2/8 b - - 0 1")
		tb := &Tablebase{wdl: map[string]*tableFile{}, maxPieces: 3}
		tf := &tableFile{path: "fuzz"}
		tf.once.Do(func() { tf.t = tab })
		tb.wdl["KRvK"] = tf
		tb.ProbeWDL(&pos)
	})
}
