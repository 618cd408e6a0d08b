package record

import (
	"fmt"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// Record is one puzzle as read: where it came from, its position, the
// operations it carried and what it claims. A record that could not be read
// has Err set, naming the line and what is wrong; readers go on after it.
type Record struct {
	Source string // file name, "-" for standard input, "--fen" for flags
	Line   int    // 1-based line number in Source
	ID     string // the puzzle's id, else "line:N"
	FEN    string // the position searched, as full FEN (empty if unreadable)
	Pos    board.Position
	Ops    []Op // EPD operations in input order, kept for annotated output
	Claim  Claim
	// Stip is a helpmate or selfmate stipulation (EPD stip, a problem
	// file, --stip); the zero value is a direct mate, whose length is
	// Claim.Mate.
	Stip problem.Stipulation
	// Problem holds what a problem file says besides position and
	// stipulation: title, author, origin, twin, options.
	Problem *Problem
	Err     error
	// Input is the input line of a record that could not be read, as it
	// was (EPD), so that an annotated output keeps it.
	Input string
	// Terminal, when not empty, says why the position has nothing to
	// search: "stalemate", or "the side to move is already checkmated".
	// The position is legal and the record readable; a mate claim on it
	// is false.
	Terminal string
	// Lichess holds a Lichess row's rating, themes and links.
	Lichess *LichessInfo
	// PGN holds a PGN game's number, tags and move tree.
	PGN *PGNInfo
	// Warnings name problems that did not stop the record from being read
	// and searched, such as a malformed annotation (pv cut off mid-move).
	Warnings []string
}

// Claim is what a puzzle says about itself. Zero values mean "not stated".
type Claim struct {
	Mate  problem.Mate // the claimed mate
	Keys  []board.Move // claimed key moves (EPD bm, or the first solution move)
	Avoid []board.Move // EPD am
	Line  []board.Move // claimed main line (EPD pv, Lichess Moves after the first)
	// OnlyLastVaries marks Lichess puzzles, where only the final mating
	// move may have alternatives; several mating moves at mate in 1 are not
	// a cook there.
	OnlyLastVaries bool
}

// LineError is a problem with one input line: its text starts with the
// source and the line ("puzzles.epd:12: ...").
type LineError struct {
	Source string
	Line   int
	Err    error
}

// Error writes the source and the line before the problem.
func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.Source, e.Line, e.Err) }

// Unwrap returns the problem itself.
func (e *LineError) Unwrap() error { return e.Err }

// ErrorRecord is the record of a line of source that could not be read:
// its id is "line:N", and its Err a LineError.
func ErrorRecord(source string, line int, err error) Record {
	return Record{Source: source, Line: line, ID: fmt.Sprintf("line:%d", line), Err: &LineError{source, line, err}}
}

// SetPosition sets the record's position, its FEN and whether it is
// terminal (checkmate or stalemate).
func (r *Record) SetPosition(pos board.Position) {
	r.Pos, r.FEN, r.Terminal = pos, pos.FEN(), terminal(&pos)
}

// Warnf adds a warning to the record.
func (r *Record) Warnf(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// terminal says why a position with no legal move has nothing to search
// ("" when it has a move).
func terminal(pos *board.Position) string {
	if pos.HasLegalMove() {
		return ""
	}
	if pos.InCheck() {
		return "the side to move is already checkmated"
	}
	return "stalemate"
}

// FromFEN makes the record of a FEN given on the command line ("startpos"
// for the initial position): source names where it came from, n is its
// place among them and gives its id "fen:N".
func FromFEN(source string, n int, fen string) Record {
	rec := Record{Source: source, Line: n, ID: fmt.Sprintf("fen:%d", n)}
	pos, err := board.StartPosition(), error(nil)
	if strings.TrimSpace(fen) != "startpos" {
		pos, err = board.ParseFEN(fen)
	}
	if err != nil {
		rec.Err = &LineError{source, n, err}
		return rec
	}
	rec.SetPosition(pos)
	return rec
}

// FromPosition makes the record of a position given by a program (the
// server's /solve, say): its source, line 1 and id.
func FromPosition(source, id string, pos board.Position) Record {
	return Record{Source: source, Line: 1, ID: id, Pos: pos, FEN: pos.FEN(), Terminal: terminal(&pos)}
}
