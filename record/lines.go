package record

import (
	"bufio"
	"io"
	"strings"
)

// MaxLineBytes is the longest line a line-based reader (EPD, Lichess CSV)
// accepts; a longer one becomes an error record and the reader goes on
// with the next line.
const MaxLineBytes = 64 << 10

// LineReader yields lines with their numbers, without the line ending or a
// leading UTF-8 byte-order mark, and cuts lines that are too long.
type LineReader struct {
	r    *bufio.Reader
	line int
}

// NewLineReader reads the lines of r.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Line is the 1-based number of the line Next returned last.
func (lr *LineReader) Line() int { return lr.line }

// Next returns the next line; tooLong reports a line over MaxLineBytes,
// whose text is then cut.
func (lr *LineReader) Next() (text string, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if len(buf)+len(chunk) <= MaxLineBytes {
			buf = append(buf, chunk...)
		} else {
			tooLong = true
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && (err != io.EOF || len(buf) == 0 && !tooLong) {
			return "", false, err
		}
		break
	}
	lr.line++
	s := strings.TrimRight(string(buf), "\r\n")
	if lr.line == 1 {
		s = strings.TrimPrefix(s, "\ufeff")
	}
	return s, tooLong, nil
}
