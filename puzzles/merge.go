package puzzles

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// outputLine is one record line of a shard output: its id and raw text.
type outputLine struct {
	id   string
	text string
}

// shardFile reads the record lines of one shard output in order.
type shardFile struct {
	path   string
	format string
	sc     *bufio.Scanner
	f      *os.File
	header string // CSV header line
	peeked *outputLine
}

func openShardFile(path, format string) (*shardFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	s := &shardFile{path: path, format: format, sc: sc, f: f}
	if format == FormatCSV && sc.Scan() {
		s.header = sc.Text()
	}
	return s, nil
}

// next returns the next record line, or io.EOF.
func (s *shardFile) next() (outputLine, error) {
	if s.peeked != nil {
		l := *s.peeked
		s.peeked = nil
		return l, nil
	}
	for s.sc.Scan() {
		text := s.sc.Text()
		if strings.TrimSpace(text) == "" {
			continue
		}
		ids, err := readIDs(strings.NewReader(s.headerPrefix()+text+"\n"), s.format)
		if err != nil {
			return outputLine{}, fmt.Errorf("%s: %w", s.path, err)
		}
		if len(ids) != 1 {
			return outputLine{}, fmt.Errorf("%s: a line without a record id: %q", s.path, truncate(text, 60))
		}
		return outputLine{ids[0], text}, nil
	}
	if err := s.sc.Err(); err != nil {
		return outputLine{}, err
	}
	return outputLine{}, io.EOF
}

func (s *shardFile) peek() (outputLine, error) {
	l, err := s.next()
	if err == nil {
		s.peeked = &l
	}
	return l, err
}

func (s *shardFile) headerPrefix() string {
	if s.format == FormatCSV {
		return strings.Join(CSVHeader, ",") + "\n"
	}
	return ""
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

// Merge joins the outputs of the n shards of one run (n = len(paths)) into
// w. It checks that each file holds the ids of exactly one shard, that
// every shard is present, and that no id appears twice. With inputs (the
// puzzle files the shards read), the merged output follows input order;
// without, the files are joined in shard order.
func Merge(w io.Writer, paths []string, inputs []string) (int, error) {
	n := len(paths)
	if n == 0 {
		return 0, errors.New("no shard outputs given")
	}
	format, err := FormatOfPath(paths[0])
	if err != nil {
		return 0, err
	}
	byIndex := make([]*shardFile, n)
	var empty []*shardFile
	for _, p := range paths {
		if f, _ := FormatOfPath(p); f != format {
			return 0, fmt.Errorf("%s: format differs from %s", p, paths[0])
		}
		sf, err := openShardFile(p, format)
		if err != nil {
			return 0, err
		}
		defer sf.f.Close()
		first, err := sf.peek()
		if errors.Is(err, io.EOF) {
			empty = append(empty, sf)
			continue
		}
		if err != nil {
			return 0, err
		}
		idx := int(IDHash(first.id) % uint64(n))
		if byIndex[idx] != nil {
			return 0, fmt.Errorf("%s and %s both hold shard %d of %d", byIndex[idx].path, p, idx, n)
		}
		byIndex[idx] = sf
	}
	for i := range byIndex {
		if byIndex[i] == nil {
			if len(empty) == 0 {
				return 0, fmt.Errorf("shard %d of %d is missing", i, n)
			}
			byIndex[i], empty = empty[0], empty[1:]
		}
	}
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	if format == FormatCSV {
		bw.WriteString(strings.Join(CSVHeader, ",") + "\n")
	}
	seen := &seenIDs{}
	written := 0
	take := func(sf *shardFile, idx int, l outputLine) error {
		if int(IDHash(l.id)%uint64(n)) != idx {
			return fmt.Errorf("%s: id %q belongs to shard %d, not %d", sf.path, l.id, IDHash(l.id)%uint64(n), idx)
		}
		if seen.addIsDup(l.id) {
			return fmt.Errorf("%s: id %q appears twice", sf.path, l.id)
		}
		bw.WriteString(l.text + "\n")
		written++
		return nil
	}
	if len(inputs) > 0 {
		// Walk the inputs; each record's shard file must hold it next, or
		// not at all (a record the run skipped).
		cfgInputs := inputs
		multi := len(cfgInputs) > 1
		for _, path := range cfgInputs {
			r, closer, err := Open(path)
			if err != nil {
				return written, err
			}
			for {
				rec, err := r.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					closer.Close()
					return written, err
				}
				id := rec.ID
				if multi && strings.HasPrefix(id, "line:") {
					id = filepath.Base(path) + ":" + id
				}
				idx := int(IDHash(id) % uint64(n))
				sf := byIndex[idx]
				l, err := sf.peek()
				if errors.Is(err, io.EOF) {
					continue
				}
				if err != nil {
					closer.Close()
					return written, err
				}
				if l.id != id {
					continue
				}
				sf.next()
				if err := take(sf, idx, l); err != nil {
					closer.Close()
					return written, err
				}
			}
			closer.Close()
		}
	}
	for idx, sf := range byIndex {
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
			if err := take(sf, idx, l); err != nil {
				return written, err
			}
		}
	}
	return written, nil
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
