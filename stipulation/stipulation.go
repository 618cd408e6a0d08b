// Package stipulation solves the orthodox problem stipulations besides the
// direct mate of package solver: helpmates (h#N, h#N.5) and selfmates
// (s#N), exactly, with every solution.
//
// Roles follow the side to move. In h#N the side to move plays first and
// the other side mates on its N-th move (2N plies); in h#N.5 the side to
// move plays first and mates on its (N+1)-th move (2N+1 plies). In s#N the
// side to move forces the other side to mate it by the other side's N-th
// move. A problem states its stipulation with Black to move first in
// helpmates and White in the others; a reader of problems sets the side to
// move accordingly (Popeye's convention), a FEN's side is used as it is
// (Popeye's HalfDuplex).
package stipulation

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is a stipulation's aim.
type Kind uint8

// The stipulations.
const (
	Direct Kind = iota // #N: the side to move mates
	Help               // h#N: both sides cooperate; the other side mates
	Self               // s#N: the side to move forces the other side to mate it
)

// Stipulation is an aim and a length.
type Stipulation struct {
	Kind  Kind
	Moves int  // N
	Half  bool // h#N.5: half a move more, the mating side starting
}

// MaxMoves bounds N: longer problems are out of the solvers' reach.
const MaxMoves = 30

// Parse reads "#2", "h#3", "h#2.5" or "s#4" (case and spaces ignored).
func Parse(s string) (Stipulation, error) {
	t := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	var st Stipulation
	switch {
	case strings.HasPrefix(t, "h#"):
		st.Kind, t = Help, t[2:]
	case strings.HasPrefix(t, "s#"):
		st.Kind, t = Self, t[2:]
	case strings.HasPrefix(t, "#"):
		st.Kind, t = Direct, t[1:]
	default:
		return st, fmt.Errorf("stipulation %q: want #N, h#N, h#N.5 or s#N", s)
	}
	if rest, ok := strings.CutSuffix(t, ".5"); ok {
		if st.Kind != Help {
			return st, fmt.Errorf("stipulation %q: only helpmates take half a move (h#N.5)", s)
		}
		st.Half, t = true, rest
	}
	n, err := strconv.Atoi(t)
	if err != nil || t == "" || t[0] == '+' || t[0] == '-' {
		return st, fmt.Errorf("stipulation %q: the number of moves is not a whole number", s)
	}
	st.Moves = n
	min := 1
	if st.Half {
		min = 0 // h#0.5: the side to move mates at once
	}
	if n < min || n > MaxMoves {
		return st, fmt.Errorf("stipulation %q: want %d to %d moves", s, min, MaxMoves)
	}
	return st, nil
}

// String writes the stipulation as Parse reads it.
func (st Stipulation) String() string {
	prefix := [...]string{Direct: "#", Help: "h#", Self: "s#"}[st.Kind]
	if st.Half {
		return fmt.Sprintf("%s%d.5", prefix, st.Moves)
	}
	return fmt.Sprintf("%s%d", prefix, st.Moves)
}

// Plies is the length of a full solution in half-moves.
func (st Stipulation) Plies() int {
	if st.Half {
		return 2*st.Moves + 1
	}
	if st.Kind == Direct {
		return 2*st.Moves - 1
	}
	return 2 * st.Moves
}
