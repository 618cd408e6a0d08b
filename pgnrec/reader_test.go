package pgnrec_test

import (
	"bufio"
	"context"
	"strings"
	"testing"

	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/pgnrec"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
)

// pgnPuzzles is a small PGN collection in the shapes real ones take: a
// tag stating the claim (as the Polgár transcription does), a comment
// stating it, a main line that mates, Black to move, a bad move, a game
// from the initial position, and an author's line that goes wrong.
const pgnPuzzles = `[Event "#1 Mates"]
[Site "?"]
[White "Mate in one"]
[Black "White to move"]
[Result "*"]
[FEN "3q1rk1/5pbp/5Qp1/8/8/2B5/5PPP/6K1 w - - 0 1"]

1.Qxg7# *

[Event "#2"]
[FEN "6k1/8/8/8/8/8/r4PPP/6K1 b - - 0 1"]
[SetUp "1"]

{Black mates in 1} 1... Ra1# 0-1

[Event "#3"]
[FEN "r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1"]

1. Nf7+ Kg8 2. Nh6+ Kh8 3. Qg8+ Rxg8 4. Nf7# 1-0

[Event "#4 a bad move"]
[FEN "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"]

1. Rb8# 1-0

[Event "a game"]
1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "#6 the author's line goes wrong"]
[White "Mate in two"]
[FEN "k2r4/1pK5/pP6/1Q6/B2r4/8/8/8 w - - 0 1"]

1.Qxa6+ bxa6 2.Kc6 *

[Event "#7 a defence the author gives, answered wrongly"]
[FEN "r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1"]
[White "Mate in 4"]

1. Nf7+ Kg8 2. Nh6+ (2. Nd8+ Kh8) 2... Kh8 (2... Kf8 3. Qb3) 3. Qg8+ Rxg8 4. Nf7# 1-0
`

func TestPGNRecords(t *testing.T) {
	br := bufio.NewReader(strings.NewReader(pgnPuzzles))
	if f := inputs.Sniff(br); f != inputs.FormatPGN {
		t.Fatalf("sniffed as %v", f)
	}
	recs, err := record.ReadAll(pgnrec.NewReader(br, "p.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id    string
		line  int
		mate  problem.Mate
		from  string
		key   string
		err   string
		start bool // the initial position
	}{
		{"game:1", 1, 1, "tag White", "f6g7", "", false},
		{"game:2", 10, 1, "comment", "a2a1", "", false},
		{"game:3", 16, 4, "main line", "g5f7", "", false},
		{"game:4", 21, 0, "", "", "p.pgn:24: game 4: 1.Rb8#: not legal", false},
		{"game:5", 26, 0, "", "e2e4", "", true},
		{"game:6", 29, 2, "tag White", "b5a6", "", false},
		{"game:7", 35, 4, "tag White", "g5f7", "", false},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records", len(recs))
	}
	for i, w := range want {
		r := recs[i]
		if w.err != "" {
			if r.Err == nil || !strings.Contains(r.Err.Error(), w.err) {
				t.Errorf("%s: error %v, want %q", w.id, r.Err, w.err)
			}
			continue
		}
		key := ""
		if len(r.Claim.Keys) > 0 {
			key = r.Claim.Keys[0].UCI()
		}
		if r.Err != nil || r.ID != w.id || r.Line != w.line || r.Claim.Mate != w.mate || r.PGN.ClaimFrom != w.from || key != w.key ||
			(r.FEN == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") != w.start {
			t.Errorf("%s: %v id %s line %d claim %v from %q key %s fen %s", w.id, r.Err, r.ID, r.Line, r.Claim.Mate, r.PGN.ClaimFrom, key, r.FEN)
		}
	}
	if recs[4].PGN.Event != "a game" || recs[0].PGN.White != "Mate in one" {
		t.Errorf("tags: %+v %+v", recs[4].PGN, recs[0].PGN)
	}
}

// TestPGNAuthorLine: validate checks the author's line past the key, and
// names the first move that fails with the defence that refutes it.
func TestPGNAuthorLine(t *testing.T) {
	recs, err := record.ReadAll(pgnrec.NewReader(strings.NewReader(pgnPuzzles), "p.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	sv := solver.New(16)
	want := map[string]struct {
		verdict puzzles.Verdict
		err     string
	}{
		"game:1": {puzzles.VerdictOK, ""},
		"game:2": {puzzles.VerdictOK, ""},
		"game:3": {puzzles.VerdictOK, ""},
		"game:4": {puzzles.VerdictIllegal, ""},
		"game:5": {puzzles.VerdictSkipped, ""},
		"game:6": {puzzles.VerdictWrongKey, "after 1. Qxa6+ bxa6, 2. Kc6 does not mate"},
		"game:7": {puzzles.VerdictWrongKey, "after 1. Nf7+ Kg8 2. Nh6+ Kf8, 3. Qb3 does not mate in 2"},
	}
	for i := range recs {
		rec := &recs[i]
		o := puzzles.Validate(context.Background(), sv, rec, solver.Options{Fresh: true}, 2)
		w := want[rec.ID]
		if o.Verdict != w.verdict && !(rec.ID == "game:4" && o.Verdict == puzzles.VerdictUnreadable) || w.err != "" && !strings.Contains(o.Error, w.err) {
			t.Errorf("%s: %s %q, want %s %q", rec.ID, o.Verdict, o.Error, w.verdict, w.err)
		}
	}
}

func FuzzPGNRecords(f *testing.F) {
	f.Add(pgnPuzzles)
	f.Add("[White \"Mate in two\"]\n[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]\n{#1} 1. Ra8# *")
	f.Fuzz(func(t *testing.T, s string) {
		r := pgnrec.NewReader(strings.NewReader(s), "f.pgn")
		for i := 0; i < 50; i++ {
			rec, err := r.Next()
			if err != nil {
				return
			}
			if rec.Err == nil && rec.FEN == "" {
				t.Fatalf("%q: a record without a position and without an error", s)
			}
		}
	})
}
