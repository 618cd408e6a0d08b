package puzzles

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/solver"
	"mateline.dev/mateline/stipulation"
)

// epdReader streams records from an EPD file. It reads the standard
// dialect (four FEN fields, then "opcode operands;" operations), full
// six-field FEN before the operations, the matetrack "bm #N" claims, and
// the loose dialect with no semicolons ("FEN bm Qxf7+ dm 13"). Blank lines
// and lines starting with '#' are skipped.
type epdReader struct {
	source string
	lr     *LineReader
}

// NewEPDReader reads EPD from r; source names it in errors.
func NewEPDReader(r io.Reader, source string) Reader {
	return &epdReader{source: source, lr: NewLineReader(r)}
}

// Next returns the next record, or io.EOF at the end. Other errors are
// I/O errors; a bad line is a record with Err set.
func (er *epdReader) Next() (Record, error) {
	return ParseNext(er.NextRaw)
}

// NextRaw returns the next line to parse, so that parsing can happen on
// another goroutine (see puzzles.Raw).
func (er *epdReader) NextRaw() (Raw, error) {
	for {
		text, tooLong, err := er.lr.Next()
		if err != nil {
			return Raw{}, err
		}
		line := er.lr.Line()
		if tooLong {
			return TooLongRaw(er.source, line), nil
		}
		t := strings.TrimSpace(text)
		if t == "" || t[0] == '#' {
			continue
		}
		return NewRaw(line, t, er.parse), nil
	}
}

func (er *epdReader) parse(line int, text string) Record { return ParseEPDLine(er.source, line, text) }

// looseOpcodes are the opcodes recognised when a line has no semicolons.
var looseOpcodes = map[string]bool{
	"acd": true, "acn": true, "acs": true, "am": true, "bm": true, "ce": true, "dm": true,
	"fmvn": true, "hmvc": true, "id": true, "pm": true, "pv": true, "sm": true, "stip": true,
	"c0": true, "c1": true, "c2": true, "c3": true, "c4": true, "c5": true, "c6": true, "c7": true, "c8": true, "c9": true,
}

// ParseEPDLine reads one EPD line into a record.
func ParseEPDLine(source string, line int, text string) Record {
	rec := Record{Source: source, Line: line, ID: fmt.Sprintf("line:%d", line)}
	fail := func(err error) Record {
		rec.Err = &LineError{source, line, err}
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
	if err := rec.readClaims(); err != nil {
		// The position was read: the record keeps it, with the error.
		return fail(err)
	}
	return rec
}

// firstID returns the text of the first id operation.
func firstID(ops []Op) string {
	for _, op := range ops {
		if op.Code == "id" && len(op.Args) > 0 {
			return strings.Join(op.Args, " ")
		}
	}
	return ""
}

func firstArg(op Op) string {
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

// readClaims fills the record's id and claims from its operations. A bad
// claim (dm, bm) or id is an error; a bad annotation is a warning.
func (rec *Record) readClaims() error {
	if err := rec.checkRepeats(); err != nil {
		return err
	}
	bmMate, stipMate := solver.Mate(0), solver.Mate(0)
	for _, op := range rec.Ops {
		switch op.Code {
		case "id":
			if len(op.Args) > 0 {
				rec.ID = strings.Join(op.Args, " ")
			}
		case "dm":
			n, err := strconv.Atoi(firstArg(op))
			if err != nil || len(op.Args) != 1 {
				return fmt.Errorf("dm: want one number, got %q", strings.Join(op.Args, " "))
			}
			if n < 1 {
				return fmt.Errorf("dm %d: a mate length is at least 1", n)
			}
			rec.Claim.Mate = solver.Mate(n)
		case "bm":
			if strings.HasPrefix(firstArg(op), "#") {
				n, err := strconv.Atoi(firstArg(op)[1:])
				if err != nil || n == 0 || len(op.Args) != 1 {
					return fmt.Errorf("bm %s: want #N or #-N with N at least 1", strings.Join(op.Args, " "))
				}
				bmMate = solver.Mate(n)
				continue
			}
			moves, err := ParseMoves(&rec.Pos, op.Args, false)
			if err != nil {
				return fmt.Errorf("bm: %w", err)
			}
			rec.Claim.Keys = moves
		case "stip":
			st, err := stipulation.Parse(strings.Join(op.Args, " "))
			if err != nil {
				return err
			}
			if st.IsDirectMate() {
				stipMate = solver.Mate(st.Moves)
				continue
			}
			rec.Stip = st
		case "am":
			moves, err := ParseMoves(&rec.Pos, op.Args, false)
			if err != nil {
				rec.Warnf("am: %v; ignored", err)
				continue
			}
			rec.Claim.Avoid = moves
		case "pv", "PV:":
			moves, err := ParseMoves(&rec.Pos, op.Args, true)
			if err != nil {
				rec.Warnf("%s: %v; the line is ignored", op.Code, err)
				continue
			}
			rec.Claim.Line = moves
		case "acd", "acn", "ce":
			min := int64(0)
			if op.Code == "ce" {
				min = -32767
			}
			if n, err := strconv.ParseInt(firstArg(op), 10, 64); err != nil || n < min || len(op.Args) != 1 {
				rec.Warnf("%s: want one %s, got %q", op.Code, map[bool]string{true: "integer", false: "count"}[op.Code == "ce"], strings.Join(op.Args, " "))
			}
		case "acs":
			if x, err := strconv.ParseFloat(firstArg(op), 64); err != nil || x < 0 || len(op.Args) != 1 {
				rec.Warnf("acs: want seconds, got %q", strings.Join(op.Args, " "))
			}
		default:
			if IsComment(op.Code) && len(op.Args) == 0 {
				rec.Warnf("%s: no text", op.Code)
			}
		}
	}
	if bmMate != 0 {
		if rec.Claim.Mate != 0 && rec.Claim.Mate != bmMate {
			return fmt.Errorf("dm %d and bm #%d disagree", rec.Claim.Mate, bmMate)
		}
		rec.Claim.Mate = bmMate
	}
	if rec.Stip.Moves != 0 && rec.Claim.Mate != 0 {
		return fmt.Errorf("stip %s and the mate claim (%d) disagree", rec.Stip, rec.Claim.Mate)
	}
	if stipMate != 0 {
		if rec.Claim.Mate != 0 && rec.Claim.Mate != stipMate {
			return fmt.Errorf("stip #%d and the mate claim (%d) disagree", stipMate, rec.Claim.Mate)
		}
		rec.Claim.Mate = stipMate
	}
	return nil
}

// checkRepeats enforces that each opcode appears once. A claim, the id or
// a clock given twice with different values makes the line unreadable (which
// one would be meant?); an annotation given twice is a warning. Exact
// repeats are harmless and pass.
func (rec *Record) checkRepeats() error {
	first := map[string]string{}
	for _, op := range rec.Ops {
		text := op.String()
		prev, seen := first[op.Code]
		if !seen {
			first[op.Code] = text
			continue
		}
		if prev == text {
			continue
		}
		if !isAnnotation(op.Code) {
			return fmt.Errorf("opcode %s appears twice with different values (%q, then %q); EPD allows each opcode once", op.Code, prev, text)
		}
		rec.Warnf("opcode %s appears twice with different values; EPD allows each opcode once", op.Code)
	}
	return nil
}
