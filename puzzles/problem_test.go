package puzzles_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
)

// problemRecord makes a record of a helpmate or selfmate from a FEN.
func problemRecord(t *testing.T, fen, stip string) record.Record {
	t.Helper()
	rec := record.FromFEN("--fen", 1, fen)
	if rec.Err != nil {
		t.Fatal(rec.Err)
	}
	st, err := problem.Parse(stip)
	if err != nil {
		t.Fatal(err)
	}
	rec.Stip = st
	return rec
}

// The expected values are Popeye 4.104's on the same problems
// (tools/popeyecheck prints them side by side).
func TestSolveProblem(t *testing.T) {
	cases := []struct {
		name, fen, stip string
		status          puzzles.Status
		solutions       []string // helpmates, as UCI lines
		keys            []string // selfmates
		shorter         string
		verdict         puzzles.Verdict
	}{
		{"h#2 ten solutions", "4kb2/5p2/8/8/8/8/8/2KQ4 b - - 0 1", "h#2", puzzles.StatusMate, []string{
			"f8e7 d1h5 e8f8 h5h8", "f8e7 d1d4 e8f8 d4h8", "f8e7 d1h1 e8f8 h1h8", "f8g7 c1b1 e8f8 d1d8",
			"f8g7 c1c2 e8f8 d1d8", "f8g7 d1d7 e8f8 d7d8", "f8g7 d1d5 e8f8 d5d8", "f8g7 d1d4 e8f8 d4d8",
			"f8g7 d1d3 e8f8 d3d8", "f8g7 d1d2 e8f8 d2d8"}, nil, "", puzzles.VerdictCooked},
		{"h#1.5 solved shorter", "k7/pp6/8/8/8/8/8/1K1R4 w - - 0 1", "h#1.5", puzzles.StatusCapped, nil, nil, "h#0.5", puzzles.VerdictShorter},
		{"h#1 without solution", "k7/pp6/8/8/8/8/8/1K1R4 b - - 0 1", "h#1", puzzles.StatusCapped, nil, nil, "", puzzles.VerdictNoSolution},
		{"s#1", "8/8/8/8/8/kp5R/p7/K7 w - - 0 1", "s#1", puzzles.StatusMate, nil, []string{"h3h4"}, "", puzzles.VerdictOK},
		{"s#2", "8/8/8/8/1p4Q1/k7/p7/K7 w - - 0 1", "s#2", puzzles.StatusMate, nil, []string{"g4d1"}, "", puzzles.VerdictOK},
		{"s#2 solved in 1", "8/8/8/2p5/8/kpR5/p7/K7 w - - 0 1", "s#2", puzzles.StatusMate, nil, []string{"c3c4"}, "s#1", puzzles.VerdictShorter},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := problemRecord(t, tc.fen, tc.stip)
			o := puzzles.ValidateProblem(context.Background(), &rec, puzzles.ProblemOptions{})
			var sols []string
			for _, s := range o.Solutions {
				sols = append(sols, strings.Join(s, " "))
			}
			want := tc.solutions // in Popeye's order
			if o.Status != tc.status || !slices.Equal(sols, want) || !slices.Equal(o.Keys, tc.keys) || o.Verdict != tc.verdict {
				t.Errorf("status %s verdict %s solutions %v keys %v\nwant %s %s %v %v", o.Status, o.Verdict, sols, o.Keys, tc.status, tc.verdict, want, tc.keys)
			}
			got := ""
			if o.Shorter != nil {
				got = o.Shorter.Stipulation
			}
			if got != tc.shorter {
				t.Errorf("shorter %q, want %q", got, tc.shorter)
			}
		})
	}
}

// A selfmate's line and tree: the key, the defence, the answer and the
// forced mate, as Popeye shows them.
func TestSelfmateTree(t *testing.T) {
	rec := problemRecord(t, "8/8/8/8/1p4Q1/k7/p7/K7 w - - 0 1", "s#2")
	o := puzzles.SolveProblem(context.Background(), &rec, puzzles.ProblemOptions{Tree: true})
	if got := strings.Join(o.PV, " "); got != "g4d1 b4b3 d1g4 b3b2" {
		t.Errorf("line %s", got)
	}
	tr := o.Tree
	if tr == nil || len(tr.Keys) != 1 || tr.Stipulation != "s#2" {
		t.Fatalf("tree %+v", tr)
	}
	k := tr.Keys[0]
	if k.UCI != "g4d1" || k.Threat != nil || !k.Zugzwang || len(k.Defences) != 1 || k.Defences[0].UCI != "b4b3" {
		t.Fatalf("key %+v", k)
	}
	a := k.Defences[0].Answers
	if len(a) != 1 || a[0].UCI != "d1g4" || len(a[0].Defences) != 1 || a[0].Defences[0].UCI != "b3b2" {
		t.Errorf("answer %+v", a)
	}
	// Popeye's notation, as the text report writes the tree.
	pos := rec.Pos
	var long []string
	for _, u := range []string{"g4d1", "b4b3", "d1g4", "b3b2"} {
		m, _ := pos.ParseUCI(u)
		long = append(long, puzzles.LongMove(&pos, m))
		pos.Play(m)
	}
	if got := strings.Join(long, " "); got != "Qg4-d1 b4-b3 Qd1-g4 b3-b2 #" {
		t.Errorf("long notation %s", got)
	}
}

// Solution lines are printed as Popeye prints them.
func TestLineText(t *testing.T) {
	cases := []struct {
		fen, line string
		lone      bool
		want      string
	}{
		{"4kb2/5p2/8/8/8/8/8/2KQ4 b - - 0 1", "f8e7 d1h5 e8f8 h5h8", false, "1.Bf8-e7 Qd1-h5   2.Ke8-f8 Qh5-h8 #"},
		{"4kb2/5p2/8/8/8/8/8/2KQ4 b - - 0 1", "f8g7 d1d7 e8f8 d7d8", false, "1.Bf8-g7 Qd1-d7 +   2.Ke8-f8 Qd7-d8 #"},
		{"k7/pp6/8/8/8/8/8/1K1R4 w - - 0 1", "d1d8", true, "1...Rd1-d8 #"},
		{"k7/pp6/8/8/8/8/8/1K1R4 w - - 0 1", "b1c2 a8b8 d1d7 b8a8 d7d8", true, "1...Kb1-c2   2.Ka8-b8 Rd1-d7   3.Kb8-a8 Rd7-d8 #"},
	}
	for _, tc := range cases {
		pos, err := board.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := pos.ParseUCILine(strings.Fields(tc.line))
		if err != nil {
			t.Fatal(err)
		}
		if got := puzzles.LineText(pos, moves, false, tc.lone); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.line, got, tc.want)
		}
	}
}

// MaxSolutions stops a helpmate at that many solutions.
func TestMaxSolutions(t *testing.T) {
	rec := problemRecord(t, "4kb2/5p2/8/8/8/8/8/2KQ4 b - - 0 1", "h#2")
	rec.Problem = &record.Problem{MaxSolutions: 3}
	o := puzzles.SolveProblem(context.Background(), &rec, puzzles.ProblemOptions{})
	if len(o.Solutions) != 3 || !o.Partial || o.Status != puzzles.StatusMate {
		t.Errorf("%d solutions, partial %v, status %s", len(o.Solutions), o.Partial, o.Status)
	}
}

// Options SetPlay and Try, against Popeye 4.104's output for the same
// problems (its test file battle_play.inp).
func TestSetPlayAndTries(t *testing.T) {
	rec := problemRecord(t, "8/8/8/8/2R1P3/kp1B4/8/K7 w - - 0 1", "s#1")
	rec.Problem = &record.Problem{Try: true}
	o := puzzles.SolveProblem(context.Background(), &rec, puzzles.ProblemOptions{})
	var got []string
	for _, tr := range o.Tries {
		got = append(got, tr.Text+" "+strings.Join(tr.RefText, ","))
	}
	want := []string{"Ka1-b1 b3-b2", "Bd3-f1 b3-b2 +", "Bd3-e2 b3-b2 +", "Rc4-a4 + Ka3*a4", "Rc4-d4 b3-b2 +", "e4-e5 b3-b2 +"}
	if !slices.Equal(got, want) || !slices.Equal(o.Keys, []string{"d3b1"}) {
		t.Errorf("keys %v tries %q, want d3b1 and %q", o.Keys, got, want)
	}

	rec = problemRecord(t, "8/8/8/8/1p6/k7/p1Q5/K7 w - - 0 1", "s#2")
	rec.Problem = &record.Problem{SetPlay: true}
	o = puzzles.SolveProblem(context.Background(), &rec, puzzles.ProblemOptions{})
	sp := o.SetPlay
	if sp == nil || sp.Tree == nil || len(sp.Tree.Defences) != 1 {
		t.Fatalf("set play %+v", sp)
	}
	d := sp.Tree.Defences[0]
	var answers []string
	for _, a := range d.Answers {
		answers = append(answers, a.UCI)
	}
	slices.Sort(answers)
	if d.UCI != "b4b3" || !slices.Equal(answers, []string{"c2c4", "c2e4"}) || !d.Dual {
		t.Errorf("set play %s: answers %v dual %v", d.UCI, answers, d.Dual)
	}

	rec = problemRecord(t, "k7/pp6/8/8/8/8/8/1K1R4 b - - 0 1", "h#2")
	rec.Problem = &record.Problem{SetPlay: true}
	o = puzzles.SolveProblem(context.Background(), &rec, puzzles.ProblemOptions{})
	// Popeye: "1...Rd1-d8 #", a short set play
	if sp := o.SetPlay; sp == nil || sp.Stipulation != "h#0.5" || len(o.SetPlayText) != 1 || o.SetPlayText[0] != "1...Rd1-d8 #" {
		t.Errorf("h#2 set play %+v", sp)
	}
}

// The author's solution, when given: a helpmate's line (pv) or a
// selfmate's key (bm) that is not a solution is wrong-key.
func TestProblemAuthorSolution(t *testing.T) {
	cases := []struct {
		line string
		want puzzles.Verdict
	}{
		{`4kb2/5p2/8/8/8/8/8/2KQ4 b - - stip "h#2"; pv f8e7 d1h5 e8f8 h5h8;`, puzzles.VerdictCooked},
		{`4kb2/5p2/8/8/8/8/8/2KQ4 b - - stip "h#2"; pv f8e7 d1h5 e8d8 h5h8;`, puzzles.VerdictWrongKey},
		{`8/8/8/8/1p4Q1/k7/p7/K7 w - - stip "s#2"; bm Qd1;`, puzzles.VerdictOK},
		{`8/8/8/8/1p4Q1/k7/p7/K7 w - - stip "s#2"; bm Qg7;`, puzzles.VerdictWrongKey},
	}
	for _, tc := range cases {
		rec := epd.ParseLine("a.epd", 1, tc.line)
		if rec.Err != nil {
			t.Fatalf("%s: %v", tc.line, rec.Err)
		}
		if o := puzzles.ValidateProblem(context.Background(), &rec, puzzles.ProblemOptions{}); o.Verdict != tc.want {
			t.Errorf("%s: verdict %s, want %s", tc.line, o.Verdict, tc.want)
		}
	}
}

// Option MaxFlightsquares N: Popeye 4.104 finds the key 1.Qg4+ of this
// s#3 without it and with N = 1, and no key with N = 0 (the king has a
// flight after the key).
func TestMaxFlightsquares(t *testing.T) {
	for _, tc := range []struct {
		option int // -1: not given
		keys   []string
	}{{-1, []string{"c8g4"}}, {1, []string{"c8g4"}}, {0, nil}} {
		rec := problemRecord(t, "2Q4b/8/5P2/2R5/4k3/3p4/4p3/4K3 w - - 0 1", "s#3")
		if tc.option >= 0 {
			rec.Problem = &record.Problem{MaxFlights: tc.option + 1}
		}
		o := puzzles.SolveProblem(context.Background(), &rec, puzzles.ProblemOptions{})
		if !slices.Equal(o.Keys, tc.keys) {
			t.Errorf("MaxFlightsquares %d: keys %v, want %v", tc.option, o.Keys, tc.keys)
		}
	}
}

// Option Threat N, against Popeye 4.104: keys of two s#3 with no option,
// Threat 1 and Threat 2.
func TestThreatOption(t *testing.T) {
	cases := []struct {
		fen    string
		threat int
		keys   []string
	}{
		{"5N2/8/8/4Q1Q1/k4P2/p2P4/1p3p2/1K6 w - - 0 1", 0, []string{"e5d4"}},
		{"5N2/8/8/4Q1Q1/k4P2/p2P4/1p3p2/1K6 w - - 0 1", 1, nil},
		{"5N2/8/8/4Q1Q1/k4P2/p2P4/1p3p2/1K6 w - - 0 1", 2, []string{"e5d4"}},
		{"5R1Q/5p2/8/8/p3B3/1kB5/8/1KB5 w - - 0 1", 0, []string{"h8d4"}},
		{"5R1Q/5p2/8/8/p3B3/1kB5/8/1KB5 w - - 0 1", 1, nil},
		{"5R1Q/5p2/8/8/p3B3/1kB5/8/1KB5 w - - 0 1", 2, nil},
	}
	for _, tc := range cases {
		rec := problemRecord(t, tc.fen, "s#3")
		rec.Problem = &record.Problem{Threat: tc.threat}
		o := puzzles.SolveProblem(context.Background(), &rec, puzzles.ProblemOptions{})
		if !slices.Equal(o.Keys, tc.keys) {
			t.Errorf("%s Threat %d: keys %v, want %v", tc.fen, tc.threat, o.Keys, tc.keys)
		}
	}
}

// Option Try on a direct mate: Popeye 4.104 lists these seven tries of
// this #2 (no key), each refuted by one defence.
func TestDirectTries(t *testing.T) {
	rec := record.FromFEN("--fen", 1, "8/8/8/8/2R1P3/kp1B4/8/K7 w - - 0 1")
	rec.Claim.Mate = 2
	sv := solver.New(4)
	opt := solver.Options{Fresh: true}.ForClaim(2)
	o := puzzles.Solve(context.Background(), sv, &rec, opt, nil)
	if err := puzzles.AddDirectTries(context.Background(), sv, &rec, &o, opt, 1, nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range o.Tries {
		got = append(got, tr.UCI+" "+strings.Join(tr.Refutations, ","))
	}
	want := []string{"a1b1 b3b2", "d3b1 b3b2", "d3f1 b3b2", "d3e2 b3b2", "c4a4 a3a4", "c4d4 b3b2", "e4e5 b3b2"}
	if o.Status != puzzles.StatusCapped || !slices.Equal(got, want) {
		t.Errorf("status %s, tries %v, want %v", o.Status, got, want)
	}
}

// Option SetPlay on direct mates: Popeye 4.104's set play of its test
// problems "#2 with setplay" and "#3 with short setplay".
func TestDirectSetPlay(t *testing.T) {
	cases := []struct {
		fen  string
		mate int
		want []string // defence: answers
	}{
		{"1k6/8/K1R5/2p5/8/8/8/8 w - - 0 1", 2, []string{"Kb8-a8: Rc6-c8 #"}},
		{"k3n3/P7/K1p1N3/8/8/2p5/1P6/8 w - - 0 1", 3, []string{"Se8-c7 +: Se6*c7 #", "Se8-d6: Se6-c7 #", "Se8-f6: Se6-c7 #", "Se8-g7: Se6-c7 #"}},
	}
	for _, tc := range cases {
		rec := record.FromFEN("--fen", 1, tc.fen)
		rec.Claim.Mate = problem.Mate(tc.mate)
		sv := solver.New(4)
		opt := solver.Options{Fresh: true}.ForClaim(rec.Claim.Mate)
		o := puzzles.Solve(context.Background(), sv, &rec, opt, nil)
		if err := puzzles.AddDirectSetPlay(context.Background(), sv, &rec, &o, opt, nil); err != nil {
			t.Fatal(err)
		}
		var got []string
		null, _ := rec.Pos.Passed()
		for _, d := range o.SetPlay.Tree.Defences {
			dm, _ := null.ParseUCI(d.UCI)
			after := null
			after.Play(dm)
			var as []string
			for _, a := range d.Answers {
				am, _ := after.ParseUCI(a.UCI)
				as = append(as, puzzles.LongMove(&after, am))
			}
			got = append(got, puzzles.LongMove(&null, dm)+": "+strings.Join(as, ", "))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: set play %q, want %q", tc.fen, got, tc.want)
		}
	}
}
