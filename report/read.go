package report

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/pgn"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/puzzles"
)

// Line is one record of an output file, as read back: its id, what it
// found, and its text as written (a CSV row rewritten as one line). A text
// record has no id field: its Name is its first line, which begins with
// the record's SOURCE:LINE.
type Line struct {
	ID      string
	Name    string
	Text    string
	Status  puzzles.Status
	Verdict puzzles.Verdict
}

// Reader reads the records of an output file (jsonl, csv, epd, pgn or
// text) one at a time, with the shard marker a sharded run wrote first.
type Reader struct {
	format  Format
	sc      *bufio.Scanner
	cr      *csv.Reader
	sp      *pgn.Splitter // PGN
	line    int
	shard   string   // the marker's "i/n"; empty: no marker
	header  []string // CSV
	pending *string  // a first line that was not a marker
}

// The shard markers (docs/formats.md).
const (
	jsonShardKey   = "mateline_shard"
	epdShardPrefix = "# mateline shard "
	csvShardPrefix = "shard "
	pgnShardPrefix = "% mateline shard " // a PGN escape line: readers skip it
)

// shardMarker returns the line that starts a shard's output in format
// (jsonl, epd), or "" for csv, whose header carries it ("shard i/n" as
// the last column). shard is "i/n".
func shardMarker(format Format, shard string) string {
	switch format {
	case FormatJSONL:
		return fmt.Sprintf("{%q:%q}\n", jsonShardKey, shard)
	case FormatEPD:
		return epdShardPrefix + shard + "\n"
	case FormatPGN:
		return pgnShardPrefix + shard + "\n"
	}
	return ""
}

// NewReader reads an output file of a format that keeps ids.
func NewReader(r io.Reader, format Format) (*Reader, error) {
	or := &Reader{format: format}
	switch format {
	case FormatCSV:
		or.cr = csv.NewReader(bufio.NewReaderSize(r, 64<<10))
		or.cr.FieldsPerRecord = -1
		h, err := or.cr.Read()
		if errors.Is(err, io.EOF) {
			return or, nil
		}
		if err != nil {
			return nil, err
		}
		or.header = h
		if last := h[len(h)-1]; strings.HasPrefix(last, csvShardPrefix) {
			or.shard = strings.TrimPrefix(last, csvShardPrefix)
		}
		return or, nil
	case FormatText:
		or.sc = bufio.NewScanner(r)
		or.sc.Buffer(make([]byte, 1<<20), 64<<20)
		return or, nil
	case FormatPGN:
		br := bufio.NewReaderSize(r, 64<<10)
		if first, err := br.Peek(len(pgnShardPrefix)); err == nil && string(first) == pgnShardPrefix {
			line, _ := br.ReadString('\n')
			or.shard = strings.TrimSpace(strings.TrimPrefix(line, pgnShardPrefix))
		}
		or.sp = pgn.NewSplitter(br)
		return or, nil
	case FormatJSONL, FormatEPD:
		or.sc = bufio.NewScanner(r)
		or.sc.Buffer(make([]byte, 1<<20), 64<<20)
		if !or.sc.Scan() {
			return or, or.sc.Err()
		}
		or.line = 1
		first := or.sc.Text()
		if sh, ok := or.marker(first); ok {
			or.shard = sh
		} else {
			or.pending = &first
		}
		return or, nil
	}
	return nil, fmt.Errorf("output format %s cannot be read back (want jsonl, csv, epd or text)", format)
}

// Shard is the "i/n" of the file's shard marker, or "" when it has none.
func (or *Reader) Shard() string { return or.shard }

// Columns are the CSV header's columns without the shard column.
func (or *Reader) Columns() []string {
	if or.shard != "" && len(or.header) > 0 {
		return or.header[:len(or.header)-1]
	}
	return or.header
}

// marker reads a shard marker line.
func (or *Reader) marker(text string) (string, bool) {
	switch or.format {
	case FormatJSONL:
		if !strings.Contains(text, jsonShardKey) {
			return "", false
		}
		var m map[string]string
		if json.Unmarshal([]byte(text), &m) != nil || len(m) != 1 {
			return "", false
		}
		return m[jsonShardKey], true
	case FormatEPD:
		return strings.CutPrefix(text, epdShardPrefix)
	}
	return "", false
}

// Next returns the next record, or io.EOF.
func (or *Reader) Next() (Line, error) {
	switch or.format {
	case FormatText:
		return or.nextText()
	case FormatPGN:
		return or.nextPGN()
	}
	if or.cr != nil {
		if or.header == nil {
			return Line{}, io.EOF
		}
		row, err := or.cr.Read()
		if err != nil {
			return Line{}, err
		}
		l := Line{ID: row[0], Text: csvLine(row)}
		// The columns are found by the header, so that a file written
		// before a column was added still reads.
		if i := slices.Index(or.header, "status"); i >= 0 && i < len(row) {
			l.Status = puzzles.Status(row[i])
		}
		if i := slices.Index(or.header, "verdict"); i >= 0 && i < len(row) {
			l.Verdict = puzzles.Verdict(row[i])
		}
		return l, nil
	}
	for {
		var text string
		if or.pending != nil {
			text, or.pending = *or.pending, nil
		} else {
			if !or.sc.Scan() {
				if err := or.sc.Err(); err != nil {
					return Line{}, err
				}
				return Line{}, io.EOF
			}
			or.line++
			text = or.sc.Text()
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		l, ok, err := or.parse(text)
		if err != nil {
			return Line{}, fmt.Errorf("line %d: %v", or.line, err)
		}
		if ok {
			return l, nil
		}
	}
}

// parse reads one line of a jsonl or epd output; ok is false for a line
// that holds no record (an EPD comment).
func (or *Reader) parse(text string) (Line, bool, error) {
	if or.format == FormatJSONL {
		var rec struct {
			ID      *string         `json:"id"`
			Status  puzzles.Status  `json:"status"`
			Verdict puzzles.Verdict `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(text), &rec); err != nil {
			return Line{}, false, err
		}
		if rec.ID == nil {
			return Line{}, false, errors.New("a record without an id")
		}
		return Line{ID: *rec.ID, Text: text, Status: rec.Status, Verdict: rec.Verdict}, true, nil
	}
	if rest, ok := strings.CutPrefix(text, unreadablePrefix); ok {
		id, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return Line{}, false, fmt.Errorf("an unreadable-record line without an id: %q", truncate(text, 60))
		}
		unq, _ := strconv.Unquote(id)
		return Line{ID: unq, Text: text, Status: puzzles.StatusError}, true, nil
	}
	if strings.HasPrefix(strings.TrimSpace(text), "#") {
		return Line{}, false, nil
	}
	rec := epd.ParseLine("output", or.line, text)
	if rec.Err != nil {
		return Line{}, false, fmt.Errorf("not an annotated EPD record: %v", rec.Err)
	}
	l := Line{ID: rec.ID, Text: text}
	for _, op := range rec.Ops {
		if op.Code == "c9" && len(op.Args) > 0 {
			v, _, _ := strings.Cut(strings.TrimPrefix(op.Args[0], "verdict: "), ":")
			l.Verdict = puzzles.Verdict(v)
		}
	}
	return l, true, nil
}

// nextPGN reads the next game of a PGN output: its id, status and verdict
// from its first comment.
func (or *Reader) nextPGN() (Line, error) {
	c, err := or.sp.Next()
	if err != nil {
		return Line{}, err
	}
	m := pgnIDRe.FindStringSubmatch(c.Text)
	if m == nil {
		return Line{}, fmt.Errorf("line %d: a game without the comment that names its record ({mateline: id ...})", c.Line)
	}
	id, err := strconv.Unquote(m[1])
	if err != nil {
		return Line{}, fmt.Errorf("line %d: a bad record id %s", c.Line, m[1])
	}
	// A game that ends with its result is whole; one cut off is not.
	fields := strings.Fields(c.Text)
	if len(fields) == 0 || !isPGNResult(fields[len(fields)-1]) {
		return Line{}, fmt.Errorf("line %d: a game cut off before its result", c.Line)
	}
	return Line{ID: id, Text: c.Text + "\n\n", Status: puzzles.Status(m[2]), Verdict: puzzles.Verdict(m[3])}, nil
}

func isPGNResult(s string) bool { return s == "1-0" || s == "0-1" || s == "1/2-1/2" || s == "*" }

// nextText reads the next text record: its lines up to the blank line that
// ends it.
func (or *Reader) nextText() (Line, error) {
	var lines []string
	for or.sc.Scan() {
		or.line++
		text := or.sc.Text()
		if text == "" {
			if len(lines) > 0 {
				return textLine(lines), nil
			}
			continue
		}
		lines = append(lines, text)
	}
	if err := or.sc.Err(); err != nil {
		return Line{}, err
	}
	if len(lines) > 0 {
		return Line{}, fmt.Errorf("line %d: a text record without the blank line that ends it", or.line)
	}
	return Line{}, io.EOF
}

// textLine reads what a text record (Text) found: its verdict, and its
// status from the finding it states.
func textLine(lines []string) Line {
	l := Line{Name: lines[0], Text: strings.Join(lines, "\n"), Status: puzzles.StatusNoMate}
	for _, s := range lines[1:] {
		switch {
		case strings.HasPrefix(s, "  verdict: "):
			v := strings.TrimPrefix(s, "  verdict: ")
			if i := strings.IndexAny(v, " :"); i >= 0 {
				v = v[:i]
			}
			l.Verdict = puzzles.Verdict(v)
		case strings.HasPrefix(s, "  error: "):
			l.Status = puzzles.StatusError
		case strings.HasPrefix(s, "  mate in "), strings.HasPrefix(s, "  mated in "):
			l.Status = puzzles.StatusMate
		case isProblemFinding(s):
			if !strings.Contains(s, ": no solution") {
				l.Status = puzzles.StatusMate
			}
		case strings.HasPrefix(s, "  limit reached"):
			l.Status = puzzles.StatusLimit
		case strings.HasPrefix(s, "  no mate in "):
			l.Status = puzzles.StatusCapped
		}
	}
	if l.Verdict == puzzles.VerdictSkipped {
		l.Status = puzzles.StatusSkipped
	}
	return l
}

// isProblemFinding reports whether s is the first line of a problem's
// finding ("  h#2: 3 solutions (every one)", "  r#2: 1 key (every one):
// ...", "  2->ser-h#4: ..."): any stipulation but the direct mate, whose
// findings read "mate in N".
func isProblemFinding(s string) bool {
	text, _, ok := strings.Cut(strings.TrimPrefix(s, "  "), ": ")
	if !ok || !strings.HasPrefix(s, "  ") {
		return false
	}
	st, err := problem.Parse(text)
	return err == nil && !st.IsDirectMate()
}

// csvLine writes a CSV row back as one line.
func csvLine(row []string) string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(row)
	w.Flush()
	return strings.TrimRight(b.String(), "\r\n")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
