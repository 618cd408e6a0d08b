package dtm

import (
	"testing"

	"mateline.dev/mateline/board"
)

// TestBeforeLongest checks the longest mates a value holds: mated in 126
// moves after the move is a mate in 127 before it; mated in 127 would be
// a mate in 128, which fails rather than wrap to another value.
func TestBeforeLongest(t *testing.T) {
	if v, err := lossIn(maxMoves - 1).Before(); err != nil || v != winIn(maxMoves) || v != 255 {
		t.Errorf("mated in %d before: %v %v, want a mate in %d", maxMoves-1, v, err, maxMoves)
	}
	if v, err := lossIn(maxMoves).Before(); err != errTooLong {
		t.Errorf("mated in %d before: %v %v, want errTooLong", maxMoves, v, err)
	}
	if v, err := winIn(maxMoves).Before(); err != nil || v != lossIn(maxMoves) {
		t.Errorf("a mate in %d before: %v %v", maxMoves, v, err)
	}
	if got := fromPlies(2 * maxMoves); got != lossIn(maxMoves) {
		t.Errorf("fromPlies(%d) = %v", 2*maxMoves, got)
	}
}

// TestValueOfTooLong checks a position with an en-passant right whose
// capture leads to a position mated in maxMoves: a mate one move too long
// to store. It is an error only when no quicker mate is at hand.
func TestValueOfTooLong(t *testing.T) {
	pos, err := board.ParseFEN("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
	if err != nil {
		t.Fatal(err)
	}
	nd, _ := nodeOf(&pos)
	for _, c := range []struct {
		plain, want Value
		err         error
	}{
		{Draw, Draw, errTooLong},      // exd6 would mate in 128
		{lossIn(3), Draw, errTooLong}, // so would it rather than lose
		{winIn(5), winIn(5), nil},     // a quicker mate: exd6 does not matter
		{winIn(maxMoves), winIn(maxMoves), nil},
	} {
		base := func(n *node) (Value, error) {
			if n.n == 3 { // after exd6
				return lossIn(maxMoves), nil
			}
			return c.plain, nil
		}
		v, err := valueOf(&nd, base, new(epScratch))
		if v != c.want || err != c.err {
			t.Errorf("plain %v: %v %v, want %v %v", c.plain, v, err, c.want, c.err)
		}
	}
}
