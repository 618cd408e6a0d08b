package tablefile

import "fmt"

// Value is one table entry, the distance to mate with best play from the
// side to move's point of view: 0 no forced mate (a draw with best play),
// 1..128 mated in Value-1 moves (1: checkmated now), 129..255 mates in
// Value-128 moves. A value below 256 is stored as one byte, the values
// of every ending of five men and of most of six. Longer mates (KRNvKNN's
// 262 moves) take two bytes (a wide table, ZFormatWide): from 256 on,
// even values mate in 128+(Value-256)/2 moves, odd ones are mated in as
// many.
type Value uint16

// Draw is the value of a position where neither side can force mate.
const Draw Value = 0

// MaxMoves is the longest mate a one-byte value holds; the generator
// that keeps values a byte a position (the tests' reference) refuses a
// longer one (ErrTooLong).
const MaxMoves = 127

// MaxWideMoves is the longest mate a build follows (two-byte values):
// the longest known mate of seven men is 549 moves.
const MaxWideMoves = 1000

// WinIn is the value of a mate in n moves by the side to move.
func WinIn(n int) Value {
	if n > MaxMoves {
		return Value(256 + 2*(n-MaxMoves-1))
	}
	return Value(128 + n)
}

// LossIn is the value of being mated in n moves.
func LossIn(n int) Value {
	if n > MaxMoves {
		return Value(257 + 2*(n-MaxMoves-1))
	}
	return Value(1 + n)
}

// FromPlies is the value of a mate that ends plies from now: odd by the
// side to move, even of it.
func FromPlies(p int) Value {
	if p%2 == 1 {
		return WinIn((p + 1) / 2)
	}
	return LossIn(p / 2)
}

// Wide reports whether v takes two bytes (a mate of more than MaxMoves).
func (v Value) Wide() bool { return v > 255 }

// Win reports whether the side to move mates.
func (v Value) Win() bool { return v > 128 && (v < 256 || v&1 == 0) }

// Loss reports whether the side to move is mated (now or later).
func (v Value) Loss() bool { return v >= 1 && (v <= 128 || v >= 256 && v&1 == 1) }

// Moves is the mate's length in moves of the side that mates (0 for a
// draw, and for a side checkmated now).
func (v Value) Moves() int {
	switch {
	case v.Wide():
		return MaxMoves + 1 + int(v-256)/2
	case v.Win():
		return int(v) - 128
	case v.Loss():
		return int(v) - 1
	}
	return 0
}

// Plies counts the half-moves to mate: 2N-1 for a mate in N, 2N for mated
// in N, -1 for a draw.
func (v Value) Plies() int {
	if v.Wide() {
		if v.Win() {
			return 2*v.Moves() - 1
		}
		return 2 * v.Moves()
	}
	return int(pliesTable[v])
}

// pliesTable[v] is v.Plies() of a one-byte value (a build asks it of
// millions of values).
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
// here. Mated in MaxMoves there is a mate no one-byte value holds: Before
// fails with ErrTooLong then (no ending of five men has one); BeforeWide
// goes on to MaxWideMoves.
func (v Value) Before() (Value, error) {
	if v.Loss() && v.Moves() >= MaxMoves {
		return Draw, ErrTooLong
	}
	return v.BeforeWide()
}

// BeforeWide is Before for values of two bytes: it fails only past
// MaxWideMoves.
func (v Value) BeforeWide() (Value, error) {
	switch {
	case v.Loss():
		if v.Moves() >= MaxWideMoves {
			return Draw, ErrTooLong
		}
		return WinIn(v.Moves() + 1), nil
	case v.Win():
		return LossIn(v.Moves()), nil
	}
	return Draw, nil
}

// ErrTooLong is a mate longer than a value holds: MaxMoves for the
// generator that keeps a byte a value, MaxWideMoves for the others.
var ErrTooLong = fmt.Errorf("a mate longer than a value holds (%d moves in a byte, %d in two)", MaxMoves, MaxWideMoves)

// BestMove keeps the best value of a position's moves, each given as the
// value after it. With Wide it values every move exactly, up to
// MaxWideMoves (a probe's best, a verification's, a build by rows that
// keeps two bytes where a value needs them). Without it, for the
// generators that keep a byte a value, a move that would mate or be
// mated in more than MaxMoves counts as a draw (worse than any mate a
// byte holds, better than any loss it holds) and is remembered in Long:
// such a position must end as a win, or its build fails (ErrTooLong).
type BestMove struct {
	V          Value
	Have, Long bool
	// Wide values every move exactly, up to MaxWideMoves
	Wide bool
}

func (b *BestMove) Add(after Value) {
	if after.Wide() || after == LossIn(MaxMoves) {
		b.addLong(after)
		return
	}
	v := beforeTable[after]
	if !b.Have || scoreTable[v] > fastScore(b.V) {
		b.V, b.Have = v, true
	}
}

// addLong adds a move whose value before takes two bytes: exactly with
// Wide, else as a draw remembered in Long. Past MaxWideMoves it is Long
// either way.
func (b *BestMove) addLong(after Value) {
	v, err := after.BeforeWide()
	switch {
	case err != nil:
		b.Long = true
		return
	case !b.Wide && v.Wide():
		b.Long, v = true, Draw
	}
	if !b.Have || v.score() > int(fastScore(b.V)) {
		b.V, b.Have = v, true
	}
}

// Merge takes c's best into b, as if its moves were added to b.
func (b *BestMove) Merge(c *BestMove) {
	b.Long = b.Long || c.Long
	if c.Have && (!b.Have || fastScore(c.V) > fastScore(b.V)) {
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

// fastScore is v.score(), from scoreTable for a one-byte value.
func fastScore(v Value) int16 {
	if v < 256 {
		return scoreTable[v]
	}
	return int16(v.score())
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
		return 2*MaxWideMoves - v.Moves()
	case v.Loss():
		return -2*MaxWideMoves + v.Moves()
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
