// Package lichess reads the Lichess puzzle database's CSV into records:
// the position after the opponent's first move, the solution as the
// claimed line, the claimed mate from the themes (mateIn1 to mateIn5), and
// the row's rating, themes and links as puzzles.LichessInfo.
package lichess
