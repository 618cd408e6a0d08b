package batch

import (
	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/report"

	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// shardFile is one shard output being merged.
type shardFile struct {
	path   string
	f      *os.File
	r      *report.Reader
	shard  Shard
	peeked *report.Line
}

func (s *shardFile) next() (report.Line, error) {
	if s.peeked != nil {
		l := *s.peeked
		s.peeked = nil
		return l, nil
	}
	l, err := s.r.Next()
	if err != nil && !errors.Is(err, io.EOF) {
		return l, fmt.Errorf("%s: %w", s.path, err)
	}
	return l, err
}

func (s *shardFile) peek() (report.Line, error) {
	l, err := s.next()
	if err == nil {
		s.peeked = &l
	}
	return l, err
}

// Merge joins the outputs of the shards of one run into w. Every file must
// say which shard it holds ("i/n", written by --shard): merge refuses a set
// where a shard is missing or given twice, naming it, and checks that
// every record belongs to its file's shard and that no id appears twice.
// With inputFiles (the puzzle files the shards read) the merged output follows
// input order; without, the shards are joined in shard order. It returns
// the number of records written.
func Merge(w io.Writer, paths []string, inputFiles []string) (int, error) {
	if len(paths) == 0 {
		return 0, errors.New("no shard outputs given")
	}
	format, err := report.FormatOfPath(paths[0])
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
		if f, _ := report.FormatOfPath(p); f != format {
			return 0, fmt.Errorf("%s: format differs from %s", p, paths[0])
		}
		f, err := os.Open(p)
		if err != nil {
			return 0, err
		}
		var sh Shard
		r, err := report.NewReader(f, format)
		if err == nil {
			sh, err = parseShardLabel(r.Shard())
		}
		if err != nil {
			f.Close()
			return 0, fmt.Errorf("%s: %w", p, err)
		}
		sf := &shardFile{path: p, f: f, r: r, shard: sh}
		files = append(files, sf)
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
		if format == report.FormatCSV {
			h := append([]string(nil), r.Columns()...)
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
	if format == report.FormatCSV {
		cw := csv.NewWriter(bw)
		cw.Write(append(header, "shard"))
		cw.Flush()
		if err := cw.Error(); err != nil {
			return 0, err
		}
	}
	seen := &seenIDs{}
	written := 0
	take := func(sf *shardFile, l report.Line) error {
		if !sf.shard.Contains(l.ID) {
			return fmt.Errorf("%s: id %q belongs to shard %d/%d, not %s", sf.path, l.ID, record.IDHash(l.ID)%uint64(count), count, sf.shard)
		}
		if seen.addIsDup(l.ID) {
			return fmt.Errorf("%s: id %q appears twice", sf.path, l.ID)
		}
		if _, err := bw.WriteString(l.Text + "\n"); err != nil {
			return err
		}
		written++
		return nil
	}
	if len(inputFiles) > 0 {
		// Walk the inputs; each record's shard file must hold it next, or
		// not at all (a record the run skipped).
		if err := inputs.EachID(inputFiles, func(id string) error {
			sf := byIndex[int(record.IDHash(id)%uint64(count))]
			l, err := sf.peek()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if l.ID != id {
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
			if len(inputFiles) > 0 {
				return written, fmt.Errorf("%s: id %q is not in the inputs, or out of order", sf.path, l.ID)
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
	h := record.IDHash(id)
	if _, ok := s.m[h]; ok {
		return true
	}
	s.m[h] = struct{}{}
	return false
}

// MergeToFile merges the shard outputs into the file output, through
// output.partial renamed at the end: a merge that fails leaves no output.
// An output that is one of the shard files or inputs is a UsageError.
func MergeToFile(output string, paths, inputs []string) (int, error) {
	if err := checkNotInput(output, append(append([]string(nil), paths...), inputs...)); err != nil {
		return 0, Usagef("merge: %v: it would be overwritten; write the result elsewhere", err)
	}
	out, err := createOutput(output, false)
	if err != nil {
		return 0, err
	}
	n, err := Merge(out, paths, inputs)
	if err != nil {
		out.Abort()
		return n, fmt.Errorf("%w (nothing was written to %s)", err, output)
	}
	if err := out.Commit(); err != nil {
		out.Abort()
		return n, err
	}
	return n, nil
}
