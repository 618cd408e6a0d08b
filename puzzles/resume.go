package puzzles

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// IDHash is the stable 64-bit hash of a puzzle id (FNV-1a), used for
// shards and for the set of ids already done.
func IDHash(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

// Shard selects the records of shard Index out of Count by the hash of
// their id, so the split is stable across runs and machines.
type Shard struct{ Index, Count int }

// Contains reports whether the record with this id belongs to the shard.
func (s Shard) Contains(id string) bool {
	return s.Count <= 1 || int(IDHash(id)%uint64(s.Count)) == s.Index
}

// DoneSet is the set of ids already in an output file, kept as sorted
// hashes: 8 bytes per id.
type DoneSet struct{ hashes []uint64 }

// Has reports whether id is done.
func (d *DoneSet) Has(id string) bool {
	_, ok := slices.BinarySearch(d.hashes, IDHash(id))
	return ok
}

// Len returns the number of ids.
func (d *DoneSet) Len() int { return len(d.hashes) }

// PrepareResume reads the ids already written to an output file of the
// given format and cuts off a last line left half-written by a crash, so
// the file can be appended to. A missing file is an empty set.
func PrepareResume(path, format string) (*DoneSet, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return &DoneSet{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := cutPartialLine(f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	ids, err := readIDs(f, format)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d := &DoneSet{}
	for _, id := range ids {
		d.hashes = append(d.hashes, IDHash(id))
	}
	slices.Sort(d.hashes)
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

// readIDs lists the ids in an output file.
func readIDs(r io.Reader, format string) ([]string, error) {
	var ids []string
	switch format {
	case FormatJSONL:
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for line := 1; sc.Scan(); line++ {
			var rec struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				return nil, fmt.Errorf("line %d: %v", line, err)
			}
			ids = append(ids, rec.ID)
		}
		return ids, sc.Err()
	case FormatCSV:
		cr := csv.NewReader(r)
		cr.FieldsPerRecord = -1
		header := true
		for {
			row, err := cr.Read()
			if errors.Is(err, io.EOF) {
				return ids, nil
			}
			if err != nil {
				return nil, err
			}
			if header {
				header = false
				continue
			}
			ids = append(ids, row[0])
		}
	case FormatEPDs:
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), MaxLineBytes*2)
		for line := 1; sc.Scan(); line++ {
			text := sc.Text()
			if rest, ok := strings.CutPrefix(text, unreadablePrefix); ok {
				if id, err := strconv.QuotedPrefix(rest); err == nil {
					unq, _ := strconv.Unquote(id)
					ids = append(ids, unq)
				}
				continue
			}
			if rec := ParseEPDLine("output", line, text); rec.Err == nil {
				ids = append(ids, rec.ID)
			}
		}
		return ids, sc.Err()
	}
	return nil, fmt.Errorf("--resume needs an output format that records ids (jsonl, csv or epd), not %s", format)
}
