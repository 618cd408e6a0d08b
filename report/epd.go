package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
)

// EPD writes the annotated EPD line: the position, every input
// operation, and the findings (acd, acn, acs, dm or c0 "mated in N" or
// c0 "mate in at most N" for a mate a limit kept from being proved shortest,
// c0 "no mate in N or fewer" for a capped search, pv,
// bm, c8 book, c9 verdict). An input operation with an opcode that the
// findings set is replaced; if its text differed it is kept as c7 "was: ...".
func EPD(w io.Writer, o *puzzles.Answer) error {
	if o.FEN == "" {
		// Unreadable: a comment line that still names the id (for
		// --resume), with the reason and the line as it was.
		input := ""
		if o.Input != nil && o.Input.Input != "" {
			input = " (the line: " + strconv.Quote(truncate(oneLine.Replace(o.Input.Input), 500)) + ")"
		}
		_, err := fmt.Fprintf(w, "%s%s: %s%s\n", unreadablePrefix, strconv.Quote(o.ID), o.Error, input)
		return err
	}
	fields := strings.Fields(o.FEN)
	var b strings.Builder
	b.WriteString(strings.Join(fields[:4], " "))
	var found []record.Op
	if o.Status != puzzles.StatusError {
		found = append(found,
			record.Op{Code: "acd", Args: []string{strconv.Itoa(o.Depth)}},
			record.Op{Code: "acn", Args: []string{strconv.FormatUint(o.Nodes, 10)}},
			record.Op{Code: "acs", Args: []string{strconv.FormatFloat(o.MS/1000, 'f', 3, 64)}})
		switch {
		case o.Mate > 0:
			found = append(found, record.Op{Code: "dm", Args: []string{strconv.Itoa(int(o.Mate))}})
		case o.Mate < 0:
			found = append(found, record.Op{Code: "c0", Args: []string{fmt.Sprintf("mated in %d", -o.Mate)}})
		case o.MateWithin > 0:
			found = append(found, record.Op{Code: "c0", Args: []string{fmt.Sprintf("mate in at most %d (not proved shortest)", o.MateWithin)}})
		case o.MateWithin < 0:
			found = append(found, record.Op{Code: "c0", Args: []string{fmt.Sprintf("mated in at most %d (not proved shortest)", -o.MateWithin)}})
		case o.Status == puzzles.StatusCapped && o.Stipulation == "":
			found = append(found, record.Op{Code: "c0", Args: []string{fmt.Sprintf("no mate in %d or fewer (longer not looked for)", o.Depth)}})
		case o.Status == puzzles.StatusNoMate && o.Stipulation == "" && o.Note == "":
			found = append(found, record.Op{Code: "c0", Args: []string{"no mate at any length"}})
		}
		if len(o.PVSAN) > 0 {
			found = append(found, record.Op{Code: "pv", Args: o.PVSAN})
		}
		if len(o.KeysSAN) > 0 && o.Mate > 0 {
			found = append(found, record.Op{Code: "bm", Args: o.KeysSAN})
		}
		if len(o.Book) > 0 {
			found = append(found, record.Op{Code: "c8", Args: []string{"book: " + strings.Join(o.Book, " ")}})
		}
		if o.Stipulation != "" {
			// a problem: its stipulation (an EPD of a Popeye file reads
			// back), what was found and its keys
			found = append(found, record.Op{Code: "stip", Args: []string{o.Stipulation}},
				record.Op{Code: "c0", Args: []string{problemSummary(o)}})
			if len(o.KeysSAN) > 0 {
				found = append(found, record.Op{Code: "bm", Args: o.KeysSAN})
			}
		}
	}
	if o.Verdict != "" {
		v := "verdict: " + string(o.Verdict)
		if why := verdictReason(o); why != "" {
			v += ": " + why
		}
		found = append(found, record.Op{Code: "c9", Args: []string{v}})
	}
	set := map[string]record.Op{}
	for _, op := range found {
		set[op.Code] = op
	}
	var was []string
	var ops []record.Op
	if o.Input != nil {
		ops = append(ops, o.Input.Ops...)
	}
	hasID := false
	for _, op := range ops {
		hasID = hasID || op.Code == "id"
	}
	if !hasID {
		ops = append([]record.Op{{Code: "id", Args: []string{o.ID}}}, ops...)
	}
	written := map[string]bool{}
	for _, op := range ops {
		if f, ok := set[op.Code]; ok {
			if !written[op.Code] {
				writeOp(&b, f)
				written[op.Code] = true
			}
			if op.String() != f.String() {
				was = append(was, op.String())
			}
			continue
		}
		writeOp(&b, op)
	}
	for _, op := range found {
		if !written[op.Code] {
			writeOp(&b, op)
		}
	}
	if len(was) > 0 {
		writeOp(&b, record.Op{Code: "c7", Args: []string{"was: " + strings.Join(was, "; ")}})
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// unreadablePrefix starts the EPD comment line written for a record that
// could not be read.
const unreadablePrefix = "# unreadable id "

// writeOp writes an operation of an EPD line, with its separators.
func writeOp(b *strings.Builder, op record.Op) {
	b.WriteByte(' ')
	b.WriteString(op.String())
	b.WriteByte(';')
}
