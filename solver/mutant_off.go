//go:build !mutants

package solver

// mutant is the shortcut made a little too strong, to show that the sweep
// of TestDirectShortcutsSound catches it (TestDirectMutantsCaught, built
// with -tags mutants, where it is a variable); none (shortcutCount) here,
// a constant, so that its sites cost nothing. Each site prunes one case
// more: table-cut takes an entry one ply short, transposition-cut a
// child's entry one ply short, checks-last leaves out the promotions,
// forced-reply makes a defender's two replies cost two plies,
// mate-distance forgets a mate in the node's own next ply, window-depth
// searches one ply less than the window needs, material takes a lone
// knight for no mating force unless a pawn can block, repetition stores
// results that depend on the path, tablebases takes the tables' shortest
// mate for one ply longer, proof-numbers reads a disproof of two plies
// fewer as one of the plies asked.
const mutant = shortcutCount
