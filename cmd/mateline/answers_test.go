package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"mateline.dev/mateline/batch"
	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/puzzles"
)

// TestAnswersWithoutClaim: a position solved with no claim and no --mate
// gets the mate it has (here a mate in 11, past the old default cap of
// 10), never no-mate; a cap that rules it out says "capped" with its
// length; a position without material to mate is the one "no-mate".
func TestAnswersWithoutClaim(t *testing.T) {
	t.Setenv("MATELINE_DTM", t.TempDir())
	fen := "k7/2Q5/8/2p5/1pp5/1pp5/prp5/nbK5 w - - 0 1"
	cases := []struct {
		args   []string
		status puzzles.Status
		check  func(o puzzles.Outcome) bool
	}{
		{[]string{"--nodes", "1000000", "--fen", fen}, puzzles.StatusLimit,
			func(o puzzles.Outcome) bool {
				return o.MateWithin > 0 && len(o.PV) == o.MateWithin.Plies() && o.Keys[0] == o.PV[0] && !o.AllKeys
			}},
		{[]string{"--mate", "5", "--fen", fen}, puzzles.StatusCapped,
			func(o puzzles.Outcome) bool { return o.Depth == 5 && o.Mate == 0 }},
		{[]string{"--fen", "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1"}, puzzles.StatusNoMate,
			func(o puzzles.Outcome) bool { return o.Mate == 0 }},
		{[]string{"--all", "--fen", "6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1"}, puzzles.StatusMate,
			func(o puzzles.Outcome) bool { return o.Mate == 1 && o.AllKeys && len(o.Keys) == 2 }},
		{[]string{"--fen", "startpos", "--nodes", "20000"}, puzzles.StatusLimit,
			func(o puzzles.Outcome) bool {
				return o.FEN == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
			}},
	}
	for _, tc := range cases {
		args := append([]string{"solve", "--json", "--no-progress"}, tc.args...)
		code, out := runCLI(t, args...)
		var o puzzles.Outcome
		if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &o); err != nil || code != 0 {
			t.Errorf("%v: exit %d, %v\n%s", tc.args, code, err, out)
			continue
		}
		if o.Status != tc.status || !tc.check(o) {
			t.Errorf("%v: %s", tc.args, strings.SplitN(out, "\n", 2)[0])
		}
	}
	// Text says what is known, with the key and the whole line.
	_, out := runCLI(t, "solve", "--no-progress", "--nodes", "1000000", "--fen", fen)
	if !strings.Contains(out, "limit reached: mate in 1") || !strings.Contains(out, "proved, no mate in ") ||
		!strings.Contains(out, "shortest not yet proved") || !strings.Contains(out, "line: 1. ") || strings.Contains(out, "not extracted") {
		t.Errorf("text:\n%s", out)
	}
	if !strings.Contains(out, "limit  ") || !strings.Contains(out, "a limit came first") {
		t.Errorf("the summary does not say what limit means:\n%s", out)
	}
}

// TestNodesDeterministic: with --nodes, and the threads left to their
// default (one under a node limit), every run gives the same record.
func TestNodesDeterministic(t *testing.T) {
	var first string
	for i := 0; i < 4; i++ {
		_, out := runCLI(t, "solve", "--json", "--no-progress", "--nodes", "3000", "--fen", "r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1")
		rec := strings.SplitN(out, "\n", 2)[0]
		var o map[string]any
		if err := json.Unmarshal([]byte(rec), &o); err != nil {
			t.Fatal(err)
		}
		delete(o, "ms")
		b, _ := json.Marshal(o)
		if i == 0 {
			first = string(b)
		} else if string(b) != first {
			t.Fatalf("run %d: %s\nrun 0: %s", i, b, first)
		}
	}
}

// TestBoundLines: each bound a long search proves reaches the user as a
// line when it is proved.
func TestBoundLines(t *testing.T) {
	var lines strings.Builder
	j := &batch.Job{Command: batch.CommandSolve, Inputs: &inputs.List{FENs: []string{"k7/2Q5/8/2p5/1pp5/1pp5/prp5/nbK5 w - - 0 1"}},
		HashMiB: 16, Bounds: &lines, Format: "jsonl"}
	j.Options.MaxMate, j.Options.Nodes = 123, 1_000_000
	if _, err := j.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	s := lines.String()
	if !strings.Contains(s, "fen:1: mate in 1") || !strings.Contains(s, "proved, no mate in") || !strings.Contains(s, "; line 1. ") ||
		!strings.Contains(s, "fen:1: no mate in 1 move (proved so far)") {
		t.Errorf("bound lines:\n%s", s)
	}
}

// TestVersionNamesCommit: a binary built in a git clone names its commit.
func TestVersionNamesCommit(t *testing.T) {
	rev, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		t.Skip("not a git clone: no commit to name")
	}
	_, out, _ := runBinary(t, t.TempDir(), "--version")
	if !strings.Contains(out, "revision "+strings.TrimSpace(string(rev))) {
		t.Errorf("--version: %s, want revision %s", out, rev)
	}
}
