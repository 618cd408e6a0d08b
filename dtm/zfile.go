package dtm

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/klauspost/compress/zstd"
)

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
const (
	zHeaderSize    = 64
	zFormatVersion = 2
	codecZstd      = 1
	// zBlockShift sets the positions per block: 32 K positions compress
	// to a few KiB each, and one decompresses in about 60 µs.
	zBlockShift   = 15
	zBlockEntries = 1 << zBlockShift
	indexEntry    = 12
)

// zHeader is the header of a compressed table file.
type zHeader struct {
	men      uint32
	sig      string
	size     uint64
	shift    uint8
	codec    uint8
	longest  uint16
	crc      uint32 // of the values
	indexCRC uint32
	blocks   uint32
}

func (h zHeader) encode() []byte {
	b := make([]byte, zHeaderSize)
	copy(b, magic[:])
	binary.LittleEndian.PutUint32(b[8:], zFormatVersion)
	binary.LittleEndian.PutUint32(b[12:], h.men)
	copy(b[16:32], h.sig)
	binary.LittleEndian.PutUint64(b[32:], h.size)
	b[40], b[41] = h.shift, h.codec
	binary.LittleEndian.PutUint16(b[42:], h.longest)
	binary.LittleEndian.PutUint32(b[44:], h.crc)
	binary.LittleEndian.PutUint32(b[48:], h.indexCRC)
	binary.LittleEndian.PutUint32(b[52:], h.blocks)
	binary.LittleEndian.PutUint32(b[60:], crc32.Checksum(b[:60], castagnoli))
	return b
}

// blocksPerSide is how many blocks hold one side to move of size
// positions.
func blocksPerSide(size int64, shift uint8) int64 {
	return (size + 1<<shift - 1) >> shift
}

// parseZHeader reads a version-2 header and checks it against the layout
// of its material.
func parseZHeader(b []byte, l *layout) (zHeader, error) {
	var h zHeader
	if len(b) < zHeaderSize {
		return h, fmt.Errorf("%w: %d bytes, shorter than the header", ErrCorrupt, len(b))
	}
	if !bytes.Equal(b[:8], magic[:]) {
		return h, fmt.Errorf("%w: not a mateline DTM table", ErrCorrupt)
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != zFormatVersion {
		return h, fmt.Errorf("%w: format version %d, this mateline reads %d", ErrCorrupt, v, zFormatVersion)
	}
	if crc32.Checksum(b[:60], castagnoli) != binary.LittleEndian.Uint32(b[60:]) {
		return h, fmt.Errorf("%w: header checksum", ErrCorrupt)
	}
	h.men = binary.LittleEndian.Uint32(b[12:])
	h.sig = string(bytes.TrimRight(b[16:32], "\x00"))
	h.size = binary.LittleEndian.Uint64(b[32:])
	h.shift, h.codec = b[40], b[41]
	h.longest = binary.LittleEndian.Uint16(b[42:])
	h.crc = binary.LittleEndian.Uint32(b[44:])
	h.indexCRC = binary.LittleEndian.Uint32(b[48:])
	h.blocks = binary.LittleEndian.Uint32(b[52:])
	switch {
	case h.sig != l.mat.String():
		return h, fmt.Errorf("%w: holds %q", ErrCorrupt, h.sig)
	case h.size != uint64(l.size) || h.men != uint32(l.men):
		return h, fmt.Errorf("%w: %d positions, want %d", ErrCorrupt, h.size, l.size)
	case h.codec != codecZstd:
		return h, fmt.Errorf("%w: codec %d, this mateline reads zstd (1)", ErrCorrupt, h.codec)
	case h.shift < 8 || h.shift > 24:
		return h, fmt.Errorf("%w: %d positions per block", ErrCorrupt, uint64(1)<<h.shift)
	case int64(h.blocks) != 2*blocksPerSide(l.size, h.shift):
		return h, fmt.Errorf("%w: %d blocks, want %d", ErrCorrupt, h.blocks, 2*blocksPerSide(l.size, h.shift))
	}
	return h, nil
}

var (
	encOnce  sync.Once
	encoders [2]*zstd.Encoder
	decOnce  sync.Once
	decoder  *zstd.Decoder
)

// smallTable is the most positions per side of a table compressed at
// zstd's default level: the tables of up to four men, 172 MiB raw in
// all, where the time matters more than the few megabytes.
const smallTable = 1 << 23

// zstdEncoder returns the encoder for a table of size positions per side:
// zstd's "better" level for large tables (5 to 10 % smaller than the
// default at half its speed; "best" is 10 to 20 % smaller again but four
// times slower than "better", which would cost a five-man build more than
// half its time). Encoders are shared: EncodeAll may be called from
// several goroutines.
func zstdEncoder(size int64) *zstd.Encoder {
	encOnce.Do(func() {
		for i, lvl := range []zstd.EncoderLevel{zstd.SpeedDefault, zstd.SpeedBetterCompression} {
			var err error
			encoders[i], err = zstd.NewWriter(nil, zstd.WithEncoderLevel(lvl),
				zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true), zstd.WithZeroFrames(true))
			if err != nil {
				panic(err) // fixed options: cannot fail
			}
		}
	})
	if size <= smallTable {
		return encoders[0]
	}
	return encoders[1]
}

// zstdDecoder is shared: DecodeAll may be called from several goroutines.
func zstdDecoder() *zstd.Decoder {
	decOnce.Do(func() {
		var err error
		decoder, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(1<<24))
		if err != nil {
			panic(err) // fixed options: cannot fail
		}
	})
	return decoder
}

// longestMate is the longest mate, in moves, among values.
func longestMate(vals []byte) uint16 {
	longest := uint16(0)
	for _, v := range vals {
		if m := uint16(Value(v).Moves()); m > longest {
			longest = m
		}
	}
	return longest
}

// writeCompressed writes a table's values (sides[0] White to move,
// sides[1] Black) as a compressed file, through a temporary file in the
// same directory, synced and renamed into place. workers goroutines
// compress blocks side by side.
func writeCompressed(path string, l *layout, sides [2][]byte, workers int) (size int64, err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(0o644); err != nil {
		return 0, err
	}
	per := blocksPerSide(l.size, zBlockShift)
	n := 2 * per
	index := make([]byte, n*indexEntry+8)
	off := int64(zHeaderSize) + int64(len(index))
	if _, err = f.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	if workers <= 0 {
		workers = 2
	}
	block := func(g int64) []byte {
		s, i := g/per, g%per
		return sides[s][i<<zBlockShift : min((i+1)<<zBlockShift, l.size)]
	}
	enc := zstdEncoder(l.size)
	crc := uint32(0)
	longest := uint16(0)
	// batches of blocks compressed in parallel, written in order
	const batch = 256
	out := make([][]byte, batch)
	longs := make([]uint16, batch)
	for from := int64(0); from < n; from += batch {
		to := min(from+batch, n)
		var wg sync.WaitGroup
		next := make(chan int64, batch)
		for g := from; g < to; g++ {
			next <- g
		}
		close(next)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for g := range next {
					b := block(g)
					out[g-from] = enc.EncodeAll(b, out[g-from][:0])
					longs[g-from] = longestMate(b)
				}
			}()
		}
		wg.Wait()
		for g := from; g < to; g++ {
			c := out[g-from]
			binary.LittleEndian.PutUint64(index[g*indexEntry:], uint64(off))
			binary.LittleEndian.PutUint32(index[g*indexEntry+8:], crc32.Checksum(c, castagnoli))
			if _, err = f.Write(c); err != nil {
				return 0, err
			}
			off += int64(len(c))
			crc = crc32.Update(crc, castagnoli, block(g))
			longest = max(longest, longs[g-from])
		}
	}
	binary.LittleEndian.PutUint64(index[n*indexEntry:], uint64(off))
	h := zHeader{men: uint32(l.men), sig: l.mat.String(), size: uint64(l.size), shift: zBlockShift, codec: codecZstd,
		longest: longest, crc: crc, indexCRC: crc32.Checksum(index, castagnoli), blocks: uint32(n)}
	if _, err = f.WriteAt(h.encode(), 0); err != nil {
		return 0, err
	}
	if _, err = f.WriteAt(index, zHeaderSize); err != nil {
		return 0, err
	}
	if err = f.Sync(); err != nil {
		return 0, err
	}
	if err = f.Close(); err != nil {
		return 0, err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return 0, err
	}
	if d, e := os.Open(dir); e == nil {
		d.Sync()
		d.Close()
	}
	return off, nil
}

// zTable is an open compressed table: its mapped file and block index.
type zTable struct {
	h       zHeader
	file    []byte // the whole file, mapped
	per     int64  // blocks per side
	id      uint64 // the cache's key for this table
	cache   *blockCache
	corrupt func(g int64, err error)
}

// openCompressed maps a compressed table file and checks its header, its
// index and (check) every block's checksum.
func openCompressed(path string, l *layout, check bool) (*zTable, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	hb := make([]byte, zHeaderSize)
	if _, err := io.ReadFull(f, hb); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	h, err := parseZHeader(hb, l)
	if err != nil {
		return nil, nil, err
	}
	indexEnd := int64(zHeaderSize) + int64(h.blocks)*indexEntry + 8
	if st.Size() < indexEnd {
		return nil, nil, fmt.Errorf("%w: %d bytes, shorter than its block index", ErrCorrupt, st.Size())
	}
	data, release, err := mapFile(f, st.Size())
	if err != nil {
		return nil, nil, err
	}
	z := &zTable{h: h, file: data, per: int64(h.blocks) / 2}
	if err := z.checkIndex(); err != nil {
		release()
		return nil, nil, err
	}
	if check {
		if g, err := z.checkBlocks(); err != nil {
			release()
			return nil, nil, fmt.Errorf("block %d: %w", g, err)
		}
		// the check read every page: let them go (they stay in the page
		// cache), or every table opened would count in the process's
		// memory, 8 GB once every table of up to five men is open
		releasePages(z.file)
	}
	return z, release, nil
}

// index returns block g's bytes and checksum.
func (z *zTable) index(g int64) (from, to int64, crc uint32) {
	e := z.file[zHeaderSize+g*indexEntry:]
	from = int64(binary.LittleEndian.Uint64(e))
	crc = binary.LittleEndian.Uint32(e[8:])
	to = int64(binary.LittleEndian.Uint64(e[indexEntry:]))
	return from, to, crc
}

// checkIndex checks the index's checksum and that its offsets climb
// within the file.
func (z *zTable) checkIndex() error {
	n := int64(z.h.blocks)
	idx := z.file[zHeaderSize : zHeaderSize+n*indexEntry+8]
	if crc32.Checksum(idx, castagnoli) != z.h.indexCRC {
		return fmt.Errorf("%w: block index checksum", ErrCorrupt)
	}
	prev := int64(len(idx)) + zHeaderSize
	for g := int64(0); g < n; g++ {
		from, to, _ := z.index(g)
		if from != prev || to < from || to > int64(len(z.file)) {
			return fmt.Errorf("%w: block %d lies outside the file", ErrCorrupt, g)
		}
		prev = to
	}
	if prev != int64(len(z.file)) {
		return fmt.Errorf("%w: %d bytes, its blocks end at %d", ErrCorrupt, len(z.file), prev)
	}
	return nil
}

// checkBlocks checks every block's checksum; it returns the first block
// that fails.
func (z *zTable) checkBlocks() (int64, error) {
	for g := int64(0); g < int64(z.h.blocks); g++ {
		from, to, crc := z.index(g)
		if crc32.Checksum(z.file[from:to], castagnoli) != crc {
			return g, fmt.Errorf("%w: block checksum", ErrCorrupt)
		}
	}
	return 0, nil
}

// entries is how many positions block g holds.
func (z *zTable) entries(g int64) int {
	i := g % z.per
	size := int64(z.h.size)
	return int(min((i+1)<<z.h.shift, size) - i<<z.h.shift)
}

// decode decompresses block g into dst (reused when large enough),
// checking its checksum and length.
func (z *zTable) decode(g int64, dst []byte) ([]byte, error) {
	from, to, crc := z.index(g)
	c := z.file[from:to]
	if crc32.Checksum(c, castagnoli) != crc {
		return nil, fmt.Errorf("%w: %s block %d: checksum", ErrCorrupt, z.h.sig, g)
	}
	out, err := zstdDecoder().DecodeAll(c, dst[:0])
	if err != nil {
		return nil, fmt.Errorf("%w: %s block %d: %v", ErrCorrupt, z.h.sig, g, err)
	}
	if len(out) != z.entries(g) {
		return nil, fmt.Errorf("%w: %s block %d: %d values, want %d", ErrCorrupt, z.h.sig, g, len(out), z.entries(g))
	}
	return out, nil
}

// at reads the value of index idx with side stm to move, through the
// block cache.
func (z *zTable) at(stm int, idx int64) (Value, error) {
	g := int64(stm)*z.per + idx>>z.h.shift
	b, err := z.cache.get(z, g)
	if err != nil {
		if z.corrupt != nil {
			z.corrupt(g, err)
		}
		return Draw, err
	}
	return Value(b[idx&(1<<z.h.shift-1)]), nil
}

// decompressAll writes every value, White to move then Black, to w.
func (z *zTable) decompressAll(w io.Writer) (uint32, error) {
	crc := uint32(0)
	var buf []byte
	for g := int64(0); g < int64(z.h.blocks); g++ {
		b, err := z.decode(g, buf)
		if err != nil {
			return 0, err
		}
		crc = crc32.Update(crc, castagnoli, b)
		if _, err := w.Write(b); err != nil {
			return 0, err
		}
		buf = b
	}
	if crc != z.h.crc {
		return crc, fmt.Errorf("%w: %s: checksum of the values", ErrCorrupt, z.h.sig)
	}
	return crc, nil
}
