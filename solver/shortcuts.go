package solver

import (
	"sync"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/shortcut"
)

// A shortcut is one rule of the direct-mate search that skips work: each
// is sound (it leaves out only what cannot change the answer), and each
// can be switched off on its own, by a test (Options' shortcutsOff, see
// export_test.go) or by MATELINE_SHORTCUTS_OFF (docs/developing.md), to
// compare the answers without it (TestDirectShortcutsSound).
type shortcutID int

const (
	// cutTable: a table entry deep enough, or a mate bound, answers a
	// node (probe); without it the entry still orders the moves.
	cutTable shortcutID = iota
	// cutTransposition: a defender's reply whose position the table
	// knows to hold out answers the node (etc).
	cutTransposition
	// cutChecksLast: the attacker's last move is looked for among the
	// checks (generate, matesInOne).
	cutChecksLast
	// cutForcedReply: a defender's only reply costs no depth (the
	// single-reply extension).
	cutForcedReply
	// cutMateDistance: the window is narrowed to the mates that can
	// still happen at the node's ply (frame).
	cutMateDistance
	// cutWindowDepth: the window bounds the depth searched (frame).
	cutWindowDepth
	// cutMaterial: a side without the men to mate cannot mate (frame,
	// pnLeaf).
	cutMaterial
	// cutRepetition: a position repeated on the path counts as no mate
	// (frame).
	cutRepetition
	// cutTablebases: the Syzygy and distance-to-mate tables answer what
	// they cover (the solve runs without Prober, DTM and SearchDTM).
	cutTablebases
	// cutProofNumbers: the proof-number search's proofs answer the
	// bounds, the keys and the line (pnProve, pnKnown).
	cutProofNumbers

	shortcutCount
)

// shortcuts names the shortcuts for tests and MATELINE_SHORTCUTS_OFF.
var shortcuts = shortcut.Register(
	"table-cut", "transposition-cut", "checks-last", "forced-reply",
	"mate-distance", "window-depth", "material", "repetition",
	"tablebases", "proof-numbers")

// enabledShortcuts is every shortcut but those MATELINE_SHORTCUTS_OFF
// names, read once.
var enabledShortcuts = sync.OnceValue(func() shortcut.Set {
	return shortcuts.All() &^ shortcuts.Off()
})

// shortcutsFor is the shortcuts a solve with opt makes.
func shortcutsFor(opt Options) shortcut.Set {
	return enabledShortcuts() &^ opt.shortcutsOff
}

// uses reports whether the solve makes shortcut x.
func (e *env) uses(x shortcutID) bool { return e.cuts.Has(int(x)) }

// withoutTables is opt without its tables when the solve does not use
// them.
func withoutTables(opt Options) Options {
	if !shortcutsFor(opt).Has(int(cutTablebases)) {
		opt.Prober, opt.DTM, opt.SearchDTM = nil, nil, nil
	}
	return opt
}

// mutantCanMate is CanMate as the material mutant has it: a lone knight
// mates only a king with a pawn (it forgets the other men that can
// block a flight).
func mutantCanMate(pos *board.Position, c board.Color) bool {
	if !pos.CanMate(c) {
		return false
	}
	if pos.ColorBB(c) != pos.Pieces(c, board.King)|pos.Pieces(c, board.Knight) || pos.Pieces(c, board.Knight).More() {
		return true
	}
	return pos.Pieces(c.Other(), board.Pawn) != 0
}
