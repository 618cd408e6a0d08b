package stipulation

import (
	"context"
	"slices"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// helpCases are help-play problems that once lost solutions, each with
// what it exercises; the solutions are every line of the exact length
// (Popeye's plain mode counts the shorter ones too).
var helpCases = []struct {
	name, fen, stip string
	count           int      // the solutions
	contains        []string // lines among them, UCI moves joined by spaces
	reference       bool     // small enough to compare with plain enumeration
}{
	{
		// The last budget test shared its answer between moves of the
		// side to be mated that leave the king and its ring alike: Ng6-f8
		// took Ng6-e7's "no", but a man on f8 is a man the g7 pawn can
		// take as it promotes with check (1...Kc5 2.g7 Ng6 3.Qe4 Nf8
		// gxf8=Q#/=B#; Popeye 4.104 gives 59,234 lines, 96 of them
		// shorter).
		name: "capture-promotion on a square just blocked, h#3",
		fen:  "7n/8/1k4P1/b6P/4p3/1R3Q2/8/2K5 b - - 0 1", stip: "h#3", count: 59138,
		contains: []string{"b6c5 g6g7 h8g6 f3e4 g6f8 g7f8q", "b6c5 g6g7 h8g6 f3e4 g6f8 g7f8b"},
	},
	{
		// The budget test took a knight that stands where it checks for
		// one that cannot mate there (its check would be there before
		// the last move), and forgot that it can go and come back: after
		// 1.Kxf7 it refused every square (found by TestShortcutsSound,
		// seed 29757).
		name: "a knight that goes and comes back to mate, h#3",
		fen:  "1k6/5b2/2n1K3/3n4/8/8/8/8 w - - 0 1", stip: "h#3", count: 38,
		contains: []string{"e6f7 c6a5 f7e8 d5f6 e8d8 a5c6", "e6f7 c6a7 f7e8 d5f6 e8d8 a7c6", "e6f7 c6b4 f7e8 d5f6 e8d8 b4c6"},
	},
	{
		// The idle test dropped the queen's moves towards h8: they come
		// no nearer the squares round the mating square, but put a man
		// where the g7 pawn takes as it promotes with mate (found by
		// TestShortcutsSound, seed 122,410).
		name: "a victim brought to the promotion square, ser-h#3",
		fen:  "8/6P1/8/8/7k/5K2/3q4/3r4 b - - 0 1", stip: "ser-h#3", count: 12,
		contains: []string{"d2h6 h6h8 h4h3 g7h8q", "d2h6 h6h8 h4h3 g7h8r"},
	},
	{
		// The fail memo read ahead took the key of the position after
		// 3.f7-f5 without the en-passant square for its key: a position
		// with the same men but no en-passant capture, already found
		// without a solution, so the stalemate by 3...exf6 e.p. was
		// skipped (found by TestShortcutsSound, seed 313,236; Popeye
		// 4.104 gives the same 1,630 lines of full length).
		name: "stalemate by an en-passant capture, h=2.5",
		fen:  "5Q2/5p2/8/4P3/7k/KN6/PQ6/8 w - - 0 1", stip: "h=2.5", count: 1630,
		contains: []string{"b2c3 h4h5 c3g3 f7f5 e5f6", "b2d4 h4h5 f8g7 f7f5 e5f6"},
	},
	{
		name: "capture-promotion on a square just blocked, its last move",
		fen:  "8/6P1/6n1/b1k4P/4Q3/1R6/8/2K5 b - - 0 3", stip: "h#1", count: 2,
		contains: []string{"g6f8 g7f8q", "g6f8 g7f8b"}, reference: true,
	},
}

// TestHelpCases: each case above has its solutions, on one thread and two.
func TestHelpCases(t *testing.T) {
	for _, c := range helpCases {
		st, err := problem.Parse(c.stip)
		if err != nil {
			t.Fatal(err)
		}
		pos := board.MustParseFEN(c.fen)
		for _, threads := range []int{1, 2} {
			res, err := Lines(context.Background(), pos, st, Limits{Threads: threads})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			got := lines(res.Solutions)
			if len(got) != c.count {
				t.Errorf("%s (%d threads): %d solutions, want %d", c.name, threads, len(got), c.count)
			}
			for _, want := range c.contains {
				if !slices.Contains(got, want) {
					t.Errorf("%s (%d threads): %q missing", c.name, threads, want)
				}
			}
			if c.reference {
				var want []string
				refHelp(pos, st.Plies(), nil, &want)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("%s: %q, reference %q", c.name, got, want)
				}
			}
		}
	}
}
