package puzzles

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"mateline.dev/mateline/solver"
)

// benchEPD makes an EPD text of n records from the solver's bench
// positions, each with its own id.
func benchEPD(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		bp := solver.BenchPositions[i%len(solver.BenchPositions)]
		if bp.MaxMate > 5 {
			bp = solver.BenchPositions[i%8]
		}
		fields := strings.Fields(bp.FEN)
		fmt.Fprintf(&b, "%s id \"p%04d\"; dm %d;\n", strings.Join(fields[:4], " "), i, max(bp.Want, 1))
	}
	return b.String()
}

// runJSONL runs a solve batch over text into w, skipping done ids.
func runJSONL(ctx context.Context, t *testing.T, text string, w io.Writer, done *DoneSet, afterEmit func(int)) (int, error) {
	t.Helper()
	r := NewEPDReader(strings.NewReader(text), "test.epd")
	solvers := []*solver.Solver{solver.New(4), solver.New(4)}
	n := 0
	b := Batch{
		Workers: 2,
		Window:  8,
		Skip:    func(rec *Record) bool { return done != nil && done.Has(rec.ID) },
		Work: func(wk int, rec *Record) Outcome {
			opt := solver.Options{MaxMate: abs(rec.Claim.Mate)}
			return Solve(ctx, solvers[wk], rec, opt)
		},
		Emit: func(o *Outcome) error {
			n++
			if afterEmit != nil {
				afterEmit(n)
			}
			return o.WriteJSON(w)
		},
	}
	return b.Run(ctx, r.NextRaw)
}

// normalize keeps the fields that do not depend on timing or on which
// worker's table a position met: id, status, mate, keys, pv.
func normalize(t *testing.T, jsonl string) string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		var o Outcome
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		out = append(out, fmt.Sprintf("%s %s %d %v %v", o.ID, o.Status, o.Mate, o.Keys, o.PV))
	}
	return strings.Join(out, "\n")
}

func TestBatchOrderAndResume(t *testing.T) {
	text := benchEPD(120)
	var full bytes.Buffer
	n, err := runJSONL(context.Background(), t, text, &full, nil, nil)
	if err != nil || n != 120 {
		t.Fatalf("full run: %d, %v", n, err)
	}
	want := normalize(t, full.String())
	for i, l := range strings.Split(want, "\n") {
		if !strings.HasPrefix(l, fmt.Sprintf("p%04d ", i)) {
			t.Fatalf("output %d is %q: not in input order", i, l)
		}
	}

	// Interrupt after 37 results, then resume into the same file.
	path := filepath.Join(t.TempDir(), "out.jsonl")
	f, _ := os.Create(path)
	ctx, cancel := context.WithCancel(context.Background())
	n1, err := runJSONL(ctx, t, text, f, nil, func(k int) {
		if k == 37 {
			cancel()
		}
	})
	f.Close()
	if !errors.Is(err, ErrInterrupted) || n1 < 37 || n1 >= 120 {
		t.Fatalf("interrupted run: %d results, %v", n1, err)
	}
	// A crash may leave half a line: resume must cut it.
	os.WriteFile(path, append(mustRead(t, path), `{"id":"p9`...), 0o644)
	done, err := PrepareResume(path, FormatJSONL)
	if err != nil || done.Len() != n1 {
		t.Fatalf("resume set: %d ids, %v; want %d", done.Len(), err, n1)
	}
	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	n2, err := runJSONL(context.Background(), t, text, f, done, nil)
	f.Close()
	if err != nil || n1+n2 != 120 {
		t.Fatalf("resumed run: %d + %d results, %v", n1, n2, err)
	}
	if got := normalize(t, string(mustRead(t, path))); got != want {
		t.Errorf("interrupted and resumed output differs from an uninterrupted run")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestShardsAndMerge(t *testing.T) {
	text := benchEPD(60)
	dir := t.TempDir()
	input := filepath.Join(dir, "in.epd")
	os.WriteFile(input, []byte(text), 0o644)
	var full bytes.Buffer
	runJSONL(context.Background(), t, text, &full, nil, nil)

	const n = 3
	var paths []string
	total := 0
	for i := 0; i < n; i++ {
		var kept []string
		for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
			if rec := ParseEPDLine("x", 1, l); (Shard{i, n}).Contains(rec.ID) {
				kept = append(kept, l)
			}
		}
		total += len(kept)
		var out bytes.Buffer
		runJSONL(context.Background(), t, strings.Join(kept, "\n")+"\n", &out, nil, nil)
		p := filepath.Join(dir, fmt.Sprintf("out-%d.jsonl", i))
		os.WriteFile(p, out.Bytes(), 0o644)
		paths = append(paths, p)
	}
	if total != 60 {
		t.Fatalf("shards hold %d records, want 60", total)
	}
	var merged bytes.Buffer
	// Shard files in any order; the input restores input order.
	if _, err := Merge(&merged, []string{paths[2], paths[0], paths[1]}, []string{input}); err != nil {
		t.Fatal(err)
	}
	if normalize(t, merged.String()) != normalize(t, full.String()) {
		t.Error("merged shards differ from the unsharded run")
	}
	if _, err := Merge(io.Discard, paths[:2], nil); err == nil {
		t.Error("merge of 2 of 3 shards succeeded")
	}
	if _, err := Merge(io.Discard, []string{paths[0], paths[0], paths[1]}, nil); err == nil {
		t.Error("merge with a shard given twice succeeded")
	}
}

// TestStreamingMemory reads a generated 1,000,000-line EPD stream and
// checks that the heap does not grow with it.
func TestStreamingMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	const lines = 1_000_000
	line := []byte("8/8/8/8/k7/8/2K5/7Q w - - dm 3; id \"x\";\n")
	gen := &repeatReader{line: line, left: lines}
	r := NewEPDReader(gen, "generated")
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
