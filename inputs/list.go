package inputs

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"mateline.dev/mateline/record"
)

// List reads the records of --fen positions, then of puzzle files ("-"
// for standard input), in turn. It holds the one rule that names records
// without an id: "line:N", prefixed with the file's name when there are
// several inputs, so ids stay unique; shards and merge rely on it.
type List struct {
	FENs   []string
	Files  []string
	Format Format // FormatAuto: sniff each file

	// Empty lists the files that held no record, once read to their end.
	Empty []string

	fenIdx, fileIdx int
	cur             record.Reader
	closer          io.Closer
	curName         string
	curCount        int // records read from the current file
}

// multi says whether ids made from line numbers need the file's name.
func (in *List) multi() bool {
	return len(in.Files) > 1 || len(in.Files) == 1 && len(in.FENs) > 0
}

// lineID is the id of a record without one: line:N, prefixed with its
// file's name when there are several inputs.
func lineID(file string, line int, multi bool) string {
	id := fmt.Sprintf("line:%d", line)
	if multi {
		id = filepath.Base(file) + ":" + id
	}
	return id
}

// NextRaw returns the next record, unparsed, or io.EOF after the last.
func (in *List) NextRaw() (record.Raw, error) {
	if in.fenIdx < len(in.FENs) {
		in.fenIdx++
		return record.RawRecord(record.FromFEN("--fen", in.fenIdx, in.FENs[in.fenIdx-1])), nil
	}
	for {
		if in.cur == nil {
			if in.fileIdx >= len(in.Files) {
				return record.Raw{}, io.EOF
			}
			path := in.Files[in.fileIdx]
			in.fileIdx++
			r, cl, err := Open(path, in.Format)
			if err != nil {
				return record.Raw{}, err
			}
			in.cur, in.closer, in.curName, in.curCount = r, cl, path, 0
		}
		raw, err := in.cur.NextRaw()
		if errors.Is(err, io.EOF) {
			if in.curCount == 0 {
				in.Empty = append(in.Empty, in.curName)
			}
			in.Close()
			continue
		}
		in.curCount++
		if err != nil {
			return raw, err
		}
		if in.multi() {
			name := in.curName
			raw = raw.Then(func(rec *record.Record) {
				if strings.HasPrefix(rec.ID, "line:") && rec.ID == fmt.Sprintf("line:%d", rec.Line) {
					rec.ID = lineID(name, rec.Line, true)
				}
			})
		}
		return raw, nil
	}
}

// Sources names where the records come from, as records name it in
// Record.Source: "--fen" for the positions given as flags, then the files.
func (in *List) Sources() []string {
	var out []string
	if len(in.FENs) > 0 {
		out = append(out, "--fen")
	}
	return append(out, in.Files...)
}

// Close closes the file being read.
func (in *List) Close() {
	if in.closer != nil {
		in.closer.Close()
	}
	in.cur, in.closer = nil, nil
}

// EachID calls f with the id of every record of the puzzle files, in
// order, named as a batch over them names them.
func EachID(files []string, f func(id string) error) error {
	in := &List{Files: files}
	defer in.Close()
	for {
		raw, err := in.NextRaw()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		rec := raw.Parse()
		if err := f(rec.ID); err != nil {
			return err
		}
	}
}
