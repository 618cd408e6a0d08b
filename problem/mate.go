package problem

import (
	"fmt"

	"mateline.dev/mateline/board"
)

// MaxMateMoves is the longest mate, in moves, that a claim may state and
// a search may look for.
const MaxMateMoves = 123

// Mate is a mate length in signed full moves, seen from the side to move:
// +N it mates in N moves (2N-1 plies), -N it is mated in N moves (2N
// plies), 0 no mate. It is the one place where moves, plies and the side
// that mates are converted into each other.
type Mate int

// MateInPlies is the mate that ends plies from the side to move's turn:
// an odd count is a mate by the side to move, an even one a mate of it
// (0 plies: it is checkmated now, which has no Mate value and gives 0).
func MateInPlies(plies int) Mate {
	if plies%2 == 1 {
		return Mate((plies + 1) / 2)
	}
	return Mate(-plies / 2)
}

// Moves is the length in moves of the side that mates.
func (m Mate) Moves() int {
	if m < 0 {
		return int(-m)
	}
	return int(m)
}

// Plies is the length in plies from the side to move's turn to the mate:
// 2N-1 for a mate in N, 2N for mated in N, 0 for no mate.
func (m Mate) Plies() int {
	switch {
	case m > 0:
		return 2*int(m) - 1
	case m < 0:
		return -2 * int(m)
	}
	return 0
}

// Winner is the side that mates, when toMove is to move: toMove for a
// positive mate, the other side for a negative one (and for 0, which has
// no winner, the other side too: callers ask only of a mate).
func (m Mate) Winner(toMove board.Color) board.Color {
	if m > 0 {
		return toMove
	}
	return toMove.Other()
}

// After is the mate the opponent faces after the side to move plays a move
// that keeps it on schedule: mate in N becomes mated in N-1 (0 after a
// mating move), mated in N becomes mate in N.
func (m Mate) After() Mate {
	if m > 0 {
		return -(m - 1)
	}
	return -m
}

// Shorter is the mate one move shorter, of the same side: mate in N-1, or
// mated in N-1 (0 for a mate in 1).
func (m Mate) Shorter() Mate {
	switch {
	case m > 0:
		return m - 1
	case m < 0:
		return m + 1
	}
	return 0
}

// String writes the mate as problemists and EPD do: "#3" for a mate in 3,
// "#-2" for mated in 2, "-" for none.
func (m Mate) String() string {
	if m == 0 {
		return "-"
	}
	return fmt.Sprintf("#%d", int(m))
}

// Describe writes the mate in words: "mate in 3", "mated in 2", "no mate".
func (m Mate) Describe() string {
	switch {
	case m > 0:
		return fmt.Sprintf("mate in %d", int(m))
	case m < 0:
		return fmt.Sprintf("mated in %d", int(-m))
	}
	return "no mate"
}
