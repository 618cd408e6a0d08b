package puzzles

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/solver"
)

// lichessReader streams records from the Lichess puzzle CSV. Columns are
// found by their header names (FEN and Moves are required; PuzzleId and
// Themes are used when present). The FEN is the position before the
// opponent's move: Moves[0] is applied first, and the rest of Moves is the
// claimed solution. The themes mateIn1..mateIn5 give the claimed length
// (the theme "mate" alone: the solution's length).
type lichessReader struct {
	source string
	lr     *LineReader
	cols   map[string]int
	err    error // a header problem: every later call returns it
}

// NewLichessReader reads Lichess puzzle CSV from r; source names it in errors.
func NewLichessReader(r io.Reader, source string) Reader {
	return &lichessReader{source: source, lr: NewLineReader(r)}
}

// Next returns the next record, or io.EOF at the end. A bad header is an
// error (the file cannot be read); a bad row is a record with Err set.
func (cr *lichessReader) Next() (Record, error) {
	return ParseNext(cr.NextRaw)
}

// NextRaw returns the next row to parse, so that parsing can happen on
// another goroutine (see Raw). The header is read here.
func (cr *lichessReader) NextRaw() (Raw, error) {
	if cr.err != nil {
		return Raw{}, cr.err
	}
	for {
		text, tooLong, err := cr.lr.Next()
		if err != nil {
			return Raw{}, err
		}
		line := cr.lr.Line()
		if tooLong {
			return TooLongRaw(cr.source, line), nil
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		if cr.cols == nil {
			fields, ferr := splitCSV(text)
			if ferr != nil {
				cr.err = &LineError{cr.source, line, fmt.Errorf("header: %w", ferr)}
				return Raw{}, cr.err
			}
			if err := cr.readHeader(fields); err != nil {
				cr.err = &LineError{cr.source, line, err}
				return Raw{}, cr.err
			}
			continue
		}
		return NewRaw(line, text, cr.parseRow), nil
	}
}

// parseRow parses one data row; it only reads the header map, so rows can
// be parsed concurrently.
func (cr *lichessReader) parseRow(line int, text string) Record {
	fields, err := splitCSV(text)
	if err != nil {
		return ErrorRecord(cr.source, line, err)
	}
	return cr.record(line, fields)
}

func (cr *lichessReader) readHeader(fields []string) error {
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

func (cr *lichessReader) field(fields []string, name string) string {
	i, ok := cr.cols[name]
	if !ok || i >= len(fields) {
		return ""
	}
	return strings.TrimSpace(fields[i])
}

func (cr *lichessReader) record(line int, fields []string) Record {
	rec := Record{Source: cr.source, Line: line, ID: fmt.Sprintf("line:%d", line)}
	fail := func(err error) Record {
		rec.Err = &LineError{cr.source, line, err}
		return rec
	}
	if id := cr.field(fields, "puzzleid"); id != "" {
		rec.ID = id
		rec.Ops = append(rec.Ops, Op{Code: "id", Args: []string{id}})
	}
	themes := cr.field(fields, "themes")
	if themes != "" {
		rec.Ops = append(rec.Ops, Op{Code: "c0", Args: []string{themes}})
	}
	rec.Lichess = &LichessInfo{
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
	line2, err := ParseMoves(&pos, moves[1:], true)
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
			rec.Claim.Mate = solver.Mate(th[6] - '0')
		}
	}
	if rec.Claim.Mate == 0 && strings.Contains(" "+themes+" ", " mate ") && len(line2) > 0 {
		rec.Claim.Mate = solver.Mate((len(line2) + 1) / 2)
	}
	return rec
}

// splitCSV splits one CSV line into fields (RFC 4180 quoting; a quoted
// field may not span lines).
func splitCSV(s string) ([]string, error) {
	var fields []string
	for {
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			i := 1
			for {
				j := strings.IndexByte(s[i:], '"')
				if j < 0 {
					return nil, errors.New("unclosed quote")
				}
				b.WriteString(s[i : i+j])
				i += j + 1
				if i < len(s) && s[i] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				break
			}
			fields = append(fields, b.String())
			s = s[i:]
			if s == "" {
				return fields, nil
			}
			if s[0] != ',' {
				return nil, fmt.Errorf("text after a closing quote: %q", truncate(s, 20))
			}
			s = s[1:]
			continue
		}
		j := strings.IndexByte(s, ',')
		if j < 0 {
			return append(fields, s), nil
		}
		fields = append(fields, s[:j])
		s = s[j+1:]
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// LichessInfo is what a Lichess puzzle row says about the puzzle besides
// its position, for the HTML report.
type LichessInfo struct {
	PuzzleID   string
	Rating     int
	Popularity int
	Themes     string
	GameURL    string
}

// TrainingURL is the puzzle's page on Lichess.
func (l *LichessInfo) TrainingURL() string {
	if l.PuzzleID == "" {
		return ""
	}
	return "https://lichess.org/training/" + l.PuzzleID
}

// atoiOr reads a number, 0 when there is none.
func atoiOr(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
