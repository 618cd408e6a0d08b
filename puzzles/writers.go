package puzzles

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Writer writes outcomes in one output format. Render does the formatting
// and is safe to call from many goroutines (the batch workers call it), so
// Write, called in input order from one goroutine, only copies bytes.
type Writer interface {
	Render(o *Outcome) []byte
	Write(o *Outcome) error
	// Close finishes the output (the HTML page needs the summary).
	Close(s *Summary) error
}

// Output formats.
const (
	FormatText  = "text"
	FormatEPDs  = "epd"
	FormatJSONL = "jsonl"
	FormatCSV   = "csv"
	FormatHTML  = "html"
)

// WriterOptions say how a writer starts its output.
type WriterOptions struct {
	// Appending says the output continues an existing file (--resume): no
	// CSV header or shard marker then.
	Appending bool
	// Shard is the shard of a sharded run (Count > 1): JSONL and EPD
	// outputs start with a marker line, CSV names it in the header's last
	// column and gives it in each row, so that merge knows each file.
	Shard Shard
	// Report describes the run, for the HTML report's header.
	Report ReportInfo
}

// NewWriter returns a writer for format.
func NewWriter(format string, w io.Writer, o WriterOptions) (Writer, error) {
	sharded := o.Shard.Count > 1
	var first []byte
	if sharded && !o.Appending {
		first = []byte(ShardMarker(format, o.Shard))
	}
	switch format {
	case FormatText:
		return &streamWriter{w: w, render: func(b *bytes.Buffer, o *Outcome) { o.WriteText(b) }}, nil
	case FormatJSONL:
		return &streamWriter{w: w, header: first, render: func(b *bytes.Buffer, o *Outcome) { o.WriteJSON(b) }}, nil
	case FormatEPDs:
		return &streamWriter{w: w, header: first, render: func(b *bytes.Buffer, o *Outcome) { writeEPD(b, o) }}, nil
	case FormatCSV:
		shardCell := ""
		if sharded {
			shardCell = o.Shard.String()
		}
		sw := &streamWriter{w: w, render: func(b *bytes.Buffer, out *Outcome) { renderCSV(b, out, shardCell) }}
		if !o.Appending {
			header := CSVHeader
			if sharded {
				header = append(append([]string(nil), CSVHeader...), csvShardPrefix+o.Shard.String())
			}
			var b bytes.Buffer
			cw := csv.NewWriter(&b)
			cw.Write(header)
			cw.Flush()
			sw.header = b.Bytes()
		}
		return sw, nil
	case FormatHTML:
		return newHTMLWriter(w, o.Report)
	}
	return nil, fmt.Errorf("unknown format %q (want text, epd, jsonl, csv or html)", format)
}

// streamWriter writes one rendered chunk per outcome.
type streamWriter struct {
	w      io.Writer
	render func(b *bytes.Buffer, o *Outcome)
	header []byte // written before the first outcome
}

func (s *streamWriter) Render(o *Outcome) []byte {
	var b bytes.Buffer
	s.render(&b, o)
	return b.Bytes()
}

func (s *streamWriter) Write(o *Outcome) error {
	if s.header != nil {
		if _, err := s.w.Write(s.header); err != nil {
			return err
		}
		s.header = nil
	}
	b := o.Rendered
	if b == nil {
		b = s.Render(o)
	}
	_, err := s.w.Write(b)
	return err
}

// Close writes the header (a CSV header, a shard marker) of an output
// that got no record, so that even an empty shard says which it is.
func (s *streamWriter) Close(*Summary) error {
	if s.header != nil {
		_, err := s.w.Write(s.header)
		s.header = nil
		return err
	}
	return nil
}

// CSVHeader is the first row of CSV output.
var CSVHeader = []string{"id", "line", "fen", "status", "mate", "keys", "pv", "pv_san", "depth", "nodes", "ms",
	"tb_hits", "verdict", "expected_mate", "expected_keys", "error", "warnings"}

func renderCSV(b *bytes.Buffer, o *Outcome, shard string) {
	mate, expMate, expKeys := "", "", ""
	if o.Mate != 0 {
		mate = strconv.Itoa(int(o.Mate))
	}
	if o.Expected != nil {
		if o.Expected.Mate != 0 {
			expMate = strconv.Itoa(int(o.Expected.Mate))
		}
		expKeys = strings.Join(o.Expected.Keys, " ")
	}
	row := []string{o.ID, strconv.Itoa(o.Line), o.FEN, o.Status, mate, strings.Join(o.Keys, " "),
		strings.Join(o.PV, " "), strings.Join(o.PVSAN, " "), strconv.Itoa(o.Depth),
		strconv.FormatUint(o.Nodes, 10), strconv.FormatFloat(o.MS, 'f', 3, 64),
		strconv.FormatUint(o.TBHits, 10), o.Verdict, expMate, expKeys, o.Error, strings.Join(o.Warnings, "; ")}
	if shard != "" {
		row = append(row, shard)
	}
	cw := csv.NewWriter(b)
	cw.Write(row)
	cw.Flush()
}

// writeEPD writes the annotated EPD line: the position, every input
// operation, and the findings (acd, acn, acs, dm or c0 "mated in N" or
// c0 "mate in at most N" for a mate a limit kept from being proved shortest, pv,
// bm, c8 book, c9 verdict). An input operation with an opcode that the
// findings set is replaced; if its text differed it is kept as c7 "was: ...".
func writeEPD(w io.Writer, o *Outcome) error {
	if o.FEN == "" {
		// Unreadable: a comment line that still names the id (for --resume).
		_, err := fmt.Fprintf(w, "%s%s: %s\n", unreadablePrefix, strconv.Quote(o.ID), o.Error)
		return err
	}
	fields := strings.Fields(o.FEN)
	var b strings.Builder
	b.WriteString(strings.Join(fields[:4], " "))
	var found []Op
	if o.Status != StatusError {
		found = append(found,
			Op{"acd", []string{strconv.Itoa(o.Depth)}},
			Op{"acn", []string{strconv.FormatUint(o.Nodes, 10)}},
			Op{"acs", []string{strconv.FormatFloat(o.MS/1000, 'f', 3, 64)}})
		switch {
		case o.Mate > 0:
			found = append(found, Op{"dm", []string{strconv.Itoa(int(o.Mate))}})
		case o.Mate < 0:
			found = append(found, Op{"c0", []string{fmt.Sprintf("mated in %d", -o.Mate)}})
		case o.MateWithin > 0:
			found = append(found, Op{"c0", []string{fmt.Sprintf("mate in at most %d (not proved shortest)", o.MateWithin)}})
		case o.MateWithin < 0:
			found = append(found, Op{"c0", []string{fmt.Sprintf("mated in at most %d (not proved shortest)", -o.MateWithin)}})
		}
		if len(o.PVSAN) > 0 {
			found = append(found, Op{"pv", o.PVSAN})
		}
		if len(o.KeysSAN) > 0 && o.Mate > 0 {
			found = append(found, Op{"bm", o.KeysSAN})
		}
		if len(o.Book) > 0 {
			found = append(found, Op{"c8", []string{"book: " + strings.Join(o.Book, " ")}})
		}
	}
	if o.Verdict != "" {
		v := "verdict: " + o.Verdict
		if o.Error != "" {
			v += ": " + o.Error
		}
		found = append(found, Op{"c9", []string{v}})
	}
	set := map[string]Op{}
	for _, op := range found {
		set[op.Code] = op
	}
	var was []string
	var ops []Op
	if o.Record != nil {
		ops = append(ops, o.Record.Ops...)
	}
	hasID := false
	for _, op := range ops {
		hasID = hasID || op.Code == "id"
	}
	if !hasID {
		ops = append([]Op{{"id", []string{o.ID}}}, ops...)
	}
	written := map[string]bool{}
	for _, op := range ops {
		if f, ok := set[op.Code]; ok {
			if !written[op.Code] {
				writeOp(&b, f)
				written[op.Code] = true
			}
			if opText(op) != opText(f) {
				was = append(was, opText(op))
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
		writeOp(&b, Op{"c7", []string{"was: " + strings.Join(was, "; ")}})
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// unreadablePrefix starts the EPD comment line written for a record that
// could not be read.
const unreadablePrefix = "# unreadable id "

func opText(op Op) string {
	var b strings.Builder
	writeOpBody(&b, op)
	return b.String()
}

func writeOp(b *strings.Builder, op Op) {
	b.WriteByte(' ')
	writeOpBody(b, op)
	b.WriteByte(';')
}

func writeOpBody(b *strings.Builder, op Op) {
	b.WriteString(op.Code)
	for _, a := range op.Args {
		b.WriteByte(' ')
		if a == "" || strings.ContainsAny(a, " ;\"\t\\") || isComment(op.Code) || op.Code == "id" {
			b.WriteString(epdQuote(a))
		} else {
			b.WriteString(a)
		}
	}
}

func isComment(code string) bool {
	return len(code) == 2 && code[0] == 'c' && code[1] >= '0' && code[1] <= '9'
}

// epdQuote quotes an EPD string operand: only '"' and '\\' are escaped,
// as EPD readers (ours among them) expect, so that every byte of the text,
// valid UTF-8 or not, reads back the same. Line breaks, which cannot
// occur in a string read from one line, become spaces.
func epdQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n', '\r':
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
