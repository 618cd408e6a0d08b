package dtm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// A table file of format version 1, which mateline wrote until
// 2026-11-27 and now converts to version 2 (zfile.go) on first use, is a
// 64-byte header and the values: every position with White to move, then
// every position with Black to move, a byte each (Value), in index order.
//
//	offset size
//	0      8    magic "MLDTM\x1a\x00\x00"
//	8      4    format version (little-endian)
//	12     4    men
//	16     16   material signature, zero-padded ("KQvKR")
//	32     8    positions per side to move
//	40     4    CRC-32C of the values
//	44     4    CRC-32C of bytes 0..43
//	48     16   zero
const (
	headerSize    = 64
	formatVersion = 1
	fileSuffix    = ".mldtm"
)

var magic = [8]byte{'M', 'L', 'D', 'T', 'M', 0x1a, 0, 0}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt marks a table file that is not what its name says: wrong
// magic, version, signature or size, or a checksum that does not match.
var ErrCorrupt = errors.New("corrupt table file")

type header struct {
	version uint32
	men     uint32
	sig     string
	size    uint64
	crc     uint32
}

func (h header) encode() []byte {
	b := make([]byte, headerSize)
	copy(b, magic[:])
	binary.LittleEndian.PutUint32(b[8:], h.version)
	binary.LittleEndian.PutUint32(b[12:], h.men)
	copy(b[16:32], h.sig)
	binary.LittleEndian.PutUint64(b[32:], h.size)
	binary.LittleEndian.PutUint32(b[40:], h.crc)
	binary.LittleEndian.PutUint32(b[44:], crc32.Checksum(b[:44], castagnoli))
	return b
}

// parseHeader reads a header and checks it against what the layout of
// sig expects.
func parseHeader(b []byte, l *layout) (header, error) {
	var h header
	if len(b) < headerSize {
		return h, fmt.Errorf("%w: %d bytes, shorter than the header", ErrCorrupt, len(b))
	}
	if !bytes.Equal(b[:8], magic[:]) {
		return h, fmt.Errorf("%w: not a mateline DTM table", ErrCorrupt)
	}
	if crc32.Checksum(b[:44], castagnoli) != binary.LittleEndian.Uint32(b[44:]) {
		return h, fmt.Errorf("%w: header checksum", ErrCorrupt)
	}
	h.version = binary.LittleEndian.Uint32(b[8:])
	h.men = binary.LittleEndian.Uint32(b[12:])
	h.sig = string(bytes.TrimRight(b[16:32], "\x00"))
	h.size = binary.LittleEndian.Uint64(b[32:])
	h.crc = binary.LittleEndian.Uint32(b[40:])
	switch {
	case h.version != formatVersion:
		return h, fmt.Errorf("%w: format version %d, this mateline reads %d", ErrCorrupt, h.version, formatVersion)
	case h.sig != l.mat.String():
		return h, fmt.Errorf("%w: holds %q", ErrCorrupt, h.sig)
	case h.size != uint64(l.size) || h.men != uint32(l.men):
		return h, fmt.Errorf("%w: %d positions, want %d", ErrCorrupt, h.size, l.size)
	}
	return h, nil
}

// fileVersion reads the format version of a table file.
func fileVersion(path string) (uint32, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	b := make([]byte, 12)
	if _, err := io.ReadFull(f, b); err != nil {
		return 0, err
	}
	if !bytes.Equal(b[:8], magic[:]) {
		return 0, fmt.Errorf("%w: not a mateline DTM table", ErrCorrupt)
	}
	return binary.LittleEndian.Uint32(b[8:]), nil
}

// readTable opens a table file, checks its header and checksum, and
// returns its values (mapped read-only where the system allows) and a
// function that releases them.
func readTable(path string, l *layout) ([]byte, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	hb := make([]byte, headerSize)
	if _, err := io.ReadFull(f, hb); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	h, err := parseHeader(hb, l)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if want := int64(headerSize) + 2*l.size; st.Size() != want {
		return nil, nil, fmt.Errorf("%w: %d bytes, want %d", ErrCorrupt, st.Size(), want)
	}
	// The checksum is read through the file, not the mapping: the mapped
	// pages stay out of the process's memory until probes touch them.
	sum := crc32.New(castagnoli)
	if _, err := io.Copy(sum, io.NewSectionReader(f, headerSize, 2*l.size)); err != nil {
		return nil, nil, err
	}
	if sum.Sum32() != h.crc {
		return nil, nil, fmt.Errorf("%w: checksum of the values", ErrCorrupt)
	}
	data, release, err := mapFile(f, st.Size())
	if err != nil {
		return nil, nil, err
	}
	return data[headerSize:], release, nil
}
