// Package solver is mateline's mate prover. Two exact searches prove each
// position: iterative deepening alpha-beta on exact mate scores (single-
// reply extensions, a transposition table of memoized bounds, ordering by
// table move, checks, captures, killers and history), whose finished
// iterations prove that no shorter mate exists, and a depth-first
// proof-number search that proves a forced mate of the longest length
// wanted. On one thread they take turns; on several they run side by side,
// sharing the table, and the answer never depends on the thread count.
// Tablebases and books plug in through the Prober and Book interfaces;
// they can make a proof cheaper, never different.
package solver
