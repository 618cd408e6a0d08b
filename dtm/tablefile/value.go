package tablefile

import "fmt"

// Value is one table entry, the distance to mate with best play from the
// side to move's point of view, in one byte: 0 no forced mate (a draw
// with best play), 1..128 mated in Value-1 moves (1: checkmated now),
// 129..255 mates in Value-128 moves. Longer mates (no ending of five men
// has one) cannot be stored, and a build that meets one fails.
type Value uint8

// Draw is the value of a position where neither side can force mate.
const Draw Value = 0

const MaxMoves = 127

// WinIn is the value of a mate in n moves by the side to move.
func WinIn(n int) Value { return Value(128 + n) }

// LossIn is the value of being mated in n moves.
func LossIn(n int) Value { return Value(1 + n) }

// FromPlies is the value of a mate that ends plies from now: odd by the
// side to move, even of it.
func FromPlies(p int) Value {
	if p%2 == 1 {
		return WinIn((p + 1) / 2)
	}
	return LossIn(p / 2)
}

// Win reports whether the side to move mates.
func (v Value) Win() bool { return v > 128 }

// Loss reports whether the side to move is mated (now or later).
func (v Value) Loss() bool { return v >= 1 && v <= 128 }

// Moves is the mate's length in moves of the side that mates (0 for a
// draw, and for a side checkmated now).
func (v Value) Moves() int {
	switch {
	case v.Win():
		return int(v) - 128
	case v.Loss():
		return int(v) - 1
	}
	return 0
}

// Plies counts the half-moves to mate: 2N-1 for a mate in N, 2N for mated
// in N, -1 for a draw.
func (v Value) Plies() int { return int(pliesTable[v]) }

// pliesTable[v] is v.Plies() (a build asks it of millions of values).
var pliesTable = func() (t [256]int16) {
	for i := range t {
		switch v := Value(i); {
		case v.Win():
			t[i] = int16(2*v.Moves() - 1)
		case v.Loss():
			t[i] = int16(2 * v.Moves())
		default:
			t[i] = -1
		}
	}
	return t
}()

// Signed is the distance in signed moves, our sign rule: +N the side to
// move mates in N, -N it is mated in N, 0 no forced mate (and a side
// checkmated now, which Loss tells apart).
func (v Value) Signed() int {
	if v.Loss() {
		return -v.Moves()
	}
	return v.Moves()
}

// String writes "+N", "-N" or "0" ("-0" when checkmated).
func (v Value) String() string {
	switch {
	case v.Win():
		return fmt.Sprintf("+%d", v.Moves())
	case v.Loss():
		return fmt.Sprintf("-%d", v.Moves())
	}
	return "0"
}

// Before is the value for the side that moved into a position of value v:
// mated in N there is a mate in N+1 here, a mate in N there is mated in N
// here. Mated in maxMoves there is a mate no value holds: Before fails
// with errTooLong then (no ending of five men has one).
func (v Value) Before() (Value, error) {
	switch {
	case v.Loss():
		if v.Moves() >= MaxMoves {
			return Draw, ErrTooLong
		}
		return WinIn(v.Moves() + 1), nil
	case v.Win():
		return LossIn(v.Moves()), nil
	}
	return Draw, nil
}

// ErrTooLong is a mate longer than a value holds.
var ErrTooLong = fmt.Errorf("a mate longer than %d moves", MaxMoves)

// BestMove keeps the best value of a position's moves, each given as the
// value after it. A move that would mate in maxMoves+1 counts as a draw
// (worse than any mate a value holds, better than a loss) and is
// remembered in long.
type BestMove struct {
	V          Value
	Have, Long bool
}

func (b *BestMove) Add(after Value) {
	v := beforeTable[after]
	if after == LossIn(MaxMoves) {
		b.Long = true // (v is Draw)
	}
	if !b.Have || scoreTable[v] > scoreTable[b.V] {
		b.V, b.Have = v, true
	}
}

// Merge takes c's best into b, as if its moves were added to b.
func (b *BestMove) Merge(c *BestMove) {
	b.Long = b.Long || c.Long
	if c.Have && (!b.Have || scoreTable[c.V] > scoreTable[b.V]) {
		b.V, b.Have = c.V, true
	}
}

// beforeTable[v] is v.Before() (Draw for a mate too long to store), and
// scoreTable[v] is v.score(): the set-up of a build adds a move's value
// hundreds of millions of times.
var (
	beforeTable [256]Value
	scoreTable  [256]int16
)

func init() {
	for v := 0; v < 256; v++ {
		beforeTable[v], _ = Value(v).Before()
		scoreTable[v] = int16(Value(v).score())
	}
}

// Value is the best Value, or errTooLong when a move mates too late to
// store and no other move mates.
func (b *BestMove) Value() (Value, error) {
	if b.Long && !b.V.Win() {
		return Draw, ErrTooLong
	}
	return b.V, nil
}

// score orders values for the side to move: a quicker mate is better, a
// slower loss is better than a quicker one, a draw lies between.
func (v Value) score() int {
	switch {
	case v.Win():
		return 1000 - v.Moves()
	case v.Loss():
		return -1000 + v.Moves()
	}
	return 0
}

// Better reports whether v is better than w for the side to move.
func (v Value) Better(w Value) bool { return v.score() > w.score() }

// Sign is 1 for a win of the side to move, -1 for a loss, 0 for a draw.
func (v Value) Sign() int {
	switch {
	case v.Win():
		return 1
	case v.Loss():
		return -1
	}
	return 0
}
