package solver

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"mateline.dev/mateline/board"
)

// threadCase is one position of the thread tests with how far to look.
type threadCase struct {
	pos     board.Position
	maxMate int
}

// threadCases returns 500 positions: the bench set, the known mates, and
// random positions (about as many with a mate as without).
func threadCases(t *testing.T) []threadCase {
	var cases []threadCase
	for _, bp := range BenchPositions {
		cases = append(cases, threadCase{board.MustParseFEN(bp.FEN), bp.MaxMate})
	}
	for _, km := range knownMates {
		cases = append(cases, threadCase{board.MustParseFEN(km.fen), 5})
	}
	rng := rand.New(rand.NewPCG(13, 17))
	probe := New(4)
	mates, others := 0, 0
	half := (500 - len(cases)) / 2
	for len(cases) < 500 {
		pos, ok := randomPosition(rng)
		if !ok {
			continue
		}
		res := probe.Solve(context.Background(), pos, Options{MaxMate: 3, NoKeys: true})
		if res.Status == StatusMate {
			if mates++; mates > half {
				continue
			}
		} else if others++; others > half+1 {
			continue
		}
		cases = append(cases, threadCase{pos, 3})
	}
	return cases
}

// TestThreadsSameAnswers solves 500 positions on 1, 2 and 4 threads:
// status, mate, depth and every key are the same, and the main line is a
// longest-resisting line of the same length (which of several equally long
// lines may depend on what the tables hold).
func TestThreadsSameAnswers(t *testing.T) {
	cases := threadCases(t)
	solvers := map[int]*Solver{1: New(16), 2: New(16), 4: New(16)}
	kinds := map[Status]int{}
	for _, tc := range cases {
		opt := Options{MaxMate: tc.maxMate, AllKeys: true}
		var want Result
		for _, threads := range []int{1, 2, 4} {
			opt.Threads = threads
			got := solvers[threads].Solve(context.Background(), tc.pos, opt)
			if threads == 1 {
				want = got
				kinds[got.Status]++
				continue
			}
			if got.Mate != 0 {
				checkLine(t, tc.pos, got) // a longest-resisting line, maybe another one
			}
			if got.Status != want.Status || got.Mate != want.Mate || got.Depth != want.Depth ||
				!slices.Equal(got.Keys, want.Keys) || len(got.PV) != len(want.PV) || got.Partial {
				t.Fatalf("%s (mate %d): %d threads give %v %d depth %d keys %v pv %v; 1 thread %v %d depth %d keys %v pv %v",
					tc.pos.FEN(), tc.maxMate, threads, got.Status, got.Mate, got.Depth, ucis(got.Keys), ucis(got.PV),
					want.Status, want.Mate, want.Depth, ucis(want.Keys), ucis(want.PV))
			}
		}
	}
	t.Logf("%d positions: %v", len(cases), kinds)
	if kinds[StatusMate] < 150 || kinds[StatusCapped]+kinds[StatusNoMate] < 150 {
		t.Errorf("too few of a kind: %v", kinds)
	}
}

// TestThreadsLongMate: a mate in 9 whose shortness the iterations prove
// while the proof-number search proves the mate, on two threads and four.
func TestThreadsLongMate(t *testing.T) {
	pos := board.MustParseFEN("b3kqr1/2p1p2K/2R2b2/1Q6/p1p5/1p6/8/8 w - - 0 1")
	for _, threads := range []int{2, 4} {
		res := New(16).Solve(context.Background(), pos, Options{MaxMate: 9, Want: WantMate, Threads: threads, AllKeys: true})
		if res.Status != StatusMate || res.Mate != 9 || len(res.Keys) != 1 || res.Keys[0].UCI() != "c6c7" {
			t.Fatalf("%d threads: %v mate %d keys %v", threads, res.Status, res.Mate, ucis(res.Keys))
		}
		checkLine(t, pos, res)
	}
}

// TestThreadsLimits: limits stop every thread, and a limited solve on
// several threads is reported as a limit, never as no mate.
func TestThreadsLimits(t *testing.T) {
	pos := board.MustParseFEN("8/8/1k6/8/1K6/8/8/7R w - - 0 1") // mate in 6
	res := New(8).Solve(context.Background(), pos, Options{MaxMate: 10, Nodes: 5000, Threads: 2})
	if res.Status != StatusLimit || res.Mate != 0 || res.Depth >= 6 {
		t.Fatalf("node limit on 2 threads: %v mate %d depth %d", res.Status, res.Mate, res.Depth)
	}
	if res.Nodes > 5000+3*checkInterval {
		t.Errorf("node limit 5000 on 2 threads: %d nodes", res.Nodes)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res := New(8).Solve(ctx, pos, Options{MaxMate: 10, Threads: 4}); res.Status != StatusLimit {
		t.Errorf("cancelled solve on 4 threads: %v", res.Status)
	}
}

// TestCompleteLine: a main line that a limit cut short is replaced by one
// of the mate's full length read from the proof's tables, starting with
// the key found; a full line is left alone.
func TestCompleteLine(t *testing.T) {
	pos := board.MustParseFEN("b3kqr1/2p1p2K/2R2b2/1Q6/p1p5/1p6/8/8 w - - 0 1")
	sv := New(16)
	if res := sv.Solve(context.Background(), pos, Options{MaxMate: 9, Want: WantMate, NoKeys: true}); res.Status != StatusMate || res.Mate != 9 {
		t.Fatalf("%v mate %d", res.Status, res.Mate)
	}
	key, err := pos.ParseUCI("c6c7")
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range []Result{
		{Status: StatusMate, Mate: 9, Keys: []board.Move{key}, Lines: [][]board.Move{{key}}, Partial: true},
		{Status: StatusMate, Mate: 9, Keys: []board.Move{key}, Partial: true},
		{Status: StatusMate, Mate: 9, Partial: true},
	} {
		completeLine(testSearcher(sv), pos, &res)
		if len(res.Lines) != 1 || len(res.Lines[0]) != 17 || res.Lines[0][0] != key || !checkmates(pos, res.Lines[0]) || len(res.Keys) != 1 || res.Keys[0] != key {
			t.Fatalf("keys %v lines %v: want a 17-ply mating line from c6c7", ucis(res.Keys), res.Lines)
		}
		full := slices.Clone(res.Lines[0])
		completeLine(testSearcher(sv), pos, &res)
		if !slices.Equal(res.Lines[0], full) {
			t.Fatalf("a full line was replaced")
		}
	}
}

// TestTableLineWithoutTable reads a main line from the proof-number
// search's table alone, as when the alpha-beta table no longer holds the
// line's defences: the defender's replies come from that table's proofs,
// and the last three plies, which it leaves to the alpha-beta search, from
// a plain search.
func TestTableLineWithoutTable(t *testing.T) {
	pos := board.MustParseFEN("3r2k1/p1q4p/1p1pNR2/8/2P3r1/1P6/P4Qb1/5R1K w - - 0 1")
	sv := New(16)
	if res := sv.Solve(context.Background(), pos, Options{MaxMate: 9, Want: WantMate, NoKeys: true}); res.Status != StatusMate || res.Mate != 9 || res.MateWithin != 9 {
		t.Fatalf("%v mate %d within %d: want a mate in 9 proved by the proof-number search", res.Status, res.Mate, res.MateWithin)
	}
	sv.tt = NewTable(1) // the alpha-beta table forgotten
	key, err := pos.ParseUCI("f2g2")
	if err != nil {
		t.Fatal(err)
	}
	child := pos
	child.Play(key)
	line := testSearcher(sv).tableLine(child, 16)
	if len(line) != 16 || !checkmates(child, line) {
		t.Fatalf("line %v after f2g2: want 16 plies ending in mate", ucis(line))
	}
}

func TestBruteMates(t *testing.T) {
	tests := []struct {
		fen          string
		plies        int
		mates, mated bool
	}{
		{"6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", 1, true, false},
		{"k7/8/1K6/8/8/8/8/7R b - - 0 1", 2, false, true},       // Kb8, then Rh8#
		{"6k1/5ppp/8/8/8/8/8/4R1K1 b - - 0 1", 2, false, false}, // h6 or g6 makes a flight
		{"R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", 0, false, true},
		{"8/8/8/8/8/5k2/8/5K2 w - - 0 1", 3, false, false},
		{"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1", 1, true, false}, // Qxf7#
		{"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1", 3, true, false},
	}
	s := testSearcher(New(1))
	for _, tt := range tests {
		pos := board.MustParseFEN(tt.fen)
		if tt.plies%2 == 1 {
			if got := s.bruteMates(&pos, tt.plies); got != tt.mates {
				t.Errorf("%s: bruteMates(%d) = %v, want %v", tt.fen, tt.plies, got, tt.mates)
			}
			continue
		}
		if got := s.bruteMated(&pos, tt.plies); got != tt.mated {
			t.Errorf("%s: bruteMated(%d) = %v, want %v", tt.fen, tt.plies, got, tt.mated)
		}
	}
}
