package lichess

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
)

// reader streams records from the Lichess puzzle CSV. Columns are
// found by their header names (FEN and Moves are required; PuzzleId and
// Themes are used when present). The FEN is the position before the
// opponent's move: Moves[0] is applied first, and the rest of Moves is the
// claimed solution. The themes mateIn1..mateIn5 give the claimed length
// (the theme "mate" alone: the solution's length).
type reader struct {
	source string
	lr     *record.LineReader
	cols   map[string]int
	err    error // a header problem: every later call returns it
}

// NewReader reads Lichess puzzle CSV from r; source names it in errors.
func NewReader(r io.Reader, source string) record.Reader {
	return &reader{source: source, lr: record.NewLineReader(r)}
}

// Next returns the next record, or io.EOF at the end. A bad header is an
// error (the file cannot be read); a bad row is a record with Err set.
func (cr *reader) Next() (record.Record, error) {
	return record.ParseNext(cr.NextRaw)
}

// NextRaw returns the next row to parse, so that parsing can happen on
// another goroutine (see puzzles.Raw). The header is read here.
func (cr *reader) NextRaw() (record.Raw, error) {
	if cr.err != nil {
		return record.Raw{}, cr.err
	}
	for {
		text, tooLong, err := cr.lr.Next()
		if err != nil {
			return record.Raw{}, err
		}
		line := cr.lr.Line()
		if tooLong {
			return record.TooLongRaw(cr.source, line), nil
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		if cr.cols == nil {
			fields, ferr := splitCSV(text)
			if ferr != nil {
				cr.err = &record.LineError{Source: cr.source, Line: line, Err: fmt.Errorf("header: %w", ferr)}
				return record.Raw{}, cr.err
			}
			if err := cr.readHeader(fields); err != nil {
				cr.err = &record.LineError{Source: cr.source, Line: line, Err: err}
				return record.Raw{}, cr.err
			}
			continue
		}
		return record.NewRaw(line, text, cr.parseRow), nil
	}
}

// parseRow parses one data row; it only reads the header map, so rows can
// be parsed concurrently.
func (cr *reader) parseRow(line int, text string) record.Record {
	fields, err := splitCSV(text)
	if err != nil {
		return record.ErrorRecord(cr.source, line, err)
	}
	return cr.record(line, fields)
}

func (cr *reader) readHeader(fields []string) error {
	cr.cols = map[string]int{}
	for i, f := range fields {
		cr.cols[strings.ToLower(strings.TrimSpace(f))] = i
	}
	for _, need := range []string{"fen", "moves"} {
		if _, ok := cr.cols[need]; !ok {
			return fmt.Errorf("header has no %q column (want Lichess puzzle CSV: PuzzleId,FEN,Moves,...,Themes,...)", need)
		}
	}
	return nil
}

func (cr *reader) field(fields []string, name string) string {
	i, ok := cr.cols[name]
	if !ok || i >= len(fields) {
		return ""
	}
	return strings.TrimSpace(fields[i])
}

func (cr *reader) record(line int, fields []string) record.Record {
	rec := record.Record{Source: cr.source, Line: line, ID: fmt.Sprintf("line:%d", line)}
	fail := func(err error) record.Record {
		rec.Err = &record.LineError{Source: cr.source, Line: line, Err: err}
		return rec
	}
	if id := cr.field(fields, "puzzleid"); id != "" {
		rec.ID = id
		rec.Ops = append(rec.Ops, record.Op{Code: "id", Args: []string{id}})
	}
	themes := cr.field(fields, "themes")
	if themes != "" {
		rec.Ops = append(rec.Ops, record.Op{Code: "c0", Args: []string{themes}})
	}
	rec.Lichess = &record.LichessInfo{
		PuzzleID: cr.field(fields, "puzzleid"), Themes: themes, GameURL: cr.field(fields, "gameurl"),
		Rating: atoiOr(cr.field(fields, "rating")), Popularity: atoiOr(cr.field(fields, "popularity")),
	}
	pos, err := board.ParseFEN(cr.field(fields, "fen"))
	if err != nil {
		return fail(err)
	}
	rec.FEN = pos.FEN() // until the opponent's move is played
	moves := strings.Fields(cr.field(fields, "moves"))
	if len(moves) == 0 {
		return fail(errors.New("Moves is empty: want the opponent's move, then the solution"))
	}
	first, err := pos.ParseUCI(moves[0])
	if err != nil {
		return fail(fmt.Errorf("Moves[0] (the opponent's move): %w", err))
	}
	pos.Play(first)
	rec.SetPosition(pos)
	line2, err := record.ParseMoves(&pos, moves[1:], true)
	if err != nil {
		return fail(fmt.Errorf("solution: %w", err))
	}
	rec.Claim.Line = line2
	if len(line2) > 0 {
		rec.Claim.Keys = line2[:1]
	}
	rec.Claim.OnlyLastVaries = true
	for _, th := range strings.Fields(themes) {
		if len(th) == 7 && strings.HasPrefix(th, "mateIn") && th[6] >= '1' && th[6] <= '9' {
			rec.Claim.Mate = problem.Mate(th[6] - '0')
		}
	}
	if rec.Claim.Mate == 0 && strings.Contains(" "+themes+" ", " mate ") && len(line2) > 0 {
		rec.Claim.Mate = problem.Mate((len(line2) + 1) / 2)
	}
	return rec
}

// atoiOr reads a number, 0 when there is none.
func atoiOr(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
