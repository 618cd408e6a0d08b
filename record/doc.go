// Package record holds puzzles as read: a Record with its position, its
// claim and where it came from, and what the readers of the input dialects
// share (Reader, Raw, LineReader, ParseMoves, ErrorRecord, ids). The
// dialects are read by packages epd, lichess, popeye and pgnrec, which
// import this package and problem, and no solver.
package record
