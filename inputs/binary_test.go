package inputs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinaryFile: a file with a NUL byte is one error record that says it
// is not text, not an error record per line of noise.
func TestBinaryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.out")
	data := append([]byte("\x7fELF\x02\x01\x01\x00\x00\x00\n"), make([]byte, 5000)...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadFile(path)
	if err != nil || len(recs) != 1 || recs[0].Err == nil || !strings.Contains(recs[0].Err.Error(), "not a text file") ||
		!strings.HasPrefix(recs[0].Err.Error(), path+":1:") {
		t.Fatalf("%d records, %v: %v", len(recs), err, recs)
	}
	// Latin-1 text is text.
	if err := os.WriteFile(path, []byte("[Event \"Caf\xe9\"]\n[FEN \"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\"]\n\n1. Rd8# 1-0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if recs, err := ReadFile(path); err != nil || len(recs) != 1 || recs[0].Err != nil {
		t.Fatalf("Latin-1 PGN: %v %v", recs, err)
	}
}
