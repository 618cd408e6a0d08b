package stipulation

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/stipulation/internal/prune"
)

// TestHelpmateExamples: positions whose solutions are worked out by hand.
func TestHelpmateExamples(t *testing.T) {
	for _, c := range []struct {
		fen, stip string
		want      []string // solutions, UCI moves joined by spaces
	}{
		// the king's one move, then the rook mates on the back rank
		{"7k/8/6K1/8/8/8/8/R7 b - - 0 1", "h#1", []string{"h8g8 a1a8"}},
		// h#0.5: the side to move mates at once: Ra8 (Rh8+ is met by Kxh8)
		{"6k1/8/6K1/8/8/8/8/R6R w - - 0 1", "h#0.5", []string{"a1a8"}},
		// no solution: bare kings
		{"7k/8/6K1/8/8/8/8/8 b - - 0 1", "h#2", nil},
	} {
		st, err := problem.Parse(c.stip)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Helpmates(context.Background(), board.MustParseFEN(c.fen), st, Limits{})
		if err != nil {
			t.Fatalf("%s %s: %v", c.fen, c.stip, err)
		}
		got := lines(res.Solutions)
		want := append([]string(nil), c.want...)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s %s: solutions %q, want %q", c.fen, c.stip, got, want)
		}
	}
}

func lines(ls []Line) []string {
	var out []string
	for _, l := range ls {
		var s []string
		for _, m := range l {
			s = append(s, m.UCI())
		}
		out = append(out, strings.Join(s, " "))
	}
	slices.Sort(out)
	return out
}

// refHelp lists every helpmate line of plies from pos, by plain
// enumeration of every legal move.
func refHelp(pos board.Position, plies int, prefix []string, out *[]string) {
	refHelpAim(pos, plies, problem.Checkmate, prefix, out)
}

// TestHelpmatesAgainstReference: on random positions, every solution of
// h#1, h#1.5 and h#2 equals plain enumeration's.
func TestHelpmatesAgainstReference(t *testing.T) {
	found := 0
	for _, stip := range []string{"h#0.5", "h#1", "h#1.5", "h#2"} {
		st, _ := problem.Parse(stip)
		count := 300
		if st.Plies() == 4 {
			count = 60
		}
		testpos.FewMen(uint64(st.Plies()), count, func(pos board.Position) {
			res, err := Helpmates(context.Background(), pos, st, Limits{})
			if err != nil {
				t.Fatalf("%s %s: %v", pos.FEN(), stip, err)
			}
			var want []string
			refHelp(pos, st.Plies(), nil, &want)
			slices.Sort(want)
			if got := lines(res.Solutions); !slices.Equal(got, want) {
				t.Errorf("%s %s: solutions %q, reference %q", pos.FEN(), stip, got, want)
			}
			found += len(want)
		})
	}
	if found == 0 {
		t.Error("no position had a solution: the comparison proved little")
	}
	t.Logf("%d solutions compared", found)
}

// selfmates1 are selfmates in one found among random positions by the
// reference minimax below (random positions are almost never selfmates).
var selfmates1 = []string{
	"8/8/8/4q3/1Q3r2/K7/8/k7 w - - 0 1",
	"2k5/8/2K5/Q6r/8/6q1/8/8 w - - 0 1",
	"6qk/6r1/7K/8/8/8/8/1Q6 w - - 0 1",
	"r1k4K/5Q2/6q1/8/8/8/8/8 w - - 0 1",
	"5K2/1q5k/6b1/8/3Q4/R7/8/8 w - - 0 1",
	"8/8/8/1b1Q4/2R5/6k1/2q5/7K w - - 0 1",
	"2k5/4Q3/1K6/4R3/2q5/3b4/8/8 w - - 0 1",
	"8/8/8/4R3/4bkq1/8/6QK/8 w - - 0 1",
	"8/8/8/3p4/1Q6/3K4/8/3kq3 w - - 0 1",
	"8/8/8/8/1Q2q3/2p5/8/k1K5 w - - 0 1",
}

// TestSelfmatesAgainstReference: s#1 and s#2 keys and shortest lengths
// equal plain minimax's (refForced), on the selfmates above (with either
// side to move, which is mostly no selfmate) and on random positions.
func TestSelfmatesAgainstReference(t *testing.T) {
	s1, _ := problem.Parse("s#1")
	s2, _ := problem.Parse("s#2")
	wins := 0
	for i, fen := range selfmates1 {
		pos := board.MustParseFEN(fen)
		if !compareForced(t, pos, s1) {
			t.Errorf("%s: not a selfmate in 1", fen)
		}
		if i < 4 && compareForced(t, pos, s2) {
			wins++
		}
		if black, err := board.ParseFEN(strings.Replace(fen, " w ", " b ", 1)); err == nil {
			compareForced(t, black, s1)
		}
	}
	testpos.FewMen(101, 300, func(pos board.Position) { compareForced(t, pos, s1) })
	testpos.FewMen(102, 30, func(pos board.Position) { compareForced(t, pos, s2) })
	if wins == 0 {
		t.Error("no s#2 compared")
	}
}

// helpBench are random h#3 problems with one to four solutions
// (tools/problemset -n 10 h#2 h#3, seed 1).
var helpBench = []string{
	"r2R4/k7/8/5n2/5N2/8/K7/8 b - - 0 1",
	"7K/N2k4/8/6N1/8/4p3/3Pr1p1/8 b - - 0 1",
	"8/3b4/1P6/1N6/k7/8/5bb1/K7 b - - 0 1",
	"8/3r4/4P2p/3p1P2/3r3P/7K/8/3k3b b - - 0 1",
	"n7/8/8/p5R1/3k4/2p5/5Kp1/4B3 b - - 0 1",
	"8/6P1/8/4K3/2r5/1P6/p7/3k4 b - - 0 1",
}

// BenchmarkHelpmates solves the h#3 problems of helpBench; nodes/op is
// the positions visited, the same on every run.
func BenchmarkHelpmates(b *testing.B) {
	st := problem.Stipulation{Kind: problem.Help, Moves: 3}
	var nodes uint64
	for b.Loop() {
		nodes = 0
		for _, fen := range helpBench {
			pos, err := board.ParseFEN(fen)
			if err != nil {
				b.Fatal(err)
			}
			res, err := Helpmates(context.Background(), pos, st, Limits{})
			if err != nil || len(res.Solutions) == 0 {
				b.Fatalf("%s: %d solutions, %v", fen, len(res.Solutions), err)
			}
			nodes += res.Nodes
		}
	}
	b.ReportMetric(float64(nodes), "nodes/op")
}

// Threads give the same solutions in the same order.
func TestHelpmateThreads(t *testing.T) {
	st := problem.Stipulation{Kind: problem.Help, Moves: 3}
	for _, fen := range helpBench[:3] {
		pos, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		one, err1 := Helpmates(context.Background(), pos, st, Limits{})
		two, err2 := Helpmates(context.Background(), pos, st, Limits{Threads: 2})
		if err1 != nil || err2 != nil || !slices.Equal(lines(one.Solutions), lines(two.Solutions)) || len(one.Solutions) == 0 {
			t.Errorf("%s: one thread %v (%v), two %v (%v)", fen, lines(one.Solutions), err1, lines(two.Solutions), err2)
		}
		capped, err := Helpmates(context.Background(), pos, st, Limits{Threads: 2, MaxSolutions: 1})
		if !errors.Is(err, ErrMaxSolutions) && len(one.Solutions) > 1 || len(capped.Solutions) != 1 || lines(capped.Solutions)[0] != lines(one.Solutions)[0] {
			t.Errorf("%s: MaxSolutions 1 with threads: %v, %v", fen, lines(capped.Solutions), err)
		}
		// (the limit on a longer play: the nets solve these h#3 in a few
		// thousand positions)
		limited, err := Helpmates(context.Background(), pos, problem.Stipulation{Kind: problem.Help, Moves: 5}, Limits{Threads: 2, Nodes: 5000})
		if !errors.Is(err, ErrLimit) {
			t.Errorf("%s: a node limit of 5000 with threads: %d solutions, %v", fen, len(limited.Solutions), err)
		}
	}
}

// TestHelpstalemateThreads: two helpstalemates of Popeye's
// BEISPIEL/hpint.inp (lines 635 and 710), each with the one solution
// Popeye 4.104 gives, on one thread and on two, whose threads share the
// fail memo: a position one thread found without a solution is one for
// the other, and no solution is lost for it.
func TestHelpstalemateThreads(t *testing.T) {
	for _, c := range []struct{ fen, stip, want string }{
		{"5Kn1/p6k/8/5pP1/8/8/1p2P3/1N6 b - - 0 1", "h=5", "a7a5 e2e4 a5a4 e4f5 a4a3 f5f6 a3a2 f6f7 a2a1b f7g8r"},
		{"8/5p1p/4p3/3p3K/2p5/1p6/Pk6/8 b - - 0 1", "h=6", "b2c3 a2b3 c3d4 b3c4 d4e5 c4d5 e5f6 d5e6 f6g7 e6f7 g7h8 h5h6"},
	} {
		st, _ := problem.Parse(c.stip)
		for _, threads := range []int{1, 2} {
			res, err := Helpmates(context.Background(), board.MustParseFEN(c.fen), st, Limits{Threads: threads})
			if got := lines(res.Solutions); err != nil || !slices.Equal(got, []string{c.want}) {
				t.Errorf("%s %s, %d threads: %q (%v), want %q", c.fen, c.stip, threads, got, err, c.want)
			}
		}
	}
}

// TestPopeyeSeriesAndStalemates: problems of Popeye's BEISPIEL/hpint.inp
// with the solutions its REGRESSIONTESTS/hpint.out gives.
func TestPopeyeSeriesAndStalemates(t *testing.T) {
	for _, c := range []struct {
		fen, stip string
		want      []string
	}{
		// Boris Bursac, Problemkiste 96, 10/1994: 1.b2-b1=T c7-c8=T
		// 2.Tb1-b7 Tc8-h8 3.Tb7-h7 Th8*h7 =
		{"8/2P5/3p4/2pP2p1/2P1K1k1/8/1p5P/8 b - - 0 1", "h=3", []string{"b2b1r c7c8r b1b7 c8h8 b7h7 h8h7"}},
		// Theodor Steudel, Problemkiste 93, 6/1994: 1.Kg1*f1 2.Tg2-g1
		// 3.g3-g2 4.Lh2-f4 5.Lf4-d2 Kd1*d2 =
		{"8/8/8/8/8/6p1/5prb/3K1Nkb b - - 0 1", "ser-h=5", []string{"g1f1 g2g1 g3g2 h2f4 f4d2 d1d2"}},
		// Theodor Steudel, the same issue: two solutions
		{"2R5/kP1p4/p2p4/PPpP4/2P1K3/8/1p6/8 b - - 0 1", "ser-h=5", []string{
			"b2b1n b1a3 a3b5 b5c7 c7a8 b7a8b", "b2b1r b1b5 b5b6 b6c6 c6c8 b7c8q"}},
		// the set play of the first: White stalemates at once
		{"8/8/8/8/8/6p1/5prb/3K1Nkb w - - 0 1", "h=0.5", []string{"d1e2"}},
	} {
		st, err := problem.Parse(c.stip)
		if err != nil {
			t.Fatal(err)
		}
		var res HelpResult
		if st.IsSeries() {
			res, err = Series(context.Background(), board.MustParseFEN(c.fen), st, Limits{})
		} else {
			res, err = Helpmates(context.Background(), board.MustParseFEN(c.fen), st, Limits{})
		}
		if err != nil {
			t.Fatalf("%s %s: %v", c.fen, c.stip, err)
		}
		want := append([]string(nil), c.want...)
		slices.Sort(want)
		if got := lines(res.Solutions); !slices.Equal(got, want) {
			t.Errorf("%s %s: solutions %q, want %q", c.fen, c.stip, got, want)
		}
	}
}

// refSeries lists every series line by plain enumeration: left moves of
// the side to move, no check before the last (with parry, a check is
// followed by the other side's parries: refParries), then (help) one
// move of the other side.
func refSeries(pos board.Position, left int, kind problem.Kind, aim problem.Aim, parry bool, prefix []string, out *[]string) {
	if kind == problem.SeriesReflex && left > 0 && refCanMate(pos) {
		return // the series side would have to mate
	}
	var l board.MoveList
	pos.LegalMoves(&l)
	if left == 0 && (kind == problem.SeriesSelf || kind == problem.SeriesReflex) {
		var ends []string
		all := l.N > 0
		for _, m := range l.Slice() {
			child := pos
			child.Play(m)
			if refReached(child, aim) {
				ends = append(ends, m.UCI())
			} else {
				all = false
			}
		}
		if kind == problem.SeriesSelf && !all {
			return
		}
		for _, e := range ends {
			*out = append(*out, strings.Join(append(append([]string(nil), prefix...), e), " "))
		}
		return
	}
	for _, m := range l.Slice() {
		child := pos
		child.Play(m)
		line := append(append([]string(nil), prefix...), m.UCI())
		if left == 0 || left == 1 && kind == problem.SeriesDirect {
			if refReached(child, aim) {
				*out = append(*out, strings.Join(line, " "))
			}
			continue
		}
		if child.InCheck() && left > 1 {
			if parry {
				refParries(child, left-1, kind, aim, line, out)
			}
			continue
		}
		if kind == problem.SeriesReflex && left > 1 && refCanMate(child) {
			continue // the other side would have to mate now
		}
		if left > 1 {
			q, ok := child.Passed()
			if !ok {
				continue
			}
			child = q
		}
		refSeries(child, left-1, kind, aim, parry, line, out)
	}
}

// refParries follows a parry series' check (pser-#N, pser-=N, pser-h#N,
// pser-h=N, pser-s#N; the other side to move at pos, in check): each of
// its moves, its parries, then the series' left moves; in pser-h# each
// parry's lines are solutions, in pser-# and pser-s# (the other side
// chooses) only when every parry has some, and a check with no parry, a
// mate, has none.
func refParries(pos board.Position, left int, kind problem.Kind, aim problem.Aim, prefix []string, out *[]string) {
	var parries board.MoveList
	pos.LegalMoves(&parries)
	forced := kind == problem.SeriesDirect || kind == problem.SeriesSelf
	var all []string
	for _, r := range parries.Slice() {
		next := pos
		next.Play(r)
		var sub []string
		refSeries(next, left, kind, aim, true, append(append([]string(nil), prefix...), r.UCI()), &sub)
		if len(sub) == 0 && forced {
			return
		}
		all = append(all, sub...)
	}
	if forced && parries.N == 0 {
		return
	}
	*out = append(*out, all...)
}

// refHelpAim is refHelp for either aim.
func refHelpAim(pos board.Position, plies int, aim problem.Aim, prefix []string, out *[]string) {
	var l board.MoveList
	pos.LegalMoves(&l)
	for _, m := range l.Slice() {
		child := pos
		child.Play(m)
		line := append(append([]string(nil), prefix...), m.UCI())
		if plies == 1 {
			if refReached(child, aim) {
				*out = append(*out, strings.Join(line, " "))
			}
			continue
		}
		refHelpAim(child, plies-1, aim, line, out)
	}
}

// TestSeriesAndStalematesAgainstReference: on random positions, every
// solution of the series-movers and helpstalemates equals plain
// enumeration's (the search prunes with its table of positions without
// solution, and plays the other side's non-move with Pass).
// refHelpForced lists the solutions of hs#N and hr#N by plain
// enumeration: every line of plies-1 plies, then each move of the other
// side that ends it (hs: all its moves mate; hr: its mates), the reflex
// rule checked before every move in hr.
func refHelpForced(pos board.Position, plies int, kind problem.Kind, aim problem.Aim, prefix []string, out *[]string) {
	var l board.MoveList
	pos.LegalMoves(&l)
	if plies == 1 {
		var ends []string
		for _, m := range l.Slice() {
			child := pos
			child.Play(m)
			if refReached(child, aim) {
				ends = append(ends, m.UCI())
			} else if kind == problem.HelpSelf {
				return
			}
		}
		for _, e := range ends {
			*out = append(*out, strings.Join(append(append([]string(nil), prefix...), e), " "))
		}
		return
	}
	if kind == problem.HelpReflex && refCanMate(pos) {
		return
	}
	for _, m := range l.Slice() {
		child := pos
		child.Play(m)
		refHelpForced(child, plies-1, kind, aim, append(append([]string(nil), prefix...), m.UCI()), out)
	}
}

// refHelpReciprocal lists the solutions of reci-h#N by plain
// enumeration: every line of plies-2 plies, then, where the side to move
// has both a mate and a helpmate in one, each of the helpmates and each
// of the mates.
func refHelpReciprocal(pos board.Position, plies int, prefix []string, out *[]string) {
	var l board.MoveList
	pos.LegalMoves(&l)
	if plies == 2 {
		var mates, helps []string
		for _, m := range l.Slice() {
			child := pos
			child.Play(m)
			if refReached(child, problem.Checkmate) {
				mates = append(mates, m.UCI())
			}
			var replies board.MoveList
			child.LegalMoves(&replies)
			for _, r := range replies.Slice() {
				end := child
				end.Play(r)
				if refReached(end, problem.Checkmate) {
					helps = append(helps, m.UCI()+" "+r.UCI())
				}
			}
		}
		if len(mates) > 0 && len(helps) > 0 {
			for _, e := range append(helps, mates...) {
				*out = append(*out, strings.Join(append(append([]string(nil), prefix...), e), " "))
			}
		}
		return
	}
	for _, m := range l.Slice() {
		child := pos
		child.Play(m)
		refHelpReciprocal(child, plies-1, append(append([]string(nil), prefix...), m.UCI()), out)
	}
}

// reciprocalHelpmates: the two reci-h#2 of Popeye's
// BEISPIEL/castling.inp (Black may castle; each ends in castling and
// mate, or in a mate en passant: two solutions, as Popeye 4.104 gives
// them), and the first one's position after 1.f2-f1=S d2-d4, a reci-h#1.
var reciprocalHelpmates = []string{
	"r3k2r/1b3p1p/4p3/4B2R/N3p2P/4b1nN/3P1pKp/6RB b kq - 0 1",
	"r3k2r/1b3p1p/4p3/4B2R/N3p2p/4b1nN/3P1PKp/6RB b kq - 0 1",
	"r3k2r/1b3p1p/4p3/4B2R/N2Pp2P/4b1nN/6Kp/5nRB b kq d3 0 2",
}

// seriesSelfmates are ser-s#2 (the first four) and ser-r#2 from
// tools/problemset, with Popeye's own answers equal to mateline's.
var seriesSelfmates = []string{
	"2r5/8/8/3B4/6Q1/k7/2p3Q1/K7 w - - 0 1",
	"Q7/3b1k1K/2N4P/4Q3/6p1/4R3/8/8 w - - 0 1",
	"7R/8/1N5B/4B3/1p2r3/8/5k2/3Q3K w - - 0 1",
	"BK6/8/1k6/7Q/2B5/2P5/3b4/3rQ3 w - - 0 1",
	"2N2K2/p5nB/5k2/7B/1Q6/8/R7/4b3 w - - 0 1", // White can mate at once: no solution
	"4N3/8/1N5R/5k2/7r/N7/Q4r2/4K3 w - - 0 1",
	"3k4/3N1P2/rR6/8/8/4p1RQ/3pK3/8 w - - 0 1",
	"6N1/8/8/8/3b4/7k/2p4P/2Q1K2Q w - - 0 1",
}

func TestSeriesAndStalematesAgainstReference(t *testing.T) {
	found := map[string]int{}
	for _, stip := range []string{"ser-#2", "ser-#3", "ser-=2", "ser-=3", "ser-h#2", "ser-h#3", "ser-h#4", "ser-h=2", "ser-h=3", "h=1", "h=1.5", "h=2",
		"ser-s#2", "ser-r#1", "ser-r#2", "hs#2", "hr#1", "hr#2", "reci-h#1", "reci-h#2", "pser-h#2", "pser-h#3", "pser-h#4", "pser-h=2", "pser-h=3", "pser-#2", "pser-#3", "pser-=2", "pser-=3", "pser-s#2", "pser-s#3"} {
		st, _ := problem.Parse(stip)
		count := 200
		if st.Plies() >= 4 {
			count = 40
		}
		if st.Parry && st.Moves >= 4 {
			count = 10 // (parries make the reference's tree large)
		}
		each := func(pos board.Position) {
			var res HelpResult
			var err error
			var want []string
			switch {
			case st.Parry:
				res, err = Series(context.Background(), pos, st, Limits{})
				refSeries(pos, st.Moves, st.Kind, st.Aim, true, nil, &want)
			case st.IsSeries():
				res, err = Series(context.Background(), pos, st, Limits{})
				refSeries(pos, st.Moves, st.Kind, st.Aim, false, nil, &want)
			case st.Kind == problem.HelpSelf || st.Kind == problem.HelpReflex:
				res, err = Helpmates(context.Background(), pos, st, Limits{})
				refHelpForced(pos, st.Plies(), st.Kind, st.Aim, nil, &want)
			case st.Kind == problem.HelpReciprocal:
				res, err = Helpmates(context.Background(), pos, st, Limits{})
				refHelpReciprocal(pos, st.Plies(), nil, &want)
			default:
				res, err = Helpmates(context.Background(), pos, st, Limits{})
				refHelpAim(pos, st.Plies(), st.Aim, nil, &want)
			}
			if err != nil {
				t.Fatalf("%s %s: %v", pos.FEN(), stip, err)
			}
			slices.Sort(want)
			if got := lines(res.Solutions); !slices.Equal(got, want) {
				t.Errorf("%s %s: solutions %q, reference %q", pos.FEN(), stip, got, want)
			}
			found[stip] += len(want)
			if st.Parry {
				for _, w := range want {
					if len(strings.Fields(w)) > st.Plies() {
						found[stip+" with a parry"]++
					}
				}
			}
		}
		testpos.FewMen(uint64(10+st.Plies()), count, each)
		if st.Kind == problem.HelpReciprocal {
			// random positions seldom are reciprocal helpmates: these
			// are (and their neighbours at other lengths)
			for _, fen := range reciprocalHelpmates {
				each(board.MustParseFEN(fen))
			}
		}
		if st.Kind == problem.SeriesSelf || st.Kind == problem.SeriesReflex || st.Kind == problem.HelpSelf || st.Kind == problem.HelpReflex {
			// random positions are almost never series selfmates: these
			// are (problemset, checked with Popeye 4.104), and their
			// neighbours may be at other lengths
			for _, fen := range seriesSelfmates {
				each(board.MustParseFEN(fen))
			}
		}
	}
	for stip, n := range found {
		if n == 0 {
			t.Errorf("%s: no position had a solution: the comparison proved little", stip)
		}
	}
	t.Logf("solutions compared: %v", found)
}

// refReached tells the aim apart by the rules' words: no legal move, in
// check for mate, not in check for stalemate.
func refReached(pos board.Position, aim problem.Aim) bool {
	return !pos.HasLegalMove() && pos.InCheck() == (aim == problem.Checkmate)
}

// refForced reports, by plain minimax in the rules' words (no memory, no
// shortcuts), whether the attacker to move at pos forces st's aim within
// n moves: =N, s#N, s=N, r#N, semi-r#N.
func refForced(pos board.Position, st problem.Stipulation, n int) bool {
	var l board.MoveList
	pos.LegalMoves(&l)
	if st.Kind == problem.Reflex && refCanMate(pos) {
		return false // the attacker must mate, and that is not the aim
	}
	for _, m := range l.Slice() {
		child := pos
		child.Play(m)
		if refForcedAfter(child, st, n) {
			return true
		}
	}
	return false
}

// refForcedAfter: the attacker's n-th move from the end led to pos.
func refForcedAfter(pos board.Position, st problem.Stipulation, n int) bool {
	if st.Kind == problem.Direct {
		if refReached(pos, st.Aim) {
			return true
		}
		if n == 1 || !pos.HasLegalMove() {
			return false
		}
	}
	var l board.MoveList
	pos.LegalMoves(&l)
	if l.N == 0 {
		return false
	}
	if (st.Kind == problem.Reflex || st.Kind == problem.SemiReflex) && refCanMate(pos) {
		return true // the defender must mate: the aim
	}
	for _, m := range l.Slice() {
		child := pos
		child.Play(m)
		if st.Kind != problem.Direct && refReached(child, st.Aim) {
			continue
		}
		if n == 1 || !refForced(child, st, n-1) {
			return false
		}
	}
	return true
}

// compareForced checks the keys and the shortest length of a forced
// stipulation at pos against refForced's, and reports whether it has a
// solution.
func compareForced(t *testing.T, pos board.Position, st problem.Stipulation) bool {
	t.Helper()
	res, err := Selfmates(context.Background(), pos, st, Limits{})
	if err != nil {
		t.Fatalf("%s %s: %v", pos.FEN(), st, err)
	}
	shortest := 0
	for n := 1; n <= st.Moves && shortest == 0; n++ {
		if refForced(pos, st, n) {
			shortest = n
		}
	}
	var want []string
	if shortest > 0 && !(st.Kind == problem.Reflex && refCanMate(pos)) {
		var l board.MoveList
		pos.LegalMoves(&l)
		for _, m := range l.Slice() {
			child := pos
			child.Play(m)
			if refForcedAfter(child, st, st.Moves) {
				want = append(want, m.UCI())
			}
		}
	}
	var got []string
	for _, m := range res.Keys {
		got = append(got, m.UCI())
	}
	slices.Sort(got)
	slices.Sort(want)
	if res.Shortest != shortest || !slices.Equal(got, want) {
		t.Errorf("%s %s: shortest %d keys %q, reference %d %q", pos.FEN(), st, res.Shortest, got, shortest, want)
	}
	return shortest > 0
}

// refCanMate reports whether the side to move has a mate in one.
func refCanMate(pos board.Position) bool {
	var l board.MoveList
	pos.LegalMoves(&l)
	for _, m := range l.Slice() {
		child := pos
		child.Play(m)
		if refReached(child, problem.Checkmate) {
			return true
		}
	}
	return false
}

// TestForcedAgainstReference: the keys and shortest lengths of =N, s=N,
// r#N and semi-r#N equal plain minimax's on random positions and on the
// selfmates above.
func TestForcedAgainstReference(t *testing.T) {
	found := map[string]int{}
	for i, stip := range []string{"=1", "=2", "s=1", "s=2", "r#1", "r#2", "semi-r#1", "semi-r#2", "s#1"} {
		st, err := problem.Parse(stip)
		if err != nil {
			t.Fatal(err)
		}
		compare := func(pos board.Position) {
			if compareForced(t, pos, st) {
				found[stip]++
			}
		}
		for _, fen := range selfmates1 {
			compare(board.MustParseFEN(fen))
		}
		count := 400
		switch {
		case st.Moves == 2:
			count = 40
		case st.Aim == problem.Stalemate:
			count = 4000 // stalemates are rare among random positions
		}
		testpos.FewMen(uint64(200+i), count, compare)
	}
	t.Logf("positions with a solution: %v", found)
	for _, stip := range []string{"=1", "s=1", "r#1", "semi-r#1"} {
		if found[stip] == 0 {
			t.Errorf("%s: no position had a solution: the comparison proved little", stip)
		}
	}
}

// TestIntroductoryMoves: Bjorn Enemark's 1->ser-h#3, with Popeye's answer
// (its REGRESSIONTESTS/4_85_to_4_87.reg): after White's 1.Sb5-d4, two
// Black series of three and one of two.
func TestIntroductoryMoves(t *testing.T) {
	pos := board.MustParseFEN("8/8/8/1N6/8/1r1n4/2K5/k7 w - - 0 1")
	for _, c := range []struct {
		stip string
		want []string
	}{
		{"1->ser-h#3", []string{"b5d4 b3a3 d3b2 a3a2 d4b3", "b5d4 d3b2 b3a3 a3a2 d4b3"}},
		{"1->ser-h#2", []string{"b5d4 d3c1 c1a2 d4b3"}},
		{"1->ser-h#1", nil},
	} {
		st, err := problem.Parse(c.stip)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Lines(context.Background(), pos, st, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := lines(res.Solutions); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.stip, got, c.want)
		}
	}
}

// TestMateNetSound: the mating-net tests drop no solution. On random
// positions, h#1.5 to h#4 (the net test prunes at every depth it is made
// for up to h#3, the budget test at every depth) and h=1.5 to h=3 (the
// budget test), the solutions with the tests equal those without them.
func TestMateNetSound(t *testing.T) {
	compared, found := 0, 0
	for _, stip := range []string{"h#1.5", "h#2", "h#2.5", "h#3", "h#3.5", "h#4", "h=1.5", "h=2", "h=2.5", "h=3"} {
		st, _ := problem.Parse(stip)
		count := 300
		switch {
		case st.Plies() >= 7:
			count = 8
		case st.Plies() >= 5:
			count = 80
		}
		if st.Aim == problem.Stalemate {
			count /= 4
		}
		testpos.FewMen(uint64(300+st.Plies()), count, func(pos board.Position) {
			found += len(sameWithoutTests(t, pos, st))
			compared++
		})
	}
	if found == 0 {
		t.Error("no solution compared")
	}
	t.Logf("%d positions, %d solutions compared", compared, found)
}

// sameWithoutTests checks that the help play of st from pos finds the
// solutions a search without the net, budget, stuck and idle tests finds,
// and returns them.
func sameWithoutTests(t *testing.T, pos board.Position, st problem.Stipulation) []Line {
	t.Helper()
	res, err := Helpmates(context.Background(), pos, st, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	h := newHelper(context.Background(), Limits{}, st.Plies(), st.Aim, helpEnds[st.Kind], prune.MemoOnly, nil, nil)
	if _, err := h.solve(&pos, st.Plies(), nil, everywhere); err != nil {
		t.Fatal(err)
	}
	want := lines(h.solutions)
	slices.Sort(want)
	if got := lines(res.Solutions); !slices.Equal(got, want) {
		t.Errorf("%s %s: %q with the tests, %q without", pos.FEN(), st, got, want)
	}
	return h.solutions
}

// TestMateNetsWithCastling: the budget test takes the castling of the side
// to be mated into account (its king reaches the square it castles to in
// one move, its rook the rook's square in none) and is not made while the
// mating side may castle. On random positions where the side to be mated,
// the mating side or both may castle either way, the solutions with the
// tests equal those without them, castling mates among them.
func TestMateNetsWithCastling(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	const kinds = "RBNNPPrbnnpp"
	compared, found, castles := 0, 0, 0
	var nodes [2]uint64
	for _, stip := range []string{"h#1.5", "h#2"} {
		st, _ := problem.Parse(stip)
		for made := 0; made < 80; {
			grid := [64]byte{0: 'R', 4: 'K', 7: 'R', 56: 'r', 60: 'k', 63: 'r'}
			men := ""
			for n := 1 + rng.IntN(2); n > 0; n-- {
				men += string(kinds[rng.IntN(len(kinds))])
			}
			fen := testpos.PlacementOn(rng, &grid, men)
			// the rights of the side to be mated, of the mating side, or both
			side, mated, mating := " w", "KQ", "kq"
			if rng.IntN(2) == 0 {
				side, mated, mating = " b", "kq", "KQ"
			}
			if st.Plies()%2 == 1 { // the side to move mates
				mated, mating = mating, mated
			}
			rights := " " + []string{mated, mating, "KQkq"}[rng.IntN(3)]
			pos, err := board.ParseFEN(fen + side + rights + " - 0 1")
			if err != nil || !pos.HasLegalMove() || pos.Castling() == 0 {
				continue
			}
			made++
			with := newHelper(context.Background(), Limits{}, st.Plies(), st.Aim, endBySeries, prune.All, nil, nil)
			without := newHelper(context.Background(), Limits{}, st.Plies(), st.Aim, endBySeries, prune.MemoOnly, nil, nil)
			for _, h := range []*helper{with, without} {
				p := pos
				if _, err := h.solve(&p, st.Plies(), nil, everywhere); err != nil {
					t.Fatal(err)
				}
			}
			nodes[0], nodes[1] = nodes[0]+with.nodes, nodes[1]+without.nodes
			for _, l := range without.solutions {
				for _, m := range l {
					if m.IsCastling() {
						castles++
						break
					}
				}
			}
			got, want := lines(with.solutions), lines(without.solutions)
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: %q with the tests, %q without", pos.FEN(), stip, got, want)
			}
			compared++
			found += len(want)
		}
	}
	if found == 0 {
		t.Error("no solution compared")
	}
	if nodes[0] >= nodes[1] {
		t.Errorf("the tests pruned nothing: %d positions with them, %d without", nodes[0], nodes[1])
	}
	if castles == 0 {
		t.Error("no solution castles: the comparison proved little")
	}
	t.Logf("%d positions, %d solutions compared (%d with castling); %d positions searched with the tests, %d without", compared, found, castles, nodes[0], nodes[1])
}

// TestReciprocalHelpmates: two reci-h#3 of Popeye's BEISPIEL/intell.inp
// (twins of one problem by Thomas Linss and others), each with the help
// play ending once in a helpmate and once in Black's mate, as Popeye
// 4.104 solves them.
func TestReciprocalHelpmates(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want []string
	}{
		{"B7/8/1pb5/r1p3b1/p1k5/Rr2P3/8/5K1n b - - 0 1", []string{
			"c6f3 a8e4 b3b4 e4b1 b4b1", "c6f3 a8e4 b3b4 e4b1 f3d5 b1d3"}},
		{"B7/8/1pb5/r1p3bK/p1k5/Rr6/2P5/7n b - - 0 1", []string{
			"b3g3 a3e3 c6b5 e3e8 b5e8", "b3g3 a3e3 c6b5 e3e8 g3c3 e8e4"}},
	} {
		st, _ := problem.Parse("reci-h#3")
		res, err := Helpmates(context.Background(), board.MustParseFEN(c.fen), st, Limits{Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		if got := lines(res.Solutions); !slices.Equal(got, c.want) {
			t.Errorf("%s reci-h#3: %q, want %q", c.fen, got, c.want)
		}
	}
}
