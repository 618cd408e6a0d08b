package dtm

import (
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// TestBeforeLongest checks the longest mates a value holds: mated in 126
// moves after the move is a mate in 127 before it; mated in 127 would be
// a mate in 128, which fails rather than wrap to another value.
func TestBeforeLongest(t *testing.T) {
	if v, err := tablefile.LossIn(tablefile.MaxMoves - 1).Before(); err != nil || v != tablefile.WinIn(tablefile.MaxMoves) || v != 255 {
		t.Errorf("mated in %d before: %v %v, want a mate in %d", tablefile.MaxMoves-1, v, err, tablefile.MaxMoves)
	}
	if v, err := tablefile.LossIn(tablefile.MaxMoves).Before(); err != tablefile.ErrTooLong {
		t.Errorf("mated in %d before: %v %v, want errTooLong", tablefile.MaxMoves, v, err)
	}
	if v, err := tablefile.WinIn(tablefile.MaxMoves).Before(); err != nil || v != tablefile.LossIn(tablefile.MaxMoves) {
		t.Errorf("a mate in %d before: %v %v", tablefile.MaxMoves, v, err)
	}
	if got := tablefile.FromPlies(2 * tablefile.MaxMoves); got != tablefile.LossIn(tablefile.MaxMoves) {
		t.Errorf("fromPlies(%d) = %v", 2*tablefile.MaxMoves, got)
	}
}

// TestValueOfLong checks a position with an en-passant right whose
// capture leads to a position mated in maxMoves: a mate one move longer
// than a byte holds, read exactly (a value of two bytes), and left alone
// when a quicker mate is at hand.
func TestValueOfLong(t *testing.T) {
	pos, err := board.ParseFEN("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
	if err != nil {
		t.Fatal(err)
	}
	nd, _ := tablefile.NodeOf(&pos)
	long := tablefile.WinIn(tablefile.MaxMoves + 1)
	for _, c := range []struct {
		plain, want tablefile.Value
		err         error
	}{
		{tablefile.Draw, long, nil},                   // exd6 mates in 128
		{tablefile.LossIn(3), long, nil},              // rather than lose
		{tablefile.WinIn(5), tablefile.WinIn(5), nil}, // a quicker mate: exd6 does not matter
		{tablefile.WinIn(tablefile.MaxMoves), tablefile.WinIn(tablefile.MaxMoves), nil},
	} {
		base := func(n *tablefile.Node) (tablefile.Value, error) {
			if n.N == 3 { // after exd6
				return tablefile.LossIn(tablefile.MaxMoves), nil
			}
			return c.plain, nil
		}
		v, err := tablefile.ValueOf(&nd, base, new(tablefile.EPScratch))
		if v != c.want || err != c.err {
			t.Errorf("plain %v: %v %v, want %v %v", c.plain, v, err, c.want, c.err)
		}
	}
}
