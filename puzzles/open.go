package puzzles

import (
	"io"
	"os"
)

// Reader yields records one at a time; Next returns io.EOF at the end.
type Reader interface {
	Next() (Record, error)
}

// Open opens a puzzle file ("-" for standard input) and returns a reader
// for its format. The caller closes the returned closer.
func Open(path string) (Reader, io.Closer, error) {
	if path == "-" {
		return NewEPDReader(os.Stdin, "-"), io.NopCloser(nil), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return NewEPDReader(f, path), f, nil
}
