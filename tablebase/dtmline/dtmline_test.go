package dtmline

import (
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// fixed is a prober that gives every position the same value.
type fixed struct {
	mate int
	ok   bool
}

func (f fixed) ProbeDTM(*board.Position) (int, bool) { return f.mate, f.ok }

func position(t *testing.T, fen string) board.Position {
	t.Helper()
	pos, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return pos
}

// TestMoveValue: the child's value from its side to move, turned into the
// value of the move for the side that played it.
func TestMoveValue(t *testing.T) {
	const quiet = "8/8/8/4k3/8/8/8/4K2R b K - 0 1"
	for _, c := range []struct {
		name, fen string
		probe     fixed
		want      problem.Mate
		ok        bool
	}{
		{"checkmate is mate in one", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", fixed{0, false}, 1, true},
		{"stalemate is no mate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", fixed{5, true}, 0, true},
		{"child mates in 3: the mover is mated in 3", quiet, fixed{3, true}, -3, true},
		{"child mated in 3: the mover mates in 4", quiet, fixed{-3, true}, 4, true},
		{"no mate stays no mate", quiet, fixed{0, true}, 0, true},
		{"no answer", quiet, fixed{0, false}, 0, false},
	} {
		pos := position(t, c.fen)
		got, ok := MoveValue(c.probe, &pos)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: MoveValue = %d, %v; want %d, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestBetter: a quicker mate, then a longer one, then no mate, then the
// longest defence, then the quickest loss.
func TestBetter(t *testing.T) {
	order := []problem.Mate{1, 2, 30, 0, -40, -3, -1}
	for i, m := range order {
		for j, o := range order {
			if got, want := Better(m, o), i < j; got != want {
				t.Errorf("Better(%d, %d) = %v, want %v", m, o, got, want)
			}
		}
	}
}

// TestLineFrom: a mate in one ends the line at once; a prober that stops
// answering ends it unproved.
func TestLineFrom(t *testing.T) {
	pos := position(t, "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")
	mate, err := pos.ParseUCI("b1b8")
	if err != nil {
		t.Fatal(err)
	}
	if line, ok := LineFrom(fixed{0, false}, pos, mate); !ok || len(line) != 1 {
		t.Errorf("mate in one: line %v, ok %v", line, ok)
	}
	quiet, err := pos.ParseUCI("b1b2")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := LineFrom(fixed{0, false}, pos, quiet); ok {
		t.Error("a line the tables do not answer was proved")
	}
}
