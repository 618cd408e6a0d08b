package solver

import (
	"context"
	"slices"
	"testing"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

func ucis(ms []board.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.UCI()
	}
	return out
}

// knownMates are positions with hand-checked answers: mate lengths, and
// every key where keys is given.
var knownMates = []struct {
	name string
	fen  string
	mate problem.Mate
	keys []string // every key, sorted; nil to skip the check
}{
	{"back rank", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, []string{"a1a8"}},
	{"two rooks cook", "6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1", 1, []string{"a1a8", "e1e8"}},
	{"opera game", "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 0 1", 2, []string{"b3b8"}},
	{"opera defence", "1Q2kb1r/p2n1ppp/4q3/4p1B1/4P3/8/PPP2PPP/2KR4 b k - 0 1", -1, []string{"d7b8"}},
	{"philidor", "r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1", 4, []string{"g5f7"}},
	{"kqk 3", "8/8/8/8/k7/8/2K5/7Q w - - 0 1", 3, nil},
	{"krk 4", "8/1k1K4/8/8/6R1/8/8/8 w - - 0 1", 4, nil},
	{"castling mates", "8/8/8/8/8/8/R7/R3K2k w Q - 0 1", 1, []string{"e1c1"}},
	{"en passant mates", "8/8/8/2k5/1pP5/1K1P4/8/8 b - c3 0 1", 0, nil},
	{"promotion", "8/5P1k/6pp/8/8/8/8/6RK w - - 0 1", 4, nil},            // Stockfish: mate 4
	{"underpromotion line", "7k/5Kp1/6Pp/8/8/8/4p3/8 b - - 0 1", 0, nil}, // Stockfish: mate 7 after e1=R
	{"mated in 2", "8/1Q6/8/8/k7/8/2K5/8 b - - 0 1", -2, nil},
	{"stalemate trap", "7k/5Q2/8/6K1/8/8/8/8 w - - 0 1", 3, nil}, // Stockfish: mate 3
}

func TestKnownMates(t *testing.T) {
	for _, tc := range knownMates {
		t.Run(tc.name, func(t *testing.T) {
			pos := board.MustParseFEN(tc.fen)
			res := New(8).Solve(context.Background(), pos, Options{MaxMate: 5, AllKeys: true})
			want := StatusMate
			if tc.mate == 0 {
				want = StatusCapped
			}
			if res.Status != want || res.Mate != tc.mate {
				t.Fatalf("got %v mate %d, want %v mate %d", res.Status, res.Mate, want, tc.mate)
			}
			if tc.keys != nil {
				got := ucis(res.Keys)
				slices.Sort(got)
				if !slices.Equal(got, tc.keys) {
					t.Errorf("keys %v, want %v", got, tc.keys)
				}
			}
			if tc.mate != 0 {
				checkLine(t, pos, res)
			}
		})
	}
}

// checkLine replays the main line with CheckLine: every move legal,
// checkmate after exactly the reported number of plies, no draw claim.
func checkLine(t *testing.T, pos board.Position, res Result) {
	t.Helper()
	if err := CheckLine(pos, res.Mate, res.PV); err != nil {
		t.Fatalf("line %v: %v", ucis(res.PV), err)
	}
}

func TestLimitIsNeverNoMate(t *testing.T) {
	// Mate in 6; a 2,000-node budget cannot prove it.
	pos := board.MustParseFEN("8/8/1k6/8/1K6/8/8/7R w - - 0 1")
	res := New(8).Solve(context.Background(), pos, Options{MaxMate: 10, Nodes: 2000})
	if res.Status != StatusLimit || res.Mate != 0 {
		t.Fatalf("got %v mate %d, want limit", res.Status, res.Mate)
	}
	if res.Depth >= 6 {
		t.Errorf("depth %d claims more than was proved", res.Depth)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res = New(8).Solve(ctx, pos, Options{MaxMate: 10})
	if res.Status != StatusLimit {
		t.Errorf("cancelled solve: %v", res.Status)
	}
	res = New(8).Solve(context.Background(), pos, Options{MaxMate: 10, Timeout: time.Nanosecond})
	if res.Status != StatusLimit {
		t.Errorf("timed-out solve: %v", res.Status)
	}
}

func TestInsufficientMaterialIsNoMate(t *testing.T) {
	pos := board.MustParseFEN("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1")
	res := New(1).Solve(context.Background(), pos, Options{MaxMate: 30})
	if res.Status != StatusNoMate || res.Nodes > 0 {
		t.Errorf("got %v after %d nodes, want no-mate at once", res.Status, res.Nodes)
	}
}

func TestRule50(t *testing.T) {
	// Mate in 1 is always there; with the clock at 99 it still counts
	// (the mating move is made before the 100th ply), and a mate in 2
	// needs two more plies than the rule leaves.
	m1 := board.MustParseFEN("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80")
	if r := New(1).Solve(context.Background(), m1, Options{MaxMate: 3, Rule50: true}); r.Mate != 1 {
		t.Errorf("mate in 1 at clock 99: %v %d", r.Status, r.Mate)
	}
	m4 := board.MustParseFEN("8/1k1K4/8/8/6R1/8/8/8 w - - 94 80")
	if r := New(1).Solve(context.Background(), m4, Options{MaxMate: 5, Rule50: true}); r.Status != StatusCapped {
		t.Errorf("mate in 4 at clock 94 with --rule50: %v %d", r.Status, r.Mate)
	}
	if r := New(1).Solve(context.Background(), m4, Options{MaxMate: 5}); r.Mate != 4 {
		t.Errorf("mate in 4 at clock 94 without --rule50: %v %d", r.Status, r.Mate)
	}
}

func TestTableStaysWithinSize(t *testing.T) {
	for _, mib := range []int{1, 3, 64} {
		if b := NewTable(mib).Bytes(); b > mib<<20 || b < mib<<20-64 {
			t.Errorf("%d MiB table takes %d bytes", mib, b)
		}
		// A solver's two tables share --hash.
		sv := New(mib)
		if b := sv.tt.Bytes() + sv.pn.bytes(); b > mib<<20 || b < mib<<20-200 {
			t.Errorf("%d MiB solver takes %d bytes in its tables", mib, b)
		}
	}
}

// TestPartialKeys: a budget that covers the proof but not the enumeration
// of every key and the line gives the proved mate, marked partial, never
// a key list passed off as complete.
func TestPartialKeys(t *testing.T) {
	pos := board.MustParseFEN("8/8/8/8/8/1k6/8/1K5Q w - - 0 1") // mate in 5, four keys
	proof := New(8).Solve(context.Background(), pos, Options{MaxMate: 5, NoKeys: true})
	full := New(8).Solve(context.Background(), pos, Options{MaxMate: 5, AllKeys: true})
	if proof.Mate != 5 || full.Mate != 5 || len(full.Keys) != 4 || full.Partial {
		t.Fatalf("proof %d, full %d with keys %v", proof.Mate, full.Mate, ucis(full.Keys))
	}
	// Once the mate is proved the node limit keeps a twentieth for the
	// keys and the line, and the proof comes just before the rest is
	// spent: the twentieth is not enough for every key. The limit is kept
	// to within a look at the limits.
	limit := (proof.Nodes + 2000) * 20 / 19
	cut := New(8).Solve(context.Background(), pos, Options{MaxMate: 5, AllKeys: true, Nodes: limit})
	if cut.Nodes > limit+checkInterval {
		t.Errorf("limit %d nodes, spent %d", limit, cut.Nodes)
	}
	if cut.Status != StatusMate || cut.Mate != 5 || !cut.Partial || cut.AllKeys || cut.Nodes >= full.Nodes {
		t.Errorf("cut short: %v %d partial %v keys %v (every one %v) after %d nodes", cut.Status, cut.Mate, cut.Partial, ucis(cut.Keys), cut.AllKeys, cut.Nodes)
	}
	if !full.AllKeys {
		t.Errorf("every key proved, but AllKeys is false")
	}
}

// fakeBook suggests fixed moves at one position.
type fakeBook struct {
	key   uint64
	moves []board.Move
}

func (b fakeBook) BookMoves(pos *board.Position) []board.Move {
	if pos.Key() == b.key {
		return b.moves
	}
	return nil
}

// TestBookOrdersOnly: a book changes what is tried first, never the proof.
func TestBookOrdersOnly(t *testing.T) {
	pos := board.MustParseFEN("8/8/8/8/8/1k6/8/1K5Q w - - 0 1")
	var l board.MoveList
	pos.LegalMoves(&l)
	bad := l.Moves[l.N-1] // some move, probably not a key
	plain := New(8).Solve(context.Background(), pos, Options{MaxMate: 6, AllKeys: true})
	booked := New(8).Solve(context.Background(), pos, Options{MaxMate: 6, AllKeys: true, Book: fakeBook{pos.Key(), []board.Move{bad}}})
	if plain.Mate != booked.Mate || len(plain.Keys) != len(booked.Keys) {
		t.Errorf("book changed the result: %d %v vs %d %v", plain.Mate, ucis(plain.Keys), booked.Mate, ucis(booked.Keys))
	}
	if len(booked.Book) != 1 || booked.Book[0] != bad {
		t.Errorf("result book moves %v", ucis(booked.Book))
	}
}

// TestRootMoves: searching only some root moves gives the answer of that
// choice, and leaves nothing in the tables that changes the next solve.
func TestRootMoves(t *testing.T) {
	cook := board.MustParseFEN("6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1") // Ra8# and Re8#
	mated := board.MustParseFEN("8/1Q6/8/8/k7/8/2K5/8 b - - 0 1")     // mated in 2 after Ka5, in 1 after Ka3
	cases := []struct {
		name  string
		pos   board.Position
		moves []string
		mate  problem.Mate
		keys  []string
	}{
		{"one of two keys", cook, []string{"a1a8"}, 1, []string{"a1a8"}},
		{"the other key and a quiet move", cook, []string{"g1f1", "e1e8"}, 1, []string{"e1e8"}},
		{"no key among them", cook, []string{"g1f1", "g1h1"}, 0, nil},
		{"no legal move among them: all are searched", cook, []string{"g8g7", "a1a9"}, 1, []string{"a1a8", "e1e8"}},
		{"mated: the best defence only", mated, []string{"a4a5"}, -2, []string{"a4a5"}},
		{"mated: the best defence left out", mated, []string{"a4a3"}, -1, []string{"a4a3"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var moves []board.Move
			for _, u := range tc.moves {
				if m, err := tc.pos.ParseUCI(u); err == nil {
					moves = append(moves, m)
				}
			}
			sv := New(4)
			res := sv.Solve(context.Background(), tc.pos, Options{MaxMate: 3, AllKeys: true, RootMoves: moves})
			if res.Mate != tc.mate {
				t.Fatalf("restricted to %v: %v mate %d, want %d", tc.moves, res.Status, res.Mate, tc.mate)
			}
			if tc.keys != nil && !slices.Equal(ucis(res.Keys), tc.keys) {
				t.Errorf("keys %v, want %v", ucis(res.Keys), tc.keys)
			}
			for _, k := range res.Keys {
				if len(moves) > 0 && !slices.Contains(moves, k) {
					t.Errorf("key %s is not among %v", k, tc.moves)
				}
			}
			if len(res.PV) > 0 {
				checkLine(t, tc.pos, res)
			}
			// The same solver, unrestricted, gives the position's answer.
			plain := sv.Solve(context.Background(), tc.pos, Options{MaxMate: 3, AllKeys: true})
			fresh := New(4).Solve(context.Background(), tc.pos, Options{MaxMate: 3, AllKeys: true})
			if plain.Mate != fresh.Mate || !slices.Equal(ucis(plain.Keys), ucis(fresh.Keys)) {
				t.Errorf("after the restricted solve: mate %d keys %v; a fresh solver: %d %v", plain.Mate, ucis(plain.Keys), fresh.Mate, ucis(fresh.Keys))
			}
		})
	}
}

// TestLines: with Lines 2 each of the two keys gets its own main line.
func TestLines(t *testing.T) {
	pos := board.MustParseFEN("8/8/8/8/8/1k6/8/1K5Q w - - 0 1") // mate in 5, four keys
	res := New(8).Solve(context.Background(), pos, Options{MaxMate: 5, Lines: 2})
	if res.Mate != 5 || len(res.Keys) != 4 || len(res.Lines) != 2 {
		t.Fatalf("mate %d, %d keys, %d lines", res.Mate, len(res.Keys), len(res.Lines))
	}
	for i, line := range res.Lines {
		if line[0] != res.Keys[i] {
			t.Errorf("line %d starts with %s, not key %s", i, line[0], res.Keys[i])
		}
		checkLine(t, pos, Result{Mate: res.Mate, PV: line})
	}
	if !slices.Equal(res.PV, res.Lines[0]) {
		t.Errorf("PV %v is not the first line %v", ucis(res.PV), ucis(res.Lines[0]))
	}
}

// TestProgress: a solve reports each bound it proves, in order.
func TestProgress(t *testing.T) {
	pos := board.MustParseFEN("8/8/8/8/8/1k6/8/1K5Q w - - 0 1") // mate in 5
	var depths []int
	res := New(8).Solve(context.Background(), pos, Options{MaxMate: 6, Progress: func(p Progress) {
		if len(depths) == 0 || depths[len(depths)-1] != p.Depth {
			depths = append(depths, p.Depth)
		}
		if p.Nodes == 0 || p.Hashfull < 0 || p.Hashfull > 1000 {
			t.Errorf("progress %+v", p)
		}
	}})
	if res.Mate != 5 || !slices.Equal(depths, []int{1, 2, 3, 4}) {
		t.Errorf("mate %d, reported depths %v, want 1 2 3 4", res.Mate, depths)
	}
}
