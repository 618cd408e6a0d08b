package inputs

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/lichess"
	"mateline.dev/mateline/pgnrec"
	"mateline.dev/mateline/popeye"
	"mateline.dev/mateline/record"
)

// Open opens a puzzle file ("-" for standard input) and returns a reader
// for its format: f, or with FormatAuto the format its first line shows (a
// comma-separated header naming FEN and Moves is Lichess CSV, anything
// else EPD), whatever the file's name. A file with a NUL byte near its
// start is not text: its reader gives one error record that says so. The
// caller closes the closer.
func Open(path string, f Format) (record.Reader, io.Closer, error) {
	var rc io.ReadCloser = os.Stdin
	if path != "-" {
		file, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		if st, err := file.Stat(); err == nil && st.IsDir() {
			file.Close()
			return nil, nil, fmt.Errorf("%s is a folder, not a puzzle file", path)
		}
		rc = file
	}
	br := bufio.NewReaderSize(rc, 64<<10)
	if offset, line, binary := binaryAt(br); binary {
		return newBinaryReader(path, offset, line), rc, nil
	}
	if f == FormatAuto {
		f = Sniff(br)
	}
	return NewReader(br, path, f), rc, nil
}

// ReadFile reads every record of a puzzle file, in the format its content
// shows. Unreadable lines are records with Err set, as from a Reader; the
// error is for the file itself (missing, unreadable). It is for suites
// small enough to hold in memory: a batch streams through Open.
func ReadFile(path string) ([]record.Record, error) {
	r, c, err := Open(path, FormatAuto)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return record.ReadAll(r)
}

// NewReader returns a reader of the given format.
func NewReader(r io.Reader, source string, f Format) record.Reader {
	switch f {
	case FormatLichessCSV:
		return lichess.NewReader(r, source)
	case FormatPopeye:
		return popeye.NewReader(r, source)
	case FormatPGN:
		return pgnrec.NewReader(r, source)
	}
	return epd.NewReader(r, source)
}
