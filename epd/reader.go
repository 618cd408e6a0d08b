package epd

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/record"
)

// reader streams records from an EPD file. It reads the standard
// dialect (four FEN fields, then "opcode operands;" operations), full
// six-field FEN before the operations, the matetrack "bm #N" claims, and
// the loose dialect with no semicolons ("FEN bm Qxf7+ dm 13"). Blank lines
// and lines starting with '#' are skipped.
type reader struct {
	source string
	lr     *record.LineReader
}

// NewReader reads EPD from r; source names it in errors.
func NewReader(r io.Reader, source string) record.Reader {
	return &reader{source: source, lr: record.NewLineReader(r)}
}

// Next returns the next record, or io.EOF at the end. Other errors are
// I/O errors; a bad line is a record with Err set.
func (er *reader) Next() (record.Record, error) {
	return record.ParseNext(er.NextRaw)
}

// NextRaw returns the next line to parse, so that parsing can happen on
// another goroutine (see puzzles.Raw).
func (er *reader) NextRaw() (record.Raw, error) {
	for {
		text, tooLong, err := er.lr.Next()
		if err != nil {
			return record.Raw{}, err
		}
		line := er.lr.Line()
		if tooLong {
			return record.TooLongRaw(er.source, line), nil
		}
		t := strings.TrimSpace(text)
		if t == "" || t[0] == '#' {
			continue
		}
		return record.NewRaw(line, t, er.parse), nil
	}
}

func (er *reader) parse(line int, text string) record.Record {
	return ParseLine(er.source, line, text)
}

// ParseLine reads one EPD line into a record.
func ParseLine(source string, line int, text string) record.Record {
	rec := record.Record{Source: source, Line: line, ID: fmt.Sprintf("line:%d", line)}
	fail := func(err error) record.Record {
		rec.Err = &record.LineError{Source: source, Line: line, Err: err}
		rec.Input = text
		return rec
	}
	fields, rest := splitFields(text, 4)
	if len(fields) < 4 {
		if len(fields) < 2 {
			return fail(errors.New("no position: want four FEN fields"))
		}
		return fail(fmt.Errorf("position has %d fields, want 4 (board, side to move, castling, en passant)", len(fields)))
	}
	fen := strings.Join(fields, " ")
	// Full FEN: two clock numbers follow the four fields.
	if clocks, after := splitFields(rest, 2); len(clocks) == 2 && isUint(clocks[0]) && isUint(clocks[1]) {
		fen += " " + clocks[0] + " " + clocks[1]
		rest = after
	} else {
		fen += " 0 1"
	}
	parsed := parseOps(text, len(text)-len(rest))
	if parsed.err != nil {
		return fail(parsed.err)
	}
	rec.Ops, rec.Warnings = parsed.ops, parsed.warnings
	// The id first, so that a record that fails further on keeps it.
	if id := firstID(rec.Ops); id != "" {
		rec.ID = id
	}
	pos, err := board.ParseFEN(fen)
	if err != nil {
		return fail(err)
	}
	for _, op := range rec.Ops {
		switch op.Code {
		case "hmvc", "fmvn":
			n, err := strconv.Atoi(firstArg(op))
			if err != nil || n < 0 {
				return fail(fmt.Errorf("%s: want a number, got %q", op.Code, firstArg(op)))
			}
			if op.Code == "hmvc" {
				pos.SetClocks(n, pos.FullmoveNumber())
			} else {
				pos.SetClocks(pos.HalfmoveClock(), n)
			}
		}
	}
	rec.SetPosition(pos)
	if err := readClaims(&rec); err != nil {
		// The position was read: the record keeps it, with the error.
		return fail(err)
	}
	return rec
}

// firstID returns the text of the first id operation.
func firstID(ops []record.Op) string {
	for _, op := range ops {
		if op.Code == "id" && len(op.Args) > 0 {
			return strings.Join(op.Args, " ")
		}
	}
	return ""
}

func firstArg(op record.Op) string {
	if len(op.Args) == 0 {
		return ""
	}
	return op.Args[0]
}

func isUint(s string) bool {
	_, err := strconv.ParseUint(s, 10, 16)
	return err == nil
}

// splitFields takes up to n whitespace-separated fields off the front of s.
func splitFields(s string, n int) ([]string, string) {
	var out []string
	for len(out) < n {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			break
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out, s
}
