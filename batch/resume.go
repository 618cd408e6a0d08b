package batch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"mateline.dev/mateline/record"
	"mateline.dev/mateline/report"
)

// doneSet is the set of records already in an output file, kept as
// sorted hashes: 8 bytes per record. Records are known by their id, or in
// a text output by their SOURCE:LINE.
type doneSet struct {
	hashes []uint64
	byName bool // a text output
	// shard is the shard the output says it holds (Count 0: none).
	shard Shard
	// summary counts the records already there, for the run's summary.
	summary *report.Summary
}

// has reports whether rec is done.
func (d *doneSet) has(rec *record.Record) bool {
	key := rec.ID
	if d.byName {
		key = fmt.Sprintf("%s:%d", rec.Source, rec.Line)
	}
	_, ok := slices.BinarySearch(d.hashes, record.IDHash(key))
	return ok
}

// len returns the number of records.
func (d *doneSet) len() int { return len(d.hashes) }

// prepareResume reads the results already in f, an output of the given
// format open for reading and writing: it cuts off a last record left
// half-written by a kill and leaves f at its end, ready to append. It
// returns the records done, the shard the output holds, and their summary.
// sources are the run's inputs ("--fen" for positions given as flags),
// which a text record names.
func prepareResume(f *os.File, format report.Format, validate bool, sources []string) (*doneSet, error) {
	if err := cutTorn(f, format.Terminator()); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	d := &doneSet{summary: report.NewSummary(validate), byName: format == report.FormatText}
	r, err := report.NewReader(f, format)
	if err == nil {
		d.shard, err = parseShardLabel(r.Shard())
	}
	for err == nil {
		var l report.Line
		if l, err = r.Next(); err != nil {
			break
		}
		key := l.ID
		if d.byName {
			var ok bool
			if key, ok = sourceLine(l.Name, sources); !ok {
				err = fmt.Errorf("the record %q is not from these inputs (%s)", l.Name, strings.Join(sources, ", "))
				break
			}
		}
		d.hashes = append(d.hashes, record.IDHash(key))
		d.summary.Count(l.Status, l.Verdict)
	}
	if !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	slices.Sort(d.hashes)
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		return nil, err
	}
	return d, nil
}

// sourceLine reads the SOURCE:LINE that a text record's first line begins
// with, for one of the sources (the longest that fits).
func sourceLine(name string, sources []string) (string, bool) {
	best := ""
	for _, src := range sources {
		rest, ok := strings.CutPrefix(name, src+":")
		if !ok || len(src) < len(best) {
			continue
		}
		digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
		if digits == 0 || digits < len(rest) && rest[digits] != ' ' {
			continue
		}
		best = src + ":" + rest[:digits]
	}
	return best, best != ""
}

// cutTorn cuts the file after the last terminator (the end of the last
// complete record): what follows was cut off by a kill.
func cutTorn(f *os.File, terminator string) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	size := st.Size()
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		start := max(end-int64(len(buf)), 0)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && err != io.EOF {
			return err
		}
		if i := strings.LastIndex(string(buf[:n]), terminator); i >= 0 {
			if cut := start + int64(i+len(terminator)); cut != size {
				return f.Truncate(cut)
			}
			return nil
		}
		// A terminator across the chunk boundary is found in the next
		// (earlier) chunk, which overlaps by its length.
		end = start + int64(len(terminator)-1)
		if start == 0 {
			break
		}
	}
	return f.Truncate(0)
}
