package stipulation

import (
	"fmt"

	"mateline.dev/mateline/board"
	"os"
	"strings"
	"sync"
)

// shortcut is one rule that lets help or series play skip work: each is
// sound (it drops only what has no solution) and each can be switched
// off on its own, to test it against the search without it.
type shortcut uint8

const (
	// cutFailMemo: a position found without a solution, with its plies
	// left, is not searched again (failtable.go).
	cutFailMemo shortcut = iota
	// cutFailMemoAhead: a child's key is read without playing the move
	// and looked up in the fail memo (failTable.probe).
	cutFailMemoAhead
	// cutChecksOnly: the mating move is looked for among the checks.
	cutChecksOnly
	// cutBudgetTest: no square left where the king can be mated (or
	// stalemated) within each man's moves (matebudget.go).
	cutBudgetTest
	// cutMateNet: the mating net test at the mating move (matenet.go).
	cutMateNet
	// cutLastMoveNet: the net test of the position after each move of the
	// side to be mated, one ply before the mate, made before it.
	cutLastMoveNet
	// cutLastMoveBudget: the budget test there, with answers shared among
	// moves that change nothing it reads.
	cutLastMoveBudget
	// cutMaterMoveNet: the net test after each move of the mating side
	// three plies before the mate.
	cutMaterMoveNet
	// cutIdleMoves: with the budget spent, a move that serves no square
	// that matters is dropped (idle.go).
	cutIdleMoves
	// cutStalemateMovers: the movers test of helpstalemates (movers.go).
	cutStalemateMovers
	// cutStalemateDrops: the moves the movers test refuses, dropped before
	// they are played (dropmoves.go).
	cutStalemateDrops

	shortcutCount
)

// shortcutNames are the names tests and MATELINE_SHORTCUTS_OFF use.
var shortcutNames = [shortcutCount]string{
	cutFailMemo:        "fail-memo",
	cutFailMemoAhead:   "fail-memo-ahead",
	cutChecksOnly:      "checks-only",
	cutBudgetTest:      "budget",
	cutMateNet:         "mate-net",
	cutLastMoveNet:     "last-move-net",
	cutLastMoveBudget:  "last-move-budget",
	cutMaterMoveNet:    "mater-move-net",
	cutIdleMoves:       "idle-moves",
	cutStalemateMovers: "stalemate-movers",
	cutStalemateDrops:  "stalemate-drops",
}

func (s shortcut) String() string { return shortcutNames[s] }

// shortcuts is a set of shortcuts.
type shortcuts uint16

// allShortcuts is every shortcut, the set a solve uses.
const allShortcuts = shortcuts(1)<<shortcutCount - 1

// has reports whether s holds x.
func (s shortcuts) has(x shortcut) bool { return s&(1<<x) != 0 }

// without is s less x.
func (s shortcuts) without(x shortcut) shortcuts { return s &^ (1 << x) }

// parseShortcuts reads a comma-separated list of shortcut names ("all":
// every one).
func parseShortcuts(list string) (shortcuts, error) {
	var s shortcuts
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if name == "all" {
			s = allShortcuts
			continue
		}
		found := false
		for x, n := range shortcutNames {
			if n == name {
				s |= 1 << x
				found = true
			}
		}
		if !found {
			return s, fmt.Errorf("unknown shortcut %q (known: %s)", name, strings.Join(shortcutNames[:], ", "))
		}
	}
	return s, nil
}

// shortcutsOffVar names the shortcuts a developer switches off, to
// compare the solutions without them (docs/developing.md); never a user
// option.
const shortcutsOffVar = "MATELINE_SHORTCUTS_OFF"

// enabledShortcuts is every shortcut but those MATELINE_SHORTCUTS_OFF
// names, read once; a name it does not know is said once on standard
// error and left out.
var enabledShortcuts = sync.OnceValue(func() shortcuts {
	off, err := parseShortcuts(os.Getenv(shortcutsOffVar))
	if err != nil {
		fmt.Fprintf(os.Stderr, "mateline: %s: %v\n", shortcutsOffVar, err)
	}
	return allShortcuts &^ off
})

// memoOnly is the shortcuts that only remember or order the search, not
// prune it: with them, a search still visits every line that is not a
// position already searched.
const memoOnly = shortcuts(1)<<cutFailMemo | 1<<cutFailMemoAhead | 1<<cutChecksOnly

// dropSpecial takes castling and en passant out of l (a mutant's).
func dropSpecial(l *board.MoveList) {
	kept := l.Moves[:0]
	for _, m := range l.Slice() {
		if !m.IsCastling() && !m.IsEnPassant() {
			kept = append(kept, m)
		}
	}
	l.N = len(kept)
}
