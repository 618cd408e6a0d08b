package record

import (
	"errors"
	"fmt"
	"io"
)

// Reader yields records one at a time; Next returns io.EOF at the end.
// NextRaw yields the same records unparsed, for parsing elsewhere.
type Reader interface {
	Next() (Record, error)
	NextRaw() (Raw, error)
}

// Raw is a record read but not yet parsed. Parse may run on any goroutine.
type Raw struct {
	line  int
	text  string
	parse func(line int, text string) Record
	rec   *Record // already known (a line too long to parse)
	after func(*Record)
}

// NewRaw is the raw record of the text at line, which parse turns into
// its record. A reader's NextRaw returns it so that parsing can happen on
// another goroutine: parse must only read what the reader holds.
func NewRaw(line int, text string, parse func(line int, text string) Record) Raw {
	return Raw{line: line, text: text, parse: parse}
}

// RawRecord wraps a record that needs no parsing.
func RawRecord(rec Record) Raw { return Raw{rec: &rec} }

// Then returns r with f applied to the record after parsing.
func (r Raw) Then(f func(*Record)) Raw {
	prev := r.after
	r.after = func(rec *Record) {
		if prev != nil {
			prev(rec)
		}
		f(rec)
	}
	return r
}

// Parse turns the raw line into its record.
func (r Raw) Parse() Record {
	var rec Record
	if r.rec != nil {
		rec = *r.rec
	} else {
		rec = r.parse(r.line, r.text)
	}
	if r.after != nil {
		r.after(&rec)
	}
	return rec
}

// ParseNext reads one raw record with next and parses it: the Next of
// every reader.
func ParseNext(next func() (Raw, error)) (Record, error) {
	raw, err := next()
	if err != nil {
		return Record{}, err
	}
	return raw.Parse(), nil
}

// TooLongRaw is the record of a line over MaxLineBytes.
func TooLongRaw(source string, line int) Raw {
	return RawRecord(ErrorRecord(source, line, fmt.Errorf("line longer than %d bytes", MaxLineBytes)))
}

// ReadAll reads every record r yields, for inputs small enough to hold in
// memory. The error is an I/O error; unreadable lines are records.
func ReadAll(r Reader) ([]Record, error) {
	var recs []Record
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
}
