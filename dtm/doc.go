// Package dtm is the store of distance-to-mate tables for every ending
// of up to five men, pawns included, in pure Go: the cache on disk, its
// locks, the order in which tables are built (captures and promotions
// lead into smaller or sibling tables, built first), builds on first use,
// probes, and the check of a table against its moves (verify).
//
// A table holds, for each position of one material signature (such as
// KQvKR) and both sides to move, the exact number of moves to mate with
// best play: the side to move mates in N, is mated in N, or neither side
// can force mate. The 50-move rule is ignored, as problems ignore it.
// Positions with castling rights are not in any table; a position with
// an en-passant right is answered one ply ahead, from its moves.
//
// What a table and its file are lives in package dtm/tablefile; how its
// values are computed, by retrograde analysis, in package dtm/generate.
// The layout and file format are described in docs/dtm.md.
package dtm
