// Package pgnrec reads PGN puzzle collections into records, with package
// pgn's parser: every game is a record. Its position is the FEN tag (else
// the initial position), its key the main line's first move, and its claim
// a stated one (a tag or the game's first comment: "Mate in two", "#2") or
// else, from a set-up position, the main line's own length when it ends in
// mate. The main line and the variations given for the defences are the
// author's solution, which puzzles.Validate checks move by move; the game
// itself stays on the record as puzzles.PGNInfo.
package pgnrec
