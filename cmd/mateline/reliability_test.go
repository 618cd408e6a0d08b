package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mateline.dev/mateline/internal/shareddata"
)

// runBinary runs the built mateline with args in dir and returns the exit
// code, standard output and standard error.
func runBinary(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

const twoMates = "6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 1; id \"a\";\n8/8/8/8/k7/8/2K5/7Q w - - dm 3; id \"b\";\n"

// TestOutputNeverOverwritesInput: -o naming an input (the same name, a
// hard link, a symbolic link) is a usage error before anything is opened,
// for validate, --resume and merge -o; the input keeps every byte.
func TestOutputNeverOverwritesInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "v.epd")
	writeFile(t, in, twoMates)
	os.Link(in, filepath.Join(dir, "hard.epd"))
	os.Symlink(in, filepath.Join(dir, "soft.epd"))
	cases := [][]string{
		{"validate", "--format", "epd", "-o", "v.epd", "v.epd"},
		{"validate", "--format", "epd", "-o", "hard.epd", "v.epd"},
		{"validate", "--format", "epd", "-o", "soft.epd", "v.epd"},
		{"solve", "--format", "epd", "--resume", "-o", "v.epd", "v.epd"},
		{"merge", "--input", "v.epd", "-o", "v.epd", "v.epd"},
	}
	for _, args := range cases {
		code, _, errOut := runBinary(t, dir, args...)
		if code != exitUsage || !strings.Contains(errOut, "also an input") {
			t.Errorf("mateline %s: exit %d, %q", strings.Join(args, " "), code, errOut)
		}
		if got := string(mustReadFile(t, in)); got != twoMates {
			t.Fatalf("mateline %s changed the input to %q", strings.Join(args, " "), got)
		}
	}
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOutputThroughPartialFile: results go to FILE.partial and are renamed
// at the end; a failed merge leaves no output at all.
func TestOutputThroughPartialFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "in.epd"), twoMates)
	if code, _, errOut := runBinary(t, dir, "solve", "--json", "-o", "out.jsonl", "in.epd"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.jsonl.partial")); err == nil {
		t.Error("the partial file is left after a finished run")
	}
	if n := strings.Count(string(mustReadFile(t, filepath.Join(dir, "out.jsonl"))), "\n"); n != 2 {
		t.Errorf("%d lines in the output", n)
	}
	// A merge of a lone shard of three fails, names the missing shards,
	// and writes nothing.
	if code, _, errOut := runBinary(t, dir, "solve", "--json", "--shard", "0/3", "-o", "s0.jsonl", "in.epd"); code != 0 {
		t.Fatalf("shard run: exit %d: %s", code, errOut)
	}
	code, _, errOut := runBinary(t, dir, "merge", "-o", "all.jsonl", "s0.jsonl")
	if code == 0 || !strings.Contains(errOut, "shard 1/3 missing") || !strings.Contains(errOut, "shard 2/3 missing") {
		t.Errorf("merge of 1 of 3 shards: exit %d, %q", code, errOut)
	}
	for _, name := range []string{"all.jsonl", "all.jsonl.partial"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("a failed merge left %s", name)
		}
	}
}

// TestTerminalPositions: a stalemate or an already-mated position with a
// mate claim is legal: verdict no-mate with the reason, its id and FEN
// kept in every format.
func TestTerminalPositions(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "t.epd"), "7k/5Q2/6K1/8/8/8/8/8 b - - dm 1; id \"stale\";\nR5k1/5ppp/8/8/8/8/8/6K1 b - - dm 1; id \"mated\";\n")
	code, out, _ := runBinary(t, dir, "validate", "--json", "t.epd")
	if code != exitFailures {
		t.Errorf("exit %d", code)
	}
	want := map[string]string{"stale": "stalemate", "mated": "the side to move is already checkmated"}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec struct{ ID, FEN, Verdict, Note string }
		json.Unmarshal([]byte(l), &rec)
		if rec.Verdict != "no-mate" || rec.FEN == "" || rec.Note != want[rec.ID] {
			t.Errorf("record %s", l)
		}
	}
	_, out, _ = runBinary(t, dir, "validate", "--format", "epd", "t.epd")
	if strings.Contains(out, "unreadable") || !strings.Contains(out, `id "stale"`) || !strings.Contains(out, "verdict: no-mate") {
		t.Errorf("annotated EPD:\n%s", out)
	}
}

// TestSkippedRecords: every line is accounted for: a record without a
// mate claim, and a Lichess row without a solution move, are "skipped"
// records naming why, not silent counts.
func TestSkippedRecords(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "m.epd"), "6k1/5ppp/8/8/8/8/8/R5K1 w - - id \"noclaim\";\n"+twoMates)
	code, out, _ := runBinary(t, dir, "validate", "--json", "m.epd")
	if code != 0 || !strings.Contains(out, `"id":"noclaim"`) || !strings.Contains(out, `"verdict":"skipped"`) || !strings.Contains(out, "no dm N or bm #N") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	writeFile(t, filepath.Join(dir, "l.csv"), "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl\n"+
		"NOSOL,6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1,g8h8,1500,80,90,100,mate mateIn1,https://lichess.org/x\n")
	_, out, _ = runBinary(t, dir, "validate", "--json", "l.csv")
	if !strings.Contains(out, `"id":"NOSOL"`) || !strings.Contains(out, `"verdict":"skipped"`) || !strings.Contains(out, "no solution move") {
		t.Errorf("a Lichess row without a solution:\n%s", out)
	}
}

// TestFormatByContent: a Lichess CSV named .epd and an EPD named .csv are
// read by their content; --input-format overrides.
func TestFormatByContent(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "lichess.epd"), "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl\n"+
		"AAAA1,6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1,g8h8 a1a8,1500,80,90,100,mate mateIn1,https://lichess.org/x\n")
	writeFile(t, filepath.Join(dir, "mates.csv"), twoMates)
	for _, f := range []string{"lichess.epd", "mates.csv"} {
		code, out, errOut := runBinary(t, dir, "validate", "--json", f)
		if code != 0 || strings.Contains(out, "unreadable") || strings.Contains(out, `"status":"error"`) {
			t.Errorf("%s: exit %d\n%s%s", f, code, out, errOut)
		}
	}
	code, _, _ := runBinary(t, dir, "validate", "--json", "--input-format", "epd", "lichess.epd")
	if code != exitFailures {
		t.Errorf("--input-format epd on a CSV: exit %d, want 3 (unreadable lines)", code)
	}
	if code, _, _ := runBinary(t, dir, "validate", "--input-format", "xml", "mates.csv"); code != exitUsage {
		t.Errorf("--input-format xml: exit %d", code)
	}
}

// TestLimitsAndMessages: bad limits are usage errors with clear messages;
// unknown commands are usage errors; help takes --help.
func TestLimitsAndMessages(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "m.epd"), twoMates)
	cases := []struct {
		env  []string
		args []string
		code int
		msg  string
	}{
		{nil, []string{"solve", "--hash", "99999999", "m.epd"}, exitUsage, "more than this machine can give"},
		{nil, []string{"solve", "-j", "1000", "m.epd"}, exitUsage, "--jobs 1000 is out of range"},
		{nil, []string{"solve", "--timeout", "-1s", "m.epd"}, exitUsage, "cannot be negative"},
		{nil, []string{"solve", "--timeout", "5", "m.epd"}, exitUsage, "--timeout 5: a duration needs its unit: --timeout 5s"},
		{nil, []string{"solve", "nosuch.epd"}, exitRuntime, "mateline: nosuch.epd: no such file or directory\n"},
		{nil, []string{"nosuchcommand"}, exitUsage, `unknown command "nosuchcommand"`},
		{nil, []string{"help", "--help"}, 0, ""},
		{nil, []string{"help", "solve"}, 0, ""},
		{[]string{"JOB_COMPLETION_INDEX=x"}, []string{"validate", "--shard", "/3", "m.epd"}, exitUsage, `JOB_COMPLETION_INDEX="x" is not a shard index`},
		{nil, []string{"validate", "--shard", "/3", "m.epd"}, exitUsage, "neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID is set"},
	}
	for _, tc := range cases {
		cmd := exec.Command(binary(t), tc.args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), tc.env...)
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != tc.code || !strings.Contains(errOut.String(), tc.msg) {
			t.Errorf("%v mateline %s: exit %d, %q", tc.env, strings.Join(tc.args, " "), code, errOut.String())
		}
	}
}

// TestValidateTextShowsClaim: the text output says what claim was checked.
func TestValidateTextShowsClaim(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "s.epd"), "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - dm 3; bm Qb8+; id \"opera\";\n")
	_, out, _ := runBinary(t, dir, "validate", "s.epd")
	if !strings.Contains(out, "verdict: shorter (claim checked: mate in 3, key Qb8+)") {
		t.Errorf("text output:\n%s", out)
	}
}

// TestInterruptKeepsWhatWasProved: Ctrl-C during a long search reports on
// standard error the bound it had proved, and exits 1.
func TestInterruptKeepsWhatWasProved(t *testing.T) {
	cmd := exec.Command(binary(t), "solve", "--timeout", "0", "--mate", "30", "--threads", "1", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitRuntime {
		t.Fatalf("exit %v", err)
	}
	if s := errOut.String(); !strings.Contains(s, "interrupted: --fen:1") || !strings.Contains(s, "moves or fewer (proved)") || strings.Contains(s, "nodes 0,") {
		t.Errorf("standard error:\n%s", s)
	}
}

// TestTrivialSolveStats: no rate for a solve under a millisecond, and one
// duration format.
func TestTrivialSolveStats(t *testing.T) {
	code, out := runCLI(t, "solve", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	if code != 0 || strings.Contains(out, "nodes/s") && strings.Contains(out, "0s,") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, " ms,") && !strings.Contains(out, " s,") {
		t.Errorf("no duration in the stats line:\n%s", out)
	}
}

// TestProbeStartposAndTerminal: probe takes startpos, and names a mated
// or stalemated position.
func TestProbeStartposAndTerminal(t *testing.T) {
	tables := shareddata.Path(t, "syzygy")
	code, out := runCLI(t, "probe", "--syzygy", tables, "startpos")
	if code != 0 || !strings.Contains(out, "not in tables") {
		t.Errorf("probe startpos: exit %d\n%s", code, out)
	}
	_, out = runCLI(t, "probe", "--syzygy", tables, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
	if !strings.Contains(out, "stalemate") || !strings.Contains(out, "checkmate") {
		t.Errorf("probe of terminal positions:\n%s", out)
	}
}

// TestCorruptTableWarns: a damaged Syzygy file is named once on standard
// error, and the solve goes on without it.
func TestCorruptTableWarns(t *testing.T) {
	src := shareddata.Path(t, "syzygy", "KQvK.rtbw")
	dir := t.TempDir()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0xff // the magic number
	writeFile(t, filepath.Join(dir, "KQvK.rtbw"), string(b))
	code, out, errOut := runBinary(t, dir, "solve", "--no-dtm", "--syzygy", dir, "--fen", "8/8/8/8/k7/8/2K5/7Q w - - 0 1", "--fen", "8/8/8/8/8/1k6/8/1K5Q w - - 0 1")
	if code != 0 || !strings.Contains(out, "mate in 3") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if n := strings.Count(errOut, "KQvK.rtbw"); n != 1 {
		t.Errorf("the damaged table named %d times on standard error:\n%s", n, errOut)
	}
}

// TestTextWords: a --fen record is named once ("--fen:1", not "--fen:1
// fen:1"), and one move is "1 move".
func TestTextWords(t *testing.T) {
	_, out, _ := runBinary(t, t.TempDir(), "solve", "--mate", "1", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	if !strings.HasPrefix(out, "--fen:1  rnbqkbnr/") || !strings.Contains(out, "no mate in 1 move (proved)") || strings.Contains(out, "1 moves") {
		t.Errorf("text:\n%s", out)
	}
}
