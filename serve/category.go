package serve

import "fmt"

// Category is what a position is worth for its side to move, under the
// 50-move rule, as Lichess's tablebase API names it.
type Category int

// The categories, in the order a mover prefers them for the position
// after its move (the opponent's): a loss first, a win last. Unknown
// stands between a loss and a maybe-loss: pessimistic.
const (
	Loss Category = iota
	Unknown
	SyzygyLoss
	MaybeLoss
	BlessedLoss
	Draw
	CursedWin
	MaybeWin
	SyzygyWin
	Win
)

var categoryNames = [...]string{"loss", "unknown", "syzygy-loss", "maybe-loss", "blessed-loss", "draw",
	"cursed-win", "maybe-win", "syzygy-win", "win"}

func (c Category) String() string { return categoryNames[c] }

// MarshalText writes the category's name.
func (c Category) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a category's name.
func (c *Category) UnmarshalText(b []byte) error {
	for i, n := range categoryNames {
		if n == string(b) {
			*c = Category(i)
			return nil
		}
	}
	return fmt.Errorf("unknown category %q", b)
}

// Neg is the category for the other side.
func (c Category) Neg() Category {
	switch c {
	case Loss:
		return Win
	case SyzygyLoss:
		return SyzygyWin
	case MaybeLoss:
		return MaybeWin
	case BlessedLoss:
		return CursedWin
	case CursedWin:
		return BlessedLoss
	case MaybeWin:
		return MaybeLoss
	case SyzygyWin:
		return SyzygyLoss
	case Win:
		return Loss
	}
	return c // unknown, draw
}

// positive says the side to move wins (in some sense).
func (c Category) positive() bool { return c >= CursedWin }

// dtzCategory is the category a DTZ gives at half-move clock h: the
// distance to the next zeroing move, with the plies already played,
// decides whether a win comes before the 50-move rule. A DTZ beyond 100
// in size is cursed (or blessed) already. A rounded DTZ (from a table of
// halved values) may be one ply short: when that ply crosses the line,
// the category is syzygy-win or syzygy-loss.
func dtzCategory(dtz int, precise bool, h int) Category {
	at := func(d int) Category {
		switch {
		case d == 0:
			return Draw
		case d > 100:
			return CursedWin
		case d > 0:
			return Win
		case d < -100:
			return BlessedLoss
		}
		return Loss
	}
	add := func(d, n int) int {
		if d > 0 {
			return d + n
		}
		if d < 0 {
			return d - n
		}
		return 0
	}
	c := at(add(dtz, h))
	if precise {
		return c
	}
	switch c2 := at(add(dtz, h+1)); {
	case c2 == c:
		return c
	case c == Win:
		return SyzygyWin
	case c == Loss:
		return SyzygyLoss
	}
	return c
}

// dtmCategory is the category a distance to mate gives (in plies: +odd
// the side to move mates, -even it is mated, 0 no mate) when no DTZ is
// known: the mate comes before the 50-move rule can, or nobody knows
// whether a zeroing move on the way saves it.
func dtmCategory(dtm, h int) Category {
	switch {
	case dtm == 0:
		return Draw
	case dtm > 0 && dtm+h <= 100:
		return Win
	case dtm > 0:
		return MaybeWin
	case -dtm+h <= 100:
		return Loss
	}
	return MaybeLoss
}
