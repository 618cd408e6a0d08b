package prune

import (
	"fmt"
	"sync"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/shortcut"
)

// Shortcut is one rule that lets help or series play skip work: each is
// sound (it drops only what has no solution) and each can be switched
// off on its own, to test it against the search without it.
type Shortcut uint8

const (
	// FailMemo: a position found without a solution, with its plies
	// left, is not searched again (stipulation/failtable.go).
	FailMemo Shortcut = iota
	// FailMemoAhead: a child's key is read without playing the move
	// and looked up in the fail memo (failTable.probe).
	FailMemoAhead
	// ChecksOnly: the mating move is looked for among the checks.
	ChecksOnly
	// Budget: no square left where the king can be mated (or
	// stalemated) within each man's moves (matebudget.go).
	Budget
	// MateNet: the mating net test at the mating move (matenet.go).
	MateNet
	// LastMoveNet: the net test of the position after each move of the
	// side to be mated, one ply before the mate, made before it.
	LastMoveNet
	// LastMoveBudget: the budget test there, with answers shared among
	// moves that change nothing it reads.
	LastMoveBudget
	// MaterMoveNet: the net test after each move of the mating side
	// three plies before the mate.
	MaterMoveNet
	// IdleMoves: with the budget spent, a move that serves no square
	// that matters is dropped (idle.go).
	IdleMoves
	// StalemateMovers: the movers test of helpstalemates (movers.go).
	StalemateMovers
	// StalemateDrops: the moves the movers test refuses, dropped before
	// they are played (dropmoves.go).
	StalemateDrops

	Count
)

// shortcutNames are the names tests and MATELINE_SHORTCUTS_OFF use.
var shortcutNames = [Count]string{
	FailMemo:        "fail-memo",
	FailMemoAhead:   "fail-memo-ahead",
	ChecksOnly:      "checks-only",
	Budget:          "budget",
	MateNet:         "mate-net",
	LastMoveNet:     "last-move-net",
	LastMoveBudget:  "last-move-budget",
	MaterMoveNet:    "mater-move-net",
	IdleMoves:       "idle-moves",
	StalemateMovers: "stalemate-movers",
	StalemateDrops:  "stalemate-drops",
}

func (s Shortcut) String() string { return shortcutNames[s] }

// Set is a set of shortcuts.
type Set uint16

// All is every shortcut, the set a solve uses.
const All = Set(1)<<Count - 1

// Has reports whether s holds x.
func (s Set) Has(x Shortcut) bool { return s&(1<<x) != 0 }

// without is s less x.
func (s Set) without(x Shortcut) Set { return s &^ (1 << x) }

// ParseSet reads a comma-separated list of shortcut names ("all":
// every one).
func ParseSet(list string) (Set, error) {
	s, err := registry.Parse(list)
	return Set(s), err
}

// registry holds the names for MATELINE_SHORTCUTS_OFF, which switches
// shortcuts off for the whole process, to compare the solutions without
// them (docs/developing.md); never a user option.
var registry = shortcut.Register(shortcutNames[:]...)

// Enabled is every shortcut but those MATELINE_SHORTCUTS_OFF names, read
// once.
var Enabled = sync.OnceValue(func() Set {
	return All &^ Set(registry.Off())
})

// MemoOnly is the shortcuts that only remember or order the search, not
// prune it: with them, a search still visits every line that is not a
// position already searched.
const MemoOnly = Set(1)<<FailMemo | 1<<FailMemoAhead | 1<<ChecksOnly

// DropSpecial takes castling and en passant out of l (a mutant's).
func DropSpecial(l *board.MoveList) {
	kept := l.Moves[:0]
	for _, m := range l.Slice() {
		if !m.IsCastling() && !m.IsEnPassant() {
			kept = append(kept, m)
		}
	}
	l.N = len(kept)
}

// String names the shortcuts of s ("all", "none", or a list).
func (s Set) String() string {
	if s == All {
		return "all"
	}
	var names []string
	for x := Shortcut(0); x < Count; x++ {
		if s.Has(x) {
			names = append(names, x.String())
		}
	}
	if names == nil {
		return "none"
	}
	return fmt.Sprint(names)
}
