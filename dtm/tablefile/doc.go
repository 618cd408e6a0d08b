// Package tablefile says what a distance-to-mate table is and how its
// file is read and written: the material signatures (material.go), the
// layout that numbers a table's positions (layout.go), the values
// (value.go), the tables' own move generator over the men of a table
// (position.go: the moves that stay inside a table, the conversions that
// leave it, an en-passant right read one ply ahead in enpassant.go), the
// file formats 2 and 3 (header.go, zread.go, zwrite.go) and the block
// cache probes decompress through (blockcache.go).
//
// The board package's attack tables are the move generator's base.
package tablefile
