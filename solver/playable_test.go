package solver

import (
	"testing"

	"mateline.dev/mateline/board"
)

// TestPlayableMove: without a proved mate the move played is the book's
// first legal one, else a sound move of a one-move look.
func TestPlayableMove(t *testing.T) {
	uci := func(pos board.Position, s string) board.Move {
		m, err := pos.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	start := board.StartPosition()
	cases := []struct {
		name, fen string
		book      []string
		root      []string
		want      []string // any of these
	}{
		{"the book's most weighted move", "", []string{"e2e4", "d2d4"}, nil, []string{"e2e4"}},
		{"the book within searchmoves", "", []string{"e2e4", "d2d4"}, []string{"d2d4", "g1f3"}, []string{"d2d4"}},
		{"no book: a central pawn, not b1a3", "", nil, nil, []string{"d2d4", "e2e4"}},
		{"mate in one", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", nil, nil, []string{"a1a8"}},
		{"takes the queen", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", nil, nil, []string{"d2d5"}},
		{"does not hang the queen", "4k3/8/8/8/8/2p5/8/Q3K3 w - - 0 1", nil, nil, []string{"a1c3"}},
		{"does not stalemate", "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", nil, nil, []string{"f7g7", "f7f8", "f7e8", "f7h7"}},
	}
	for _, tc := range cases {
		pos := start
		if tc.fen != "" {
			pos = board.MustParseFEN(tc.fen)
		}
		var book, root []board.Move
		for _, s := range tc.book {
			book = append(book, uci(pos, s))
		}
		for _, s := range tc.root {
			root = append(root, uci(pos, s))
		}
		got := PlayableMove(&pos, book, root).UCI()
		ok := false
		for _, w := range tc.want {
			ok = ok || got == w
		}
		if !ok {
			t.Errorf("%s: %s, want one of %v", tc.name, got, tc.want)
		}
	}
	if m := PlayableMove(ptr(board.MustParseFEN("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")), nil, nil); m != board.NoMove {
		t.Errorf("a stalemated side plays %v", m)
	}
}

func ptr(p board.Position) *board.Position { return &p }
