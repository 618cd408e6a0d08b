// Package pgn reads and writes chess games in Portable Game Notation: the
// export format of the standard, and what real files do besides (comments
// in braces and after ';', NAGs and glyphs, nested variations, '%' escape
// lines, numbering for Black to move, CRLF, a UTF-8 byte-order mark,
// Latin-1 bytes, SAN as written in the wild). A Splitter streams a file
// game by game with the line each starts on; Parse turns one game's text
// into its tags, start position and move tree, checking every move
// against the rules; Write writes a game back in the export format.
//
// It is mateline's own: the chess library's reader (corentings/chess/v2)
// stopped on 18 of the 5,335 games of a real puzzle collection (draw and
// advantage glyphs such as "=" and "-+" after a move) and gives no line
// numbers for its errors; this reader reads all of them, and says which
// game and line a bad one starts on.
package pgn
