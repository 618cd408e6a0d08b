package puzzles

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// IDHash is the stable 64-bit hash of a puzzle id (FNV-1a), used for
// shards and for the set of ids already done. Ids are hashed as the output
// formats write them back: each byte that is not valid UTF-8 counts as
// U+FFFD, as JSON writes it, so an id such as "caf\xe9" is the same id
// after a round trip through any writer.
func IDHash(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(canonicalID(id)))
	return h.Sum64()
}

// canonicalID replaces each byte of id that is not valid UTF-8 by U+FFFD.
func canonicalID(id string) string {
	if utf8.ValidString(id) {
		return id
	}
	var b strings.Builder
	for i := 0; i < len(id); {
		r, size := utf8.DecodeRuneInString(id[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(id[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Shard selects the records of shard Index out of Count by the hash of
// their id, so the split is stable across runs and machines.
type Shard struct{ Index, Count int }

// Contains reports whether the record with this id belongs to the shard.
func (s Shard) Contains(id string) bool {
	return s.Count <= 1 || int(IDHash(id)%uint64(s.Count)) == s.Index
}

// String is "i/n", as --shard takes it.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// DoneSet is the set of ids already in an output file, kept as sorted
// hashes: 8 bytes per id.
type DoneSet struct {
	hashes []uint64
	// Shard is the shard the output says it holds (Count 0: none).
	Shard Shard
	// Summary counts the records already there, for the run's summary.
	Summary *Summary
}

// Has reports whether id is done.
func (d *DoneSet) Has(id string) bool {
	_, ok := slices.BinarySearch(d.hashes, IDHash(id))
	return ok
}

// Len returns the number of ids.
func (d *DoneSet) Len() int { return len(d.hashes) }

// PrepareResume reads the results already in f, an output of the given
// format open for reading and writing: it cuts off a last line left
// half-written by a crash and leaves f at its end, ready to append. It
// returns the ids done, the shard the output holds, and their summary.
func PrepareResume(f *os.File, format string, validate bool) (*DoneSet, error) {
	if err := cutPartialLine(f); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	d := &DoneSet{Summary: NewSummary(validate)}
	err := readRecords(f, format, func(l outputLine) {
		d.hashes = append(d.hashes, IDHash(l.id))
		d.Summary.Status[l.status]++
		if l.verdict != "" {
			d.Summary.Verdict[l.verdict]++
		}
		d.Summary.Positions++
	}, func(sh Shard) { d.Shard = sh })
	if err != nil {
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

// readRecords reads an output file of the given format and calls each for
// every record line, and shard for a shard marker.
func readRecords(r io.Reader, format string, each func(outputLine), shard func(Shard)) error {
	or, err := newOutputReader(r, format)
	if err != nil {
		return err
	}
	if or.shard.Count > 0 {
		shard(or.shard)
	}
	for {
		l, err := or.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		each(l)
	}
}

// csvLine writes a CSV row back as one line.
func csvLine(row []string) string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(row)
	w.Flush()
	return strings.TrimRight(b.String(), "\r\n")
}
