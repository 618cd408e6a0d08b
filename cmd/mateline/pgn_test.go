package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// threeGames is a PGN file as a new user has one: three puzzles with FEN
// tags, one with Black to move.
const threeGames = `[Event "Back rank"]
[Site "?"]
[Date "????.??.??"]
[Round "1"]
[White "Mate in one"]
[Black "?"]
[Result "1-0"]
[SetUp "1"]
[FEN "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"]

1. Ra8# 1-0

[Event "Black to move"]
[SetUp "1"]
[FEN "6k1/8/8/8/8/8/r4PPP/6K1 b - - 0 1"]

1... Ra1# 0-1

[Event "Philidor's legacy"]
[SetUp "1"]
[FEN "r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1"]

1. Nf7+ Kg8 2. Nh6+ Kh8 3. Qg8+ Rxg8 4. Nf7# 1-0
`

// TestValidatePGN: a PGN collection is read game by game, sniffed by its
// content or named by --input-format, and validated; --format pgn writes
// games back that read again.
func TestValidatePGN(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "puzzles.pgn")
	writeFile(t, in, threeGames)
	code, out := runCLI(t, "validate", "--no-progress", in)
	if code != 0 || strings.Count(out, "verdict: ok") != 3 || strings.Contains(out, "unreadable") || !strings.Contains(out, "game 2: Black to move") {
		t.Errorf("validate: exit %d\n%s", code, out)
	}
	// Named as such, whatever the file's name.
	renamed := filepath.Join(dir, "puzzles.txt")
	writeFile(t, renamed, threeGames)
	if code, out := runCLI(t, "validate", "--no-progress", "--input-format", "pgn", renamed); code != 0 {
		t.Errorf("--input-format pgn: exit %d\n%s", code, out)
	}
	// PGN out, read back as input: the same three verdicts.
	back := filepath.Join(dir, "checked.pgn")
	if code, out := runCLI(t, "validate", "--no-progress", "--format", "pgn", "-o", back, in); code != 0 {
		t.Fatalf("--format pgn: exit %d\n%s", code, out)
	}
	b, err := os.ReadFile(back)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `{mateline: id "game:3" status mate verdict ok}`) {
		t.Errorf("the PGN output:\n%s", b)
	}
	code, out = runCLI(t, "validate", "--no-progress", back)
	if code != 0 || strings.Count(out, "verdict: ok") != 3 {
		t.Errorf("validating the PGN output again: exit %d\n%s", code, out)
	}
}

// TestOutputEdges: an output that names a folder is refused before any
// search, and an input with no records is a warning and exit code 3.
func TestOutputEdges(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.epd")
	writeFile(t, in, "6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 1;\n")
	for _, o := range []string{dir, dir + "/", filepath.Join(dir, "no", "such.jsonl")} {
		if code, _, _ := runBinary(t, dir, "solve", "-o", o, in); code != 2 {
			t.Errorf("-o %s: exit %d", o, code)
		}
	}
	if _, err := os.Stat(dir + ".partial"); err == nil {
		t.Error("a refused output left a .partial file")
	}
	empty := filepath.Join(dir, "empty.epd")
	writeFile(t, empty, "\n# only a comment\n")
	code, _, errOut := runBinary(t, dir, "solve", empty)
	if code != exitFailures || !strings.Contains(errOut, "empty.epd holds no records") {
		t.Errorf("an empty input: exit %d, %q", code, errOut)
	}
}
