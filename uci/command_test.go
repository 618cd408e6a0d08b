package uci

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"mateline.dev/mateline/board"
)

func TestParseGo(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		in       string
		want     goParams
		problems []string // substrings, in order
	}{
		{"", goParams{}, nil},
		{"mate 5", goParams{mate: 5}, nil},
		{"depth 7 nodes 1000000", goParams{depth: 7, nodes: 1000000}, nil},
		{"movetime 2000", goParams{moveTime: 2000 * ms}, nil},
		{"wtime 60000 btime 50000 winc 1000 binc 900 movestogo 20",
			goParams{wtime: 60000 * ms, btime: 50000 * ms, winc: 1000 * ms, binc: 900 * ms, movesToGo: 20, clockGiven: true}, nil},
		{"infinite", goParams{infinite: true}, nil},
		{"ponder wtime 1000 btime 1000", goParams{ponder: true, wtime: 1000 * ms, btime: 1000 * ms, clockGiven: true}, nil},
		{"searchmoves e2e4 d2d4 mate 3", goParams{searchMoves: []string{"e2e4", "d2d4"}, mate: 3}, nil},
		{"mate x", goParams{badLimit: true}, []string{`mate "x" is not a count`}},
		{"mate -2 depth 4", goParams{depth: 4, badLimit: true}, []string{`mate "-2" is not a count`}},
		{"movetime", goParams{badLimit: true}, []string{"movetime without a value"}},
		{"nodes depth 3", goParams{depth: 3, badLimit: true}, []string{`nodes "depth" is not a count`}},
		{"wtime abc btime 1000", goParams{btime: 1000 * ms, clockGiven: true, badLimit: true}, []string{`wtime "abc" is not a count`}},
		{"fast mate 2", goParams{mate: 2}, []string{`unknown go parameter "fast"`}},
	}
	for _, tc := range cases {
		got := parseGo(strings.Fields(tc.in))
		problems := got.problems
		got.problems = nil
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("go %s: %+v, want %+v", tc.in, got, tc.want)
		}
		if len(problems) != len(tc.problems) {
			t.Errorf("go %s: problems %q, want %q", tc.in, problems, tc.problems)
			continue
		}
		for i, p := range tc.problems {
			if !strings.Contains(problems[i], p) {
				t.Errorf("go %s: problem %q, want %q", tc.in, problems[i], p)
			}
		}
	}
}

func TestParsePosition(t *testing.T) {
	cases := []struct {
		in    string
		ok    bool
		fen   string // the position set up, when ok
		moves int
		err   string // substring; "" for none
	}{
		{"startpos", true, board.StartFEN, 0, ""},
		{"startpos moves e2e4 e7e5 g1f3", true, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", 3, ""},
		{"fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", true, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 0, ""},
		{"fen 6k1/5ppp/8/8/8/8/8/R5K1 w - -", true, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 0, ""},
		{"fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves a1a8", true, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", 1, ""},
		{"startpos moves e2e4 e2e4 g1f3", true, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 1, "number 2"},
		{"startpos moves e7e5", true, board.StartFEN, 0, "number 1"},
		{"startpos moves e2e9", true, board.StartFEN, 0, "bad square"},
		{"startpos e2e4", true, board.StartFEN, 0, `unexpected "e2e4"`},
		{"fen 8/8/8/8/8/8/8/8 w - - 0 1", false, "", 0, "bad FEN"},
		{"fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", false, "", 0, "bad FEN"},
		{"fen \xe9\xe9 w - - 0 1", false, "", 0, "not plain ASCII"},
		{"fen", false, "", 0, "without a FEN"},
		{"fen moves e2e4", false, "", 0, "without a FEN"},
		{"", false, "", 0, "needs startpos or fen"},
		{"start", false, "", 0, `"start": want startpos or fen`},
	}
	for _, tc := range cases {
		r := parsePosition(strings.Fields(tc.in))
		if r.ok != tc.ok || tc.ok && (r.pos.FEN() != tc.fen || r.moves != tc.moves) {
			t.Errorf("position %s: ok %v fen %q moves %d; want %v %q %d", tc.in, r.ok, r.pos.FEN(), r.moves, tc.ok, tc.fen, tc.moves)
		}
		if tc.err == "" && r.err != "" || tc.err != "" && !strings.Contains(r.err, tc.err) {
			t.Errorf("position %s: error %q, want %q", tc.in, r.err, tc.err)
		}
	}
}

func TestParseSetOption(t *testing.T) {
	cases := []struct {
		in       string
		name     string
		value    string
		hasValue bool
		err      bool
	}{
		{"name Hash value 128", "Hash", "128", true, false},
		{"name Clear Hash", "Clear Hash", "", false, false},
		{"name SyzygyPath value /a b/c:/d", "SyzygyPath", "/a b/c:/d", true, false},
		{"name MultiPV value", "MultiPV", "", true, false},
		{"name", "", "", false, true},
		{"Hash value 1", "", "", false, true},
		{"", "", "", false, true},
	}
	for _, tc := range cases {
		name, value, has, err := parseSetOption(strings.Fields(tc.in))
		if name != tc.name || value != tc.value || has != tc.hasValue || (err != nil) != tc.err {
			t.Errorf("setoption %s: %q %q %v %v", tc.in, name, value, has, err)
		}
	}
}

func TestTimeBudget(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		p    goParams
		side board.Color
		want time.Duration
	}{
		{goParams{moveTime: 2000 * ms}, board.White, 2000*ms - moveOverhead},
		{goParams{}, board.White, 0},
		{goParams{infinite: true}, board.White, 0},
		{goParams{wtime: 60000 * ms, btime: 1000 * ms, clockGiven: true}, board.White, 1500*ms - moveOverhead},
		{goParams{wtime: 60000 * ms, btime: 1000 * ms, clockGiven: true}, board.Black, 5 * ms},
		{goParams{wtime: 60000 * ms, winc: 2000 * ms, movesToGo: 10, clockGiven: true}, board.White, 7500*ms - moveOverhead},
		{goParams{wtime: 30 * ms, clockGiven: true}, board.White, 5 * ms},
	}
	for i, tc := range cases {
		if got := timeBudget(tc.p, tc.side); got != tc.want {
			t.Errorf("case %d: %v, want %v", i, got, tc.want)
		}
	}
}

// FuzzParse feeds any line to the command parsers: they never panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"position startpos moves e2e4", "go mate 3 searchmoves e2e4", "setoption name Hash value 8",
		"position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves a1a8", "go wtime 1 btime x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		w := strings.Fields(line)
		parseGo(w)
		parsePosition(w)
		parseSetOption(w)
	})
}
