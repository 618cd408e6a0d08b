package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code := run(append([]string{"mateline"}, args...), &out)
	return code, out.String()
}

func TestExitCodes(t *testing.T) {
	t.Setenv("MATELINE_SYZYGY", "")
	t.Setenv("MATELINE_BOOK", "")
	ex := filepath.Join("..", "..", "examples", "mates.epd")
	problems := filepath.Join("..", "..", "examples", "problems.inp")
	bad := filepath.Join("..", "..", "epd", "testdata", "malformed.epd")
	cases := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"perft", "--depth", "3", "--json"}, 0, `"nodes":8902`},
		{[]string{"perft", "--depth", "2", "--divide", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8", "w", "-", "-", "0", "1"}, 0, "nodes   191"},
		{[]string{"perft", "--depth", "0"}, 2, ""},
		{[]string{"perft", "not a fen"}, 2, ""},
		{[]string{"solve", "--fen", "6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1", "--all"}, 0, "keys: Ra8# Re8#"},
		{[]string{"solve", "-j", "2", ex}, 0, "mate in 6 (proved shortest)"},
		{[]string{"solve", "-j", "1", "--mate", "1", bad}, 3, "already checkmated"},
		{[]string{"solve", "--no-such-flag"}, 2, ""},
		{[]string{"solve"}, 2, ""},
		{[]string{"solve", "--resume", ex}, 2, ""},
		{[]string{"solve", "--shard", "4/4", ex}, 2, ""},
		{[]string{"solve", "no-such-file.epd"}, 1, ""},
		{[]string{"validate", "--format", "csv", ex}, 3, ",cooked,"},
		{[]string{"bench"}, 0, "nodes     "},
		{[]string{"solve", problems}, 0, "1.Bf8-e7 Qd1-h5   2.Ke8-f8 Qh5-h8 #"},
		{[]string{"solve", "--san", problems}, 0, "1.Be7 Qh5 2.Kf8 Qh8#"},
		{[]string{"validate", problems}, 3, "verdict: cooked"},
		{[]string{"solve", "--stip", "s#2", "--fen", "8/8/8/8/1p4Q1/k7/p7/K7 w - - 0 1"}, 0, "s#2: 1 key (every one): Qg4-d1"},
		{[]string{"solve", "--stip", "h#1.5", "--fen", "k7/pp6/8/8/8/8/8/1K1R4 w - - 0 1"}, 0, "shorter: h#0.5 has 1 solution"},
		{[]string{"solve", "--stip", "x#2", "--fen", "k7/pp6/8/8/8/8/8/1K1R4 w - - 0 1"}, 2, ""},
		{[]string{"solve", "--stip", "s#2.5", "--fen", "k7/pp6/8/8/8/8/8/1K1R4 w - - 0 1"}, 2, ""},
		{[]string{"solve", "--input-format", "popeye", ex}, 3, "a problem starts with BeginProblem"},
		{[]string{"book", "startpos"}, 0, "key 463b96181691fc9c"},
		{[]string{"book", "--json", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"}, 0, `"eco":{"code":"C20"`},
		{[]string{"book", "--book", "no-such.bin", "startpos"}, 1, ""},
		{[]string{"probe", "--no-dtm", "8/8/8/8/8/2k5/8/K6R w - - 0 1"}, 2, ""},
		{[]string{"probe", "8/8/8/8/8/2k5/8/K6R w - - 0 1"}, 0, "DTM +"},
		{[]string{"tables", "build", "KQQQPvKP"}, 2, ""},
		{[]string{"tables", "build", "KQQQQQvK"}, 2, ""},
		{[]string{"tables", "build", "KXvK"}, 2, ""},
		{[]string{"probe", "--syzygy", "no-such-dir", "8/8/8/8/8/2k5/8/K6R w - - 0 1"}, 1, ""},
	}
	for _, tc := range cases {
		code, out := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) {
			t.Errorf("mateline %s: exit %d, want %d; output:\n%.400s", strings.Join(tc.args, " "), code, tc.code, out)
		}
	}
}

func TestSolveJSONAndResume(t *testing.T) {
	ex := filepath.Join("..", "..", "examples", "mates.epd")
	out := filepath.Join(t.TempDir(), "out.jsonl")
	if code, _ := runCLI(t, "solve", "--no-progress", "--json", "-o", out, ex); code != 0 {
		t.Fatalf("exit %d", code)
	}
	first, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSpace(string(first)), "\n")
	if len(lines) != 12 {
		t.Fatalf("%d JSON lines, want 12", len(lines))
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(lines[3]), &rec); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"id", "line", "fen", "status", "mate", "keys", "pv", "pv_san", "depth", "nodes", "ms", "tb_hits"} {
		if _, ok := rec[f]; !ok {
			t.Errorf("JSON record lacks %q: %s", f, lines[3])
		}
	}
	// Keep half, resume: the file is whole again and nothing is repeated.
	os.WriteFile(out, []byte(strings.Join(lines[:6], "\n")+"\n"), 0o644)
	if code, _ := runCLI(t, "solve", "--no-progress", "--json", "--resume", "-o", out, ex); code != 0 {
		t.Fatalf("resume exit %d", code)
	}
	again, _ := os.ReadFile(out)
	got := strings.Split(strings.TrimSpace(string(again)), "\n")
	if len(got) != 12 {
		t.Fatalf("after resume %d lines, want 12", len(got))
	}
	for i := range got {
		var a, b map[string]any
		json.Unmarshal([]byte(got[i]), &a)
		json.Unmarshal([]byte(lines[i]), &b)
		if a["id"] != b["id"] || a["mate"] != b["mate"] {
			t.Errorf("line %d: %v/%v, want %v/%v", i, a["id"], a["mate"], b["id"], b["mate"])
		}
	}
}
