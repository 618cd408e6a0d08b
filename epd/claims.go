package epd

import (
	"fmt"
	"strconv"
	"strings"

	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
)

// readClaims fills the record's id and claims from its operations. A bad
// claim (dm, bm) or id is an error; a bad annotation is a warning.
func readClaims(rec *record.Record) error {
	if err := checkRepeats(rec); err != nil {
		return err
	}
	bmMate, stipMate := problem.Mate(0), problem.Mate(0)
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
			rec.Claim.Mate = problem.Mate(n)
		case "bm":
			if strings.HasPrefix(firstArg(op), "#") {
				n, err := strconv.Atoi(firstArg(op)[1:])
				if err != nil || n == 0 || len(op.Args) != 1 {
					return fmt.Errorf("bm %s: want #N or #-N with N at least 1", strings.Join(op.Args, " "))
				}
				bmMate = problem.Mate(n)
				continue
			}
			moves, err := record.ParseMoves(&rec.Pos, op.Args, false)
			if err != nil {
				return fmt.Errorf("bm: %w", err)
			}
			rec.Claim.Keys = moves
		case "stip":
			st, err := problem.Parse(strings.Join(op.Args, " "))
			if err != nil {
				return err
			}
			if st.IsDirectMate() {
				stipMate = problem.Mate(st.Moves)
				continue
			}
			rec.Stip = st
		case "am":
			moves, err := record.ParseMoves(&rec.Pos, op.Args, false)
			if err != nil {
				rec.Warnf("am: %v; ignored", err)
				continue
			}
			rec.Claim.Avoid = moves
		case "pv", "PV:":
			moves, err := record.ParseMoves(&rec.Pos, op.Args, true)
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
			if record.IsComment(op.Code) && len(op.Args) == 0 {
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
func checkRepeats(rec *record.Record) error {
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
