//go:build !mutants

package prune

// Mutant is the shortcut made a little too strong, to show that the
// sweep of TestShortcutsSound catches it (TestMutantsCaught, built with
// -tags mutants, where Mutant is a variable); none (Count) here,
// a constant, so that its sites cost nothing. Each site prunes one case
// more: fail-memo forgets the plies left, fail-memo-ahead takes a child
// that failed with two plies more for one that fails, checks-only leaves
// out castling and en passant, budget forgets the other side's castling,
// mate-net forgets the mating side's pawns, last-move-net forgets the
// man that moves onto a flight, last-move-budget forgets the pawns'
// prey, mater-move-net and idle-moves forget promotions,
// stalemate-movers takes no pawn for a mover, stalemate-drops drops the
// promotions.
const Mutant = Count
