package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/report"
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
func runJSONL(ctx context.Context, t *testing.T, text string, w io.Writer, done *doneSet, afterEmit func(int)) (int, error) {
	t.Helper()
	r := epd.NewReader(strings.NewReader(text), "test.epd")
	solvers := []*solver.Solver{solver.New(4), solver.New(4)}
	n := 0
	b := runner{
		workers: 2,
		window:  8,
		skip:    func(rec *record.Record) bool { return done != nil && done.has(rec) },
		work: func(wk int, rec *record.Record) item {
			opt := solver.Options{MaxMate: rec.Claim.Mate.Moves()}
			return item{out: puzzles.Solve(ctx, solvers[wk], rec, opt, nil)}
		},
		emit: func(it *item) error {
			n++
			if afterEmit != nil {
				afterEmit(n)
			}
			return report.JSON(w, &it.out)
		},
	}
	return b.run(ctx, r.NextRaw)
}

// normalize keeps the fields that do not depend on timing or on which
// worker's table a position met: id, status, mate, and the length of the
// line (which of several longest-resisting lines comes out, and which key
// without --all, may depend on what the tables hold).
func normalize(t *testing.T, jsonl string) string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		var o puzzles.Outcome
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		out = append(out, fmt.Sprintf("%s %s %d %d", o.ID, o.Status, o.Mate, len(o.PV)))
	}
	return strings.Join(out, "\n")
}

// cancelAfter is a Progress that cancels the run after n records.
type cancelAfter struct {
	n, seen int
	cancel  func()
}

func (c *cancelAfter) Add(k int) error {
	c.seen += k
	if c.seen == c.n {
		c.cancel()
	}
	return nil
}
func (c *cancelAfter) ChangeMax64(int64) {}
func (c *cancelAfter) Finish() error     { return nil }

// newTestJob is a solve job over files into output, in JSON Lines.
func newTestJob(output string, files ...string) *Job {
	return &Job{
		Options: solver.Options{MaxMate: 3},
		HashMiB: 8, Workers: 2,
		Inputs:  &inputs.List{Files: files},
		Format:  report.FormatJSONL,
		Output:  output,
		Started: time.Now(),
		Stdout:  io.Discard, Stderr: io.Discard,
	}
}

func TestBatchOrderAndResume(t *testing.T) {
	text := benchEPD(600)
	var full bytes.Buffer
	n, err := runJSONL(context.Background(), t, text, &full, nil, nil)
	if err != nil || n != 600 {
		t.Fatalf("full run: %d, %v", n, err)
	}
	for i, l := range strings.Split(normalize(t, full.String()), "\n") {
		if !strings.HasPrefix(l, fmt.Sprintf("p%04d ", i)) {
			t.Fatalf("batch output %d is %q: not in input order", i, l)
		}
	}

	// A job interrupted after 37 results keeps them in its output.
	dir, input := writeInput(t, text)
	wholePath := filepath.Join(dir, "whole.jsonl")
	if _, err := newTestJob(wholePath, input).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := normalize(t, string(mustRead(t, wholePath)))
	path := filepath.Join(dir, "out.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	j := newTestJob(path, input)
	j.Progress = &cancelAfter{n: 37, cancel: cancel}
	_, err = j.Run(ctx)
	n1 := len(strings.Split(strings.TrimSpace(string(mustRead(t, path))), "\n"))
	if !errors.Is(err, ErrInterrupted) || n1 < 37 || n1 >= 600 {
		t.Fatalf("interrupted run: %d results, %v", n1, err)
	}
	if _, err := os.Stat(path + partialSuffix); err == nil {
		t.Error("the partial file is still there after the interrupted run")
	}
	// A crash may leave half a line: resume must cut it.
	os.WriteFile(path, append(mustRead(t, path), `{"id":"p9`...), 0o644)
	j = newTestJob(path, input)
	j.Resume = true
	sum, err := j.Run(context.Background())
	if err != nil || sum.Positions != 600 {
		t.Fatalf("resumed run: %v, summary %d positions (want 600: the resumed ones count)", err, sum.Positions)
	}
	if got := normalize(t, string(mustRead(t, path))); got != want {
		t.Errorf("interrupted and resumed output differs from an uninterrupted run")
	}
}

// TestResumeFromPartial: a crash leaves FILE.partial (FILE and more);
// resume continues from it, and never from a partial copy shorter than
// FILE.
func TestResumeFromPartial(t *testing.T) {
	dir, input := writeInput(t, benchEPD(30))
	path := filepath.Join(dir, "out.jsonl")
	if _, err := newTestJob(path, input).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	full := mustRead(t, path)
	lines := strings.SplitAfter(string(full), "\n")
	// FILE has 10 records; the crashed run's partial has 20.
	os.WriteFile(path, []byte(strings.Join(lines[:10], "")), 0o644)
	os.WriteFile(path+partialSuffix, []byte(strings.Join(lines[:20], "")), 0o644)
	j := newTestJob(path, input)
	j.Resume = true
	var log bytes.Buffer
	j.Stderr = &log
	if _, err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "20 record(s) already") || normalize(t, string(mustRead(t, path))) != normalize(t, string(full)) {
		t.Errorf("resume from the partial file: %s", log.String())
	}
	// A partial file that is not a superset of FILE is not used.
	os.WriteFile(path, []byte(strings.Join(lines[:10], "")), 0o644)
	os.WriteFile(path+partialSuffix, []byte(lines[0]+`{"id":"x"`), 0o644)
	j = newTestJob(path, input)
	j.Resume = true
	log.Reset()
	j.Stderr = &log
	if _, err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "10 record(s) already") || normalize(t, string(mustRead(t, path))) != normalize(t, string(full)) {
		t.Errorf("a broken partial file was used: %s", log.String())
	}
}

// writeInput writes text as in.epd in a new temporary folder and returns
// the folder and the file.
func writeInput(t *testing.T, text string) (dir, input string) {
	t.Helper()
	dir = t.TempDir()
	input = filepath.Join(dir, "in.epd")
	if err := os.WriteFile(input, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, input
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
	dir, input := writeInput(t, benchEPD(60))
	wholePath := filepath.Join(dir, "whole.jsonl")
	if _, err := newTestJob(wholePath, input).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	full := bytes.NewBuffer(mustRead(t, wholePath))

	wholePGN := filepath.Join(dir, "whole.pgn")
	jp := newTestJob(wholePGN, input)
	jp.Format = report.FormatPGN
	if _, err := jp.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, format := range []report.Format{report.FormatJSONL, report.FormatCSV, report.FormatEPD, report.FormatPGN} {
		t.Run(string(format), func(t *testing.T) {
			const n = 3
			var paths []string
			for i := 0; i < n; i++ {
				p := filepath.Join(dir, fmt.Sprintf("out-%d.%s", i, format))
				j := newTestJob(p, input)
				j.Format, j.Shard = format, Shard{i, n}
				if _, err := j.Run(context.Background()); err != nil {
					t.Fatal(err)
				}
				paths = append(paths, p)
			}
			var merged bytes.Buffer
			// Shard files in any order; the input restores input order.
			count, err := Merge(&merged, []string{paths[2], paths[0], paths[1]}, []string{input})
			if err != nil || count != 60 {
				t.Fatalf("merge: %d records, %v", count, err)
			}
			if format == report.FormatJSONL && normalize(t, merged.String()) != normalize(t, full.String()) {
				t.Error("merged shards differ from the unsharded run")
			}
			if format == report.FormatPGN && merged.String() != string(mustRead(t, wholePGN)) {
				t.Errorf("merged PGN shards differ from the unsharded run:\n%s", merged.String())
			}
			_, err = Merge(io.Discard, paths[:1], nil)
			if err == nil || !strings.Contains(err.Error(), "shard 1/3 missing") || !strings.Contains(err.Error(), "shard 2/3 missing") {
				t.Errorf("merge of 1 of 3 shards: %v", err)
			}
			_, err = Merge(io.Discard, []string{paths[0], paths[0], paths[1]}, nil)
			if err == nil || !strings.Contains(err.Error(), "shard 0/3 is given twice") {
				t.Errorf("a shard given twice: %v", err)
			}
			// An output without a shard marker is refused.
			plain := filepath.Join(dir, "plain."+string(format))
			j := newTestJob(plain, input)
			j.Format = format
			j.Run(context.Background())
			if _, err := Merge(io.Discard, []string{plain}, nil); err == nil || !strings.Contains(err.Error(), "not the output of a sharded run") {
				t.Errorf("an unsharded output: %v", err)
			}
		})
	}
}

// TestEmptyShardIsNamed: a shard with no record still says which it is.
func TestEmptyShardIsNamed(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "one.epd")
	os.WriteFile(input, []byte("6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 1; id \"only\";\n"), 0o644)
	var paths []string
	for i := 0; i < 2; i++ {
		p := filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i))
		j := newTestJob(p, input)
		j.Shard = Shard{i, 2}
		if _, err := j.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var merged bytes.Buffer
	if n, err := Merge(&merged, paths, []string{input}); err != nil || n != 1 {
		t.Fatalf("merge with an empty shard: %d, %v", n, err)
	}
}

// TestNonUTF8IDs: an id that is not valid UTF-8 is done once, however
// often the run is resumed, in every format.
func TestNonUTF8IDs(t *testing.T) {
	dir, input := writeInput(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 1; id \"caf\xe9\";\n8/8/8/8/k7/8/2K5/7Q w - - dm 3; id \"ok\";\n")
	for _, format := range []report.Format{report.FormatJSONL, report.FormatCSV, report.FormatEPD} {
		path := filepath.Join(dir, "out."+string(format))
		for run := 0; run < 3; run++ {
			j := newTestJob(path, input)
			j.Format, j.Resume = format, true
			if _, err := j.Run(context.Background()); err != nil {
				t.Fatalf("%s run %d: %v", format, run, err)
			}
		}
		body := string(mustRead(t, path))
		records := strings.Count(body, "ok") // one line names "ok"
		if format == report.FormatCSV {
			records = strings.Count(body, "\n") - 1
		} else {
			records = strings.Count(body, "\n")
		}
		if records != 2 {
			t.Errorf("%s: %d records after three resumed runs, want 2:\n%s", format, records, body)
		}
	}
}
