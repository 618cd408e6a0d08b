package tablefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// FileSuffix ends the name of every table file.
const FileSuffix = ".mldtm"

var Magic = [8]byte{'M', 'L', 'D', 'T', 'M', 0x1a, 0, 0}

var Castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt marks a table file that is not what its name says: wrong
// magic, version, signature or size, or a checksum that does not match.
var ErrCorrupt = errors.New("corrupt table file")

// ErrOldFormat marks a table file of a format this mateline no longer
// reads (version 1, uncompressed): it is rebuilt, as a corrupt one is.
var ErrOldFormat = errors.New("table file of an old format")

// OldFormatVersion is the uncompressed format mateline wrote until
// 2026-11-27.
const OldFormatVersion = 1

// A compressed table file (format version 2) holds the values of both
// sides to move in independent blocks of zBlockEntries positions, each
// compressed on its own with zstd, so that a probe decompresses one block.
//
//	offset size
//	0      8    magic "MLDTM\x1a\x00\x00"
//	8      4    format version (2, little-endian)
//	12     4    men
//	16     16   material signature, zero-padded ("KQvKR")
//	32     8    positions per side to move
//	40     1    log2 of the positions per block
//	41     1    codec (1: zstd)
//	42     2    longest mate in the table, in moves (either side)
//	44     4    CRC-32C of the values (both sides, in order, uncompressed)
//	48     4    CRC-32C of the block index
//	52     4    number of blocks (both sides)
//	56     4    zero
//	60     4    CRC-32C of bytes 0..59
//
// Then the block index: for each block, its offset from the start of the
// file (8 bytes) and the CRC-32C of its compressed bytes (4 bytes), and
// one more offset, the end of the last block. Then the blocks: every block
// of White to move, then every block of Black to move. A side's last block
// may be short.
//
// Format version 3 (being built) stores one side to move or both (byte
// 56: bit 0 White, bit 1 Black), and leaves to the probe the values that
// a capture or a promotion gives (byte 57, bit 0): such a position's
// byte holds anything no better for the side to move, the byte before it
// where that is so. The blocks are those of the sides stored; the values'
// checksum is of the bytes stored.
//
// Format version 4 (wide) is format 2 with two bytes a value (Value):
// the format of a table whose mates are longer than a byte holds
// (KRNvKNN). A block decompresses to its values' low bytes, then their
// high bytes (nearly all zero); the values' checksum is of those bytes.
//
// Format version 5 (wide, decided) is format 3 with format 4's blocks:
// the sides stored and the flags as in format 3, each block its low
// bytes then its high bytes, the slots a probe need not read filled
// (FillDecidedWide) before the bytes are parted into planes; the
// checksum is format 3's, of the blocks' checksums.
const (
	ZHeaderSize    = 64
	ZFormatVersion = 2
	ZFormatDecided = 3
	ZFormatWide    = 4
	// ZFormatDecidedWide is format 3 with two bytes a value, each block
	// its low bytes then its high bytes as in format 4 (KRNvKNN in one
	// side, the values captures give left to the probe)
	ZFormatDecidedWide = 5
	codecZstd          = 1
	// zBlockShift sets the positions per block: 32 K positions compress
	// to a few KiB each, and one decompresses in about 60 µs.
	zBlockShift   = 15
	zBlockEntries = 1 << zBlockShift
	// ZOneSideShift: a format-3 file of one side to move has blocks of
	// 128 K positions (oneSideEncoder): at zstd's best level 10 to 16 %
	// smaller than 32 K at "better" (measured on KQRvKR, KRPvKR,
	// KBNvKP), and about 200 µs to decompress
	ZOneSideShift = 17
	// sampleEvery: a format-3 writer judges which side to keep, and how
	// to fill its free slots, on every sampleEvery-th block of each
	sampleEvery = 16
	indexEntry  = 12
)

// zHeader is the header of a compressed table file.
type zHeader struct {
	men      uint32
	sig      string
	size     uint64
	Shift    uint8
	codec    uint8
	Longest  uint16
	crc      uint32 // of the values
	indexCRC uint32
	Blocks   uint32
	Version  uint32
	Sides    uint8 // version 3: the sides stored (bit 0 White, bit 1 Black)
	Flags    uint8 // version 3: flagConversions, flagFillUp
}

const (
	// FlagConversions: the values captures and promotions give are left
	// to the probe.
	FlagConversions = 1
	// FlagFillUp: the slots a probe need not read take the byte a row
	// (64 positions) before them where they may, not the byte just
	// before (fillDecided).
	FlagFillUp = 2
)

// Decides reports whether the file leaves values to the probe (format
// 3, or 5 when wide).
func (h *zHeader) Decides() bool {
	return h.Version == ZFormatDecided || h.Version == ZFormatDecidedWide
}

// Wide reports whether the file's values take two bytes (format 4, or
// 5 when it leaves values to the probe).
func (h *zHeader) Wide() bool { return h.Version == ZFormatWide || h.Version == ZFormatDecidedWide }

// ValueBytes is how many bytes a value takes in a block.
func (h *zHeader) ValueBytes() int {
	if h.Wide() {
		return 2
	}
	return 1
}

// Stores reports whether the file holds the values of side stm to move.
func (h *zHeader) Stores(stm int) bool { return !h.Decides() || h.Sides>>stm&1 == 1 }

// SidesStored is how many sides to move the file holds.
func (h *zHeader) SidesStored() int64 {
	if !h.Decides() {
		return 2
	}
	return int64(h.Sides&1 + h.Sides>>1&1)
}

func (h zHeader) encode() []byte {
	b := make([]byte, ZHeaderSize)
	copy(b, Magic[:])
	v := h.Version
	if v == 0 {
		v = ZFormatVersion
	}
	binary.LittleEndian.PutUint32(b[8:], v)
	if h.Decides() {
		b[56], b[57] = h.Sides, h.Flags
	}
	binary.LittleEndian.PutUint32(b[12:], h.men)
	copy(b[16:32], h.sig)
	binary.LittleEndian.PutUint64(b[32:], h.size)
	b[40], b[41] = h.Shift, h.codec
	binary.LittleEndian.PutUint16(b[42:], h.Longest)
	binary.LittleEndian.PutUint32(b[44:], h.crc)
	binary.LittleEndian.PutUint32(b[48:], h.indexCRC)
	binary.LittleEndian.PutUint32(b[52:], h.Blocks)
	binary.LittleEndian.PutUint32(b[60:], crc32.Checksum(b[:60], Castagnoli))
	return b
}

// blocksPerSide is how many blocks hold one side to move of size
// positions.
func blocksPerSide(size int64, shift uint8) int64 {
	return (size + 1<<shift - 1) >> shift
}

// parseZHeader reads a header and checks it against the layout of its
// material.
func parseZHeader(b []byte, l *Layout) (zHeader, error) {
	var h zHeader
	if len(b) < ZHeaderSize {
		return h, fmt.Errorf("%w: %d bytes, shorter than the header", ErrCorrupt, len(b))
	}
	if !bytes.Equal(b[:8], Magic[:]) {
		return h, fmt.Errorf("%w: not a mateline DTM table", ErrCorrupt)
	}
	h.Version = binary.LittleEndian.Uint32(b[8:])
	switch {
	case h.Version == OldFormatVersion:
		return h, fmt.Errorf("%w: format version 1 (uncompressed, written before 2026-11-27), which this mateline no longer reads", ErrOldFormat)
	case h.Version < ZFormatVersion || h.Version > ZFormatDecidedWide:
		return h, fmt.Errorf("%w: format version %d, this mateline reads %d to %d", ErrCorrupt, h.Version, ZFormatVersion, ZFormatDecidedWide)
	}
	if crc32.Checksum(b[:60], Castagnoli) != binary.LittleEndian.Uint32(b[60:]) {
		return h, fmt.Errorf("%w: header checksum", ErrCorrupt)
	}
	h.men = binary.LittleEndian.Uint32(b[12:])
	h.sig = string(bytes.TrimRight(b[16:32], "\x00"))
	h.size = binary.LittleEndian.Uint64(b[32:])
	h.Shift, h.codec = b[40], b[41]
	h.Longest = binary.LittleEndian.Uint16(b[42:])
	h.crc = binary.LittleEndian.Uint32(b[44:])
	h.indexCRC = binary.LittleEndian.Uint32(b[48:])
	h.Blocks = binary.LittleEndian.Uint32(b[52:])
	if h.Decides() {
		h.Sides, h.Flags = b[56], b[57]
	}
	switch {
	case h.Decides() && (h.Sides == 0 || h.Sides > 3 || h.Flags > FlagConversions|FlagFillUp):
		return h, fmt.Errorf("%w: sides %d, flags %d", ErrCorrupt, h.Sides, h.Flags)
	case h.sig != l.Mat.String():
		return h, fmt.Errorf("%w: holds %q", ErrCorrupt, h.sig)
	case h.size != uint64(l.Size) || h.men != uint32(l.Men):
		return h, fmt.Errorf("%w: %d positions, want %d", ErrCorrupt, h.size, l.Size)
	case h.codec != codecZstd:
		return h, fmt.Errorf("%w: codec %d, this mateline reads zstd (1)", ErrCorrupt, h.codec)
	case h.Shift < 8 || h.Shift > 24:
		return h, fmt.Errorf("%w: %d positions per block", ErrCorrupt, uint64(1)<<h.Shift)
	case int64(h.Blocks) != h.SidesStored()*blocksPerSide(l.Size, h.Shift):
		return h, fmt.Errorf("%w: %d blocks, want %d", ErrCorrupt, h.Blocks, h.SidesStored()*blocksPerSide(l.Size, h.Shift))
	}
	return h, nil
}
