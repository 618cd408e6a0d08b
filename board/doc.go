// Package board is mateline's fast chess core: bitboards, magic attack
// tables, a Position with legal move generation (including a generator of
// checking moves only), incremental Zobrist keys, FEN, UCI and SAN text, and
// perft. It has no dependencies outside the standard library and knows
// nothing about search.
package board
