package inputs

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"mateline.dev/mateline/record"
)

// binaryPeek is how much of a file is looked at for a NUL byte.
const binaryPeek = 8 << 10

// binaryAt returns the offset of the first NUL byte in the first
// binaryPeek bytes of br, and the line it is on; ok is false when there is
// none. No puzzle format holds a NUL byte, and every binary file
// (executables, archives, compressed files, images) does early on.
func binaryAt(br *bufio.Reader) (offset, line int, ok bool) {
	head, _ := br.Peek(binaryPeek)
	offset = bytes.IndexByte(head, 0)
	if offset < 0 {
		return 0, 0, false
	}
	return offset, 1 + bytes.Count(head[:offset], []byte{'\n'}), true
}

// binaryReader is the reader of a file that is not text: one error record
// that says so, and nothing else.
type binaryReader struct {
	rec  record.Record
	done bool
}

func newBinaryReader(source string, offset, line int) *binaryReader {
	err := fmt.Errorf("not a text file (a NUL byte at byte %d): puzzle files are text (EPD, PGN, Lichess CSV, Popeye); nothing of it is read", offset)
	return &binaryReader{rec: record.ErrorRecord(source, line, err)}
}

func (b *binaryReader) Next() (record.Record, error) {
	if b.done {
		return record.Record{}, io.EOF
	}
	b.done = true
	return b.rec, nil
}

func (b *binaryReader) NextRaw() (record.Raw, error) {
	rec, err := b.Next()
	if err != nil {
		return record.Raw{}, err
	}
	return record.RawRecord(rec), nil
}
