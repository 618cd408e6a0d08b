package batch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/report"
)

// doneSet is the set of ids already in an output file, kept as sorted
// hashes: 8 bytes per id.
type doneSet struct {
	hashes []uint64
	// shard is the shard the output says it holds (Count 0: none).
	shard Shard
	// summary counts the records already there, for the run's summary.
	summary *report.Summary
}

// has reports whether id is done.
func (d *doneSet) has(id string) bool {
	_, ok := slices.BinarySearch(d.hashes, puzzles.IDHash(id))
	return ok
}

// len returns the number of ids.
func (d *doneSet) len() int { return len(d.hashes) }

// prepareResume reads the results already in f, an output of the given
// format open for reading and writing: it cuts off a last line left
// half-written by a crash and leaves f at its end, ready to append. It
// returns the ids done, the shard the output holds, and their summary.
func prepareResume(f *os.File, format report.Format, validate bool) (*doneSet, error) {
	if err := cutPartialLine(f); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	d := &doneSet{summary: report.NewSummary(validate)}
	r, err := report.NewReader(f, format)
	if err == nil {
		d.shard, err = parseShardLabel(r.Shard())
	}
	for err == nil {
		var l report.Line
		if l, err = r.Next(); err == nil {
			d.hashes = append(d.hashes, puzzles.IDHash(l.ID))
			d.summary.Count(l.Status, l.Verdict)
		}
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

func cutPartialLine(f *os.File) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	// Look back for the last newline.
	size := st.Size()
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		start := max(end-int64(len(buf)), 0)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && err != io.EOF {
			return err
		}
		if i := strings.LastIndexByte(string(buf[:n]), '\n'); i >= 0 {
			if cut := start + int64(i) + 1; cut != size {
				return f.Truncate(cut)
			}
			return nil
		}
		end = start
	}
	return f.Truncate(0)
}
