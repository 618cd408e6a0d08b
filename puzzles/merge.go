package puzzles

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// shardFile is one shard output being merged.
type shardFile struct {
	path   string
	f      *os.File
	r      *outputReader
	peeked *outputLine
}

func (s *shardFile) next() (outputLine, error) {
	if s.peeked != nil {
		l := *s.peeked
		s.peeked = nil
		return l, nil
	}
	l, err := s.r.next()
	if err != nil && !errors.Is(err, io.EOF) {
		return l, fmt.Errorf("%s: %w", s.path, err)
	}
	return l, err
}

func (s *shardFile) peek() (outputLine, error) {
	l, err := s.next()
	if err == nil {
		s.peeked = &l
	}
	return l, err
}

// FormatOfPath guesses an output format from a file name.
func FormatOfPath(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".json", ".ndjson":
		return FormatJSONL, nil
	case ".csv":
		return FormatCSV, nil
	case ".epd":
		return FormatEPDs, nil
	}
	return "", fmt.Errorf("%s: cannot tell the format from the name (want .jsonl, .csv or .epd)", path)
}

// Merge joins the outputs of the shards of one run into w. Every file must
// say which shard it holds ("i/n", written by --shard): merge refuses a set
// where a shard is missing or given twice, naming it, and checks that
// every record belongs to its file's shard and that no id appears twice.
// With inputs (the puzzle files the shards read) the merged output follows
// input order; without, the shards are joined in shard order. It returns
// the number of records written.
func Merge(w io.Writer, paths []string, inputs []string) (int, error) {
	if len(paths) == 0 {
		return 0, errors.New("no shard outputs given")
	}
	format, err := FormatOfPath(paths[0])
	if err != nil {
		return 0, err
	}
	files := make([]*shardFile, 0, len(paths))
	defer func() {
		for _, sf := range files {
			sf.f.Close()
		}
	}()
	count := 0
	byIndex := map[int]*shardFile{}
	var header []string
	for _, p := range paths {
		if f, _ := FormatOfPath(p); f != format {
			return 0, fmt.Errorf("%s: format differs from %s", p, paths[0])
		}
		f, err := os.Open(p)
		if err != nil {
			return 0, err
		}
		r, err := newOutputReader(f, format)
		if err != nil {
			f.Close()
			return 0, fmt.Errorf("%s: %w", p, err)
		}
		sf := &shardFile{path: p, f: f, r: r}
		files = append(files, sf)
		sh := r.shard
		if sh.Count == 0 {
			return 0, fmt.Errorf("%s: not the output of a sharded run (no shard marker; run validate or solve with --shard i/n)", p)
		}
		if count == 0 {
			count = sh.Count
		}
		if sh.Count != count {
			return 0, fmt.Errorf("%s holds shard %s, but %s is one of %d", p, sh, paths[0], count)
		}
		if other := byIndex[sh.Index]; other != nil {
			return 0, fmt.Errorf("shard %s is given twice: %s and %s", sh, other.path, p)
		}
		byIndex[sh.Index] = sf
		if format == FormatCSV {
			h := append([]string(nil), r.header[:len(r.header)-1]...)
			if header != nil && strings.Join(h, ",") != strings.Join(header, ",") {
				return 0, fmt.Errorf("%s: its CSV columns differ from %s", p, paths[0])
			}
			header = h
		}
	}
	var missing []string
	for i := 0; i < count; i++ {
		if byIndex[i] == nil {
			missing = append(missing, fmt.Sprintf("shard %d/%d missing", i, count))
		}
	}
	if len(missing) > 0 {
		return 0, errors.New(strings.Join(missing, ", "))
	}

	bw := bufio.NewWriterSize(w, 64<<10)
	if format == FormatCSV {
		cw := csv.NewWriter(bw)
		cw.Write(append(header, "shard"))
		cw.Flush()
		if err := cw.Error(); err != nil {
			return 0, err
		}
	}
	seen := &seenIDs{}
	written := 0
	take := func(sf *shardFile, l outputLine) error {
		if int(IDHash(l.id)%uint64(count)) != sf.r.shard.Index {
			return fmt.Errorf("%s: id %q belongs to shard %d/%d, not %s", sf.path, l.id, IDHash(l.id)%uint64(count), count, sf.r.shard)
		}
		if seen.addIsDup(l.id) {
			return fmt.Errorf("%s: id %q appears twice", sf.path, l.id)
		}
		if _, err := bw.WriteString(l.text + "\n"); err != nil {
			return err
		}
		written++
		return nil
	}
	if len(inputs) > 0 {
		// Walk the inputs; each record's shard file must hold it next, or
		// not at all (a record the run skipped).
		if err := eachInputID(inputs, func(id string) error {
			sf := byIndex[int(IDHash(id)%uint64(count))]
			l, err := sf.peek()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if l.id != id {
				return nil
			}
			sf.next()
			return take(sf, l)
		}); err != nil {
			return written, err
		}
	}
	indexes := make([]int, 0, count)
	for i := range byIndex {
		indexes = append(indexes, i)
	}
	sort.Ints(indexes)
	for _, i := range indexes {
		sf := byIndex[i]
		for {
			l, err := sf.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return written, err
			}
			if len(inputs) > 0 {
				return written, fmt.Errorf("%s: id %q is not in the inputs, or out of order", sf.path, l.id)
			}
			if err := take(sf, l); err != nil {
				return written, err
			}
		}
	}
	return written, bw.Flush()
}

// seenIDs detects duplicate ids with 8 bytes per id.
type seenIDs struct{ m map[uint64]struct{} }

func (s *seenIDs) addIsDup(id string) bool {
	if s.m == nil {
		s.m = map[uint64]struct{}{}
	}
	h := IDHash(id)
	if _, ok := s.m[h]; ok {
		return true
	}
	s.m[h] = struct{}{}
	return false
}
