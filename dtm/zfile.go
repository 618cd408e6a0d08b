package dtm

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

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
//
// Format version 3 (being built) stores one side to move or both (byte
// 56: bit 0 White, bit 1 Black), and leaves to the probe the values that
// a capture or a promotion gives (byte 57, bit 0): such a position's
// byte holds anything no better for the side to move, the byte before it
// where that is so. The blocks are those of the sides stored; the values'
// checksum is of the bytes stored.
const (
	zHeaderSize    = 64
	zFormatVersion = 2
	zFormatFilled  = 3
	codecZstd      = 1
	// zBlockShift sets the positions per block: 32 K positions compress
	// to a few KiB each, and one decompresses in about 60 µs.
	zBlockShift   = 15
	zBlockEntries = 1 << zBlockShift
	// zOneSideShift: a format-3 file of one side to move has blocks of
	// 128 K positions (oneSideEncoder): at zstd's best level 10 to 16 %
	// smaller than 32 K at "better" (measured on KQRvKR, KRPvKR,
	// KBNvKP), and about 200 µs to decompress
	zOneSideShift = 17
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
	shift    uint8
	codec    uint8
	longest  uint16
	crc      uint32 // of the values
	indexCRC uint32
	blocks   uint32
	version  uint32
	sides    uint8 // version 3: the sides stored (bit 0 White, bit 1 Black)
	flags    uint8 // version 3: flagConversions, flagFillUp
}

const (
	// flagConversions: the values captures and promotions give are left
	// to the probe.
	flagConversions = 1
	// flagFillUp: the slots a probe need not read take the byte a row
	// (64 positions) before them where they may, not the byte just
	// before (fillDecided).
	flagFillUp = 2
)

// stores reports whether the file holds the values of side stm to move.
func (h *zHeader) stores(stm int) bool { return h.version < zFormatFilled || h.sides>>stm&1 == 1 }

// sidesStored is how many sides to move the file holds.
func (h *zHeader) sidesStored() int64 {
	if h.version < zFormatFilled {
		return 2
	}
	return int64(h.sides&1 + h.sides>>1&1)
}

func (h zHeader) encode() []byte {
	b := make([]byte, zHeaderSize)
	copy(b, magic[:])
	v := h.version
	if v == 0 {
		v = zFormatVersion
	}
	binary.LittleEndian.PutUint32(b[8:], v)
	if v >= zFormatFilled {
		b[56], b[57] = h.sides, h.flags
	}
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
	h.version = binary.LittleEndian.Uint32(b[8:])
	if h.version != zFormatVersion && h.version != zFormatFilled {
		return h, fmt.Errorf("%w: format version %d, this mateline reads %d and %d", ErrCorrupt, h.version, zFormatVersion, zFormatFilled)
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
	if h.version >= zFormatFilled {
		h.sides, h.flags = b[56], b[57]
	}
	switch {
	case h.version >= zFormatFilled && (h.sides == 0 || h.sides > 3 || h.flags > flagConversions|flagFillUp):
		return h, fmt.Errorf("%w: sides %d, flags %d", ErrCorrupt, h.sides, h.flags)
	case h.sig != l.mat.String():
		return h, fmt.Errorf("%w: holds %q", ErrCorrupt, h.sig)
	case h.size != uint64(l.size) || h.men != uint32(l.men):
		return h, fmt.Errorf("%w: %d positions, want %d", ErrCorrupt, h.size, l.size)
	case h.codec != codecZstd:
		return h, fmt.Errorf("%w: codec %d, this mateline reads zstd (1)", ErrCorrupt, h.codec)
	case h.shift < 8 || h.shift > 24:
		return h, fmt.Errorf("%w: %d positions per block", ErrCorrupt, uint64(1)<<h.shift)
	case int64(h.blocks) != h.sidesStored()*blocksPerSide(l.size, h.shift):
		return h, fmt.Errorf("%w: %d blocks, want %d", ErrCorrupt, h.blocks, h.sidesStored()*blocksPerSide(l.size, h.shift))
	}
	return h, nil
}

var (
	encOnce  sync.Once
	encoders [2]*zstd.Encoder
	decOnce  sync.Once
	decoder  *zstd.Decoder
	bestOnce sync.Once
	best     *zstd.Encoder
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

// zstdBest is zstd's best level, for the one side of a format-3 file of
// a table with pawns (oneSideEncoder).
func zstdBest() *zstd.Encoder {
	bestOnce.Do(func() {
		var err error
		best, err = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression),
			zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true), zstd.WithZeroFrames(true))
		if err != nil {
			panic(err) // fixed options: cannot fail
		}
	})
	return best
}

// oneSideEncoder is the encoder of block i of the one side a format-3
// file stores: zstd's "better" level, and in a table with pawns its best
// level for bestInCycle blocks of every bestCycle. Best saves 9 to 19 %
// of "better"'s bytes, evenly over the blocks, at 3 to 5 times its
// cost: on every block of a table with pawns it took a third of the
// build's CPU, which put a dozen such tables over 1.5 times the raw
// build's time; on none, the set would be over 2.5 GB (docs/dtm.md). A
// pawnless table builds in a third of a pawn table's time per position:
// best on it alone took 0.3 to 0.4 times its raw build, for 13 % of 588
// MB over the 57 five-man ones.
func oneSideEncoder(l *layout, i int64) *zstd.Encoder {
	if len(l.pawns) == 0 || i%bestCycle >= bestInCycle {
		return zstdEncoder(l.size)
	}
	return zstdBest()
}

// bestInCycle of every bestCycle blocks of a table with pawns are
// compressed at zstd's best level (oneSideEncoder).
const bestCycle, bestInCycle = 3, 2

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
	var seen [256]bool
	for _, v := range vals {
		seen[v] = true
	}
	longest := 0
	for v, ok := range seen {
		if ok {
			longest = max(longest, Value(v).Moves())
		}
	}
	return uint16(longest)
}

// writeCompressed writes a table's values (sides[0] White to move,
// sides[1] Black) as a compressed file of format 2: writeFile with
// nothing left to the probe.
func writeCompressed(path string, l *layout, sides [2][]byte, workers int) (int64, error) {
	return writeFile(path, l, sides, zOptions{}, workers)
}

// zOptions choose what a table file stores.
type zOptions struct {
	// decided: per side, a bit per position whose value its captures
	// and promotions give (format 3: left to the probe); nil, format 2
	decided [2][]uint64
	// unused: per side, a bit per slot no probe reads (filled freely)
	unused [2][]uint64
	// oneSide: format 3 keeps only the side to move whose blocks
	// compress smaller
	oneSide bool
	// fill: how a format-3 file of one side fills the slots a probe
	// need not read (fillChoose: as its blocks compress smaller)
	fill fillMode
}

// fillMode says how the slots a probe need not read are filled.
type fillMode uint8

const (
	fillChoose fillMode = iota // the byte before, or a row back: what compresses smaller
	fillPrev                   // the byte before
	fillUp                     // a row back where allowed (flagFillUp)
)

// writeFile writes a table's values as a compressed file (format 3: the
// values' checksum is the CRC-32C of each block's, in order), through a
// temporary file in the same directory, synced and renamed into place.
// workers goroutines compress blocks side by side.
func writeFile(path string, l *layout, sides [2][]byte, o zOptions, workers int) (size int64, err error) {
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
	filled := o.decided[0] != nil
	shift := uint8(zBlockShift)
	if filled && o.oneSide {
		shift = zOneSideShift
	}
	per := blocksPerSide(l.size, shift)
	if workers <= 0 {
		workers = 2
	}
	h := zHeader{men: uint32(l.men), sig: l.mat.String(), size: uint64(l.size), shift: shift, codec: codecZstd}
	stored := []int64{0, 1}
	if filled {
		h.version, h.sides, h.flags = zFormatFilled, 3, flagConversions
	}
	// every block of the sides stored compressed (filled, for format 3),
	// in memory: a five-man table's are at most a few hundred MB
	comp := make([][]byte, 2*per)
	crcs := make([]uint32, 2*per) // of each block's bytes stored
	longs := make([]uint16, 2*per)
	// compress compresses into comp the blocks want picks, filled (up:
	// flagFillUp) and their checksums in crcs; first, it also finds
	// every block's longest mate
	compress := func(enc func(i int64) *zstd.Encoder, first, up bool, comp [][]byte, crcs []uint32, want func(g int64) bool) {
		blocks(2*per, workers, func(g int64, buf []byte) []byte {
			side, i := g/per, g%per
			if first {
				from := i << shift
				longs[g] = longestMate(sides[side][from:min(from+1<<shift, l.size)])
			}
			if !want(g) {
				return buf
			}
			var b []byte
			b, buf = storedBlock(sides[side], o.decided[side], o.unused[side], i, shift, up, buf)
			crcs[g] = crc32.Checksum(b, castagnoli)
			comp[g] = enc(i).EncodeAll(b, nil)
			return buf
		})
	}
	if filled && o.oneSide {
		// the side, and the fill, whose blocks compress smallest, judged
		// on every sampleEvery-th block at the "better" level, are
		// compressed by oneSideEncoder; the samples stand where it is
		// "better" too
		sample := zstdEncoder(l.size)
		final := func(i int64) *zstd.Encoder { return oneSideEncoder(l, i) }
		sampling := func(int64) *zstd.Encoder { return sample }
		sampled := func(g int64) bool { return g%per%sampleEvery == 0 }
		compUp, crcsUp := make([][]byte, 2*per), make([]uint32, 2*per)
		if o.fill != fillUp {
			compress(sampling, true, false, comp, crcs, sampled)
		}
		if o.fill != fillPrev {
			compress(sampling, o.fill == fillUp, true, compUp, crcsUp, sampled)
		}
		var bytes [2][2]int64 // fill up; side
		for g := range comp {
			bytes[0][int64(g)/per] += int64(len(comp[g]))
			bytes[1][int64(g)/per] += int64(len(compUp[g]))
		}
		// (side, up) candidates: side 0 first, the byte before first
		cands := [][2]int64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
		switch o.fill {
		case fillPrev:
			cands = cands[:2]
		case fillUp:
			cands = cands[2:]
		}
		side, up := cands[0][0], cands[0][1] == 1
		for _, c := range cands[1:] {
			if bytes[c[1]][c[0]] < bytes[b2i(up)][side] {
				side, up = c[0], c[1] == 1
			}
		}
		if up {
			comp, crcs = compUp, crcsUp
			h.flags |= flagFillUp
		}
		stored = []int64{side}
		for g := range comp {
			if int64(g)/per != side || final(int64(g)%per) != sample {
				comp[g] = nil
			}
		}
		h.sides = 1 << side
		compress(final, false, up, comp, crcs, func(g int64) bool { return g/per == side && comp[g] == nil })
	} else {
		enc := zstdEncoder(l.size)
		compress(func(int64) *zstd.Encoder { return enc }, true, false, comp, crcs, func(int64) bool { return true })
	}
	n := int64(len(stored)) * per
	index := make([]byte, n*indexEntry+8)
	off := int64(zHeaderSize) + int64(len(index))
	if _, err = f.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	k := int64(0)
	for _, side := range stored {
		for i := int64(0); i < per; i++ {
			g := side*per + i
			c := comp[g]
			binary.LittleEndian.PutUint64(index[k*indexEntry:], uint64(off))
			binary.LittleEndian.PutUint32(index[k*indexEntry+8:], crc32.Checksum(c, castagnoli))
			if _, err = w.Write(c); err != nil {
				return 0, err
			}
			off += int64(len(c))
			if filled {
				h.crc = crc32.Update(h.crc, castagnoli, binary.LittleEndian.AppendUint32(nil, crcs[g]))
			} else {
				h.crc = crc32.Update(h.crc, castagnoli, sides[side][i<<shift:min((i+1)<<shift, l.size)])
			}
			k++
		}
	}
	for _, l := range longs {
		h.longest = max(h.longest, l)
	}
	if err = w.Flush(); err != nil {
		return 0, err
	}
	binary.LittleEndian.PutUint64(index[n*indexEntry:], uint64(off))
	h.indexCRC, h.blocks = crc32.Checksum(index, castagnoli), uint32(n)
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

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// storedBlock returns the bytes a file stores for block i of one side's
// values (blocks of 1<<shift): the values themselves, or, with decided
// given (format 3), a copy in buf filled by fillDecided. buf is returned
// for reuse.
func storedBlock(vals []byte, decided, unused []uint64, i int64, shift uint8, up bool, buf []byte) ([]byte, []byte) {
	from := i << shift
	b := vals[from:min(from+1<<shift, int64(len(vals)))]
	if decided == nil {
		return b, buf
	}
	buf = fillDecided(append(buf[:0], b...), decided, unused, from, up)
	return buf, buf
}

// blocks runs do(g, buf) for g in 0..n-1 on workers goroutines (0: one
// per core), each with its own buffer (do returns it, grown as needed).
func blocks(n int64, workers int, do func(g int64, buf []byte) []byte) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan int64, n)
	for g := int64(0); g < n; g++ {
		next <- g
	}
	close(next)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for g := range next {
				buf = do(g, buf)
			}
		}()
	}
	wg.Wait()
}

// fillDecided rewrites, in the block b of one side that starts at index
// from, each position decided by its captures and promotions with the
// byte before it when that is no better for the side to move (else
// leaves it), and each unused slot with the byte before it: runs of equal
// bytes compress better, and the probe, which takes the best of the byte
// and those moves, still reads the value.
//
// With up (flagFillUp), such a slot takes first the byte 64 positions
// before it, the same squares of every man but the last one row back,
// where that is allowed: on the side White moves in, the rows of a
// table with pawns repeat so (measured 2026-11-28, docs/dtm.md).
//
// from is a multiple of 64: the bits are read a word at a time, and only
// the positions whose bit is set are visited.
func fillDecided(b []byte, decided, unused []uint64, from int64, up bool) []byte {
	for w := 0; w < len(b); w += 64 {
		k := (from + int64(w)) >> 6
		u := unused[k]
		for m := u | decided[k]; m != 0; m &= m - 1 {
			j := bits.TrailingZeros64(m)
			i := w + j
			if i >= len(b) {
				break
			}
			free := u>>j&1 != 0
			if up && i >= 64 && (free || !Value(b[i-64]).Better(Value(b[i]))) {
				b[i] = b[i-64]
				continue
			}
			prev := byte(0)
			if i > 0 {
				prev = b[i-1]
			}
			if free || !Value(prev).Better(Value(b[i])) {
				b[i] = prev
			}
		}
	}
	return b
}

// zTable is an open compressed table: its mapped file and block index.
type zTable struct {
	h       zHeader
	file    []byte // the whole file, mapped
	per     int64  // blocks per side
	id      uint64 // the cache's key for this table
	cache   *blockCache
	slots   []atomic.Pointer[cached] // per block, the cache's copy if any
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
	z := &zTable{h: h, file: data, per: blocksPerSide(l.size, h.shift), slots: make([]atomic.Pointer[cached], h.blocks)}
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
	slot := int64(stm)
	if !z.h.stores(stm) {
		return Draw, errNotStored
	} else if z.h.sidesStored() == 1 {
		slot = 0
	}
	g := slot*z.per + idx>>z.h.shift
	b, err := z.cache.get(z, g)
	if err != nil {
		if z.corrupt != nil {
			z.corrupt(g, err)
		}
		return Draw, err
	}
	return Value(b[idx&(1<<z.h.shift-1)]), nil
}

// errNotStored: a file of format 3 does not hold the side asked for.
var errNotStored = errors.New("side to move not stored in this table's file")

// decompressAll writes every value stored, White to move then Black, to w.
func (z *zTable) decompressAll(w io.Writer) (uint32, error) {
	crc := uint32(0)
	var buf []byte
	for g := int64(0); g < int64(z.h.blocks); g++ {
		b, err := z.decode(g, buf)
		if err != nil {
			return 0, err
		}
		if z.h.version >= zFormatFilled {
			crc = crc32.Update(crc, castagnoli, binary.LittleEndian.AppendUint32(nil, crc32.Checksum(b, castagnoli)))
		} else {
			crc = crc32.Update(crc, castagnoli, b)
		}
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
