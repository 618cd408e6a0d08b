package puzzles

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// outputLine is one record of an output file: its id, what it found, and
// its text as written (a CSV row rewritten as one line).
type outputLine struct {
	id      string
	text    string
	status  string
	verdict string
}

// outputReader reads the records of an output file (jsonl, csv or epd) one
// at a time, with the shard marker a sharded run wrote first.
type outputReader struct {
	format  string
	sc      *bufio.Scanner
	cr      *csv.Reader
	line    int
	shard   Shard    // Count 0: no marker
	header  []string // CSV
	pending *string  // a first line that was not a marker
}

const (
	jsonShardKey   = "mateline_shard"
	epdShardPrefix = "# mateline shard "
	csvShardPrefix = "shard "
)

// ShardMarker returns the line that starts a shard's output in format
// (jsonl, epd), or "" for csv, whose header carries it ("shard i/n" as
// the last column).
func ShardMarker(format string, sh Shard) string {
	switch format {
	case FormatJSONL:
		return fmt.Sprintf("{%q:%q}\n", jsonShardKey, sh.String())
	case FormatEPDs:
		return epdShardPrefix + sh.String() + "\n"
	}
	return ""
}

// parseShardText reads "i/n".
func parseShardText(s string) (Shard, bool) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Shard{}, false
	}
	sh := Shard{}
	var err1, err2 error
	sh.Index, err1 = strconv.Atoi(i)
	sh.Count, err2 = strconv.Atoi(n)
	if err1 != nil || err2 != nil || sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
		return Shard{}, false
	}
	return sh, true
}

func newOutputReader(r io.Reader, format string) (*outputReader, error) {
	or := &outputReader{format: format}
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
			sh, ok := parseShardText(strings.TrimPrefix(last, csvShardPrefix))
			if !ok {
				return nil, fmt.Errorf("bad shard marker %q in the header", last)
			}
			or.shard = sh
		}
		return or, nil
	case FormatJSONL, FormatEPDs:
		or.sc = bufio.NewScanner(r)
		or.sc.Buffer(make([]byte, 1<<20), 64<<20)
		if !or.sc.Scan() {
			return or, or.sc.Err()
		}
		or.line = 1
		first := or.sc.Text()
		if sh, ok, err := or.marker(first); err != nil {
			return nil, err
		} else if ok {
			or.shard = sh
		} else {
			or.pending = &first
		}
		return or, nil
	}
	return nil, fmt.Errorf("output format %s records no ids (want jsonl, csv or epd)", format)
}

// marker reads a shard marker line.
func (or *outputReader) marker(text string) (Shard, bool, error) {
	switch or.format {
	case FormatJSONL:
		if !strings.Contains(text, jsonShardKey) {
			return Shard{}, false, nil
		}
		var m map[string]string
		if json.Unmarshal([]byte(text), &m) != nil || len(m) != 1 {
			return Shard{}, false, nil
		}
		sh, ok := parseShardText(m[jsonShardKey])
		if !ok {
			return Shard{}, false, fmt.Errorf("line 1: bad shard marker %q", text)
		}
		return sh, true, nil
	case FormatEPDs:
		rest, found := strings.CutPrefix(text, epdShardPrefix)
		if !found {
			return Shard{}, false, nil
		}
		sh, ok := parseShardText(rest)
		if !ok {
			return Shard{}, false, fmt.Errorf("line 1: bad shard marker %q", text)
		}
		return sh, true, nil
	}
	return Shard{}, false, nil
}

// next returns the next record, or io.EOF.
func (or *outputReader) next() (outputLine, error) {
	if or.cr != nil {
		if or.header == nil {
			return outputLine{}, io.EOF
		}
		row, err := or.cr.Read()
		if err != nil {
			return outputLine{}, err
		}
		l := outputLine{id: row[0], text: csvLine(row)}
		if len(row) > 12 {
			l.status, l.verdict = row[3], row[12]
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
					return outputLine{}, err
				}
				return outputLine{}, io.EOF
			}
			or.line++
			text = or.sc.Text()
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		l, ok, err := or.parse(text)
		if err != nil {
			return outputLine{}, fmt.Errorf("line %d: %v", or.line, err)
		}
		if ok {
			return l, nil
		}
	}
}

// parse reads one line of a jsonl or epd output; ok is false for a line
// that holds no record (an EPD comment).
func (or *outputReader) parse(text string) (outputLine, bool, error) {
	if or.format == FormatJSONL {
		var rec struct {
			ID      *string `json:"id"`
			Status  string  `json:"status"`
			Verdict string  `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(text), &rec); err != nil {
			return outputLine{}, false, err
		}
		if rec.ID == nil {
			return outputLine{}, false, errors.New("a record without an id")
		}
		return outputLine{id: *rec.ID, text: text, status: rec.Status, verdict: rec.Verdict}, true, nil
	}
	if rest, ok := strings.CutPrefix(text, unreadablePrefix); ok {
		id, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return outputLine{}, false, fmt.Errorf("an unreadable-record line without an id: %q", truncate(text, 60))
		}
		unq, _ := strconv.Unquote(id)
		return outputLine{id: unq, text: text, status: StatusError}, true, nil
	}
	if strings.HasPrefix(strings.TrimSpace(text), "#") {
		return outputLine{}, false, nil
	}
	rec := ParseEPDLine("output", or.line, text)
	if rec.Err != nil {
		return outputLine{}, false, fmt.Errorf("not an annotated EPD record: %v", rec.Err)
	}
	l := outputLine{id: rec.ID, text: text}
	for _, op := range rec.Ops {
		if op.Code == "c9" && len(op.Args) > 0 {
			v, _, _ := strings.Cut(strings.TrimPrefix(op.Args[0], "verdict: "), ":")
			l.verdict = v
		}
	}
	return l, true, nil
}
