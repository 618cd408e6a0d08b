package epd

import (
	"errors"
	"io"
	"runtime"
	"testing"
)

// TestStreamingMemory reads a generated 1,000,000-line EPD stream and
// checks that the heap does not grow with it.
func TestStreamingMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	const lines = 1_000_000
	line := []byte("8/8/8/8/k7/8/2K5/7Q w - - dm 3; id \"x\";\n")
	gen := &repeatReader{line: line, left: lines}
	r := NewReader(gen, "generated")
	var ms runtime.MemStats
	var peak uint64
	n := 0
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || rec.Err != nil {
			t.Fatal(err, rec.Err)
		}
		n++
		if n%100_000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
	}
	if n != lines {
		t.Fatalf("read %d records", n)
	}
	t.Logf("%d lines read; largest heap in use after a GC: %.1f MiB", n, float64(peak)/(1<<20))
	if peak > 16<<20 {
		t.Errorf("heap grew to %.1f MiB", float64(peak)/(1<<20))
	}
}

// repeatReader yields the same line a number of times.
type repeatReader struct {
	line []byte
	left int
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && r.left > 0 {
		c := copy(p[n:], r.line[r.off:])
		n += c
		r.off += c
		if r.off == len(r.line) {
			r.off = 0
			r.left--
		}
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}
