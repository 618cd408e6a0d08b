package tablefile

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// The writer of compressed table files (header.go gives the layout): the
// zstd encoders, the blocks filled for format 3, and the file written
// through a temporary name.

var (
	encOnce  sync.Once
	encoders [2]*zstd.Encoder
	bestOnce sync.Once
	best     *zstd.Encoder
)

// smallTable is the most positions per side of a table compressed at
// zstd's default level: the tables of up to four men, 172 MiB raw in
// all, where the time matters more than the few megabytes.
const smallTable = 1 << 23

// ZstdEncoder returns the encoder for a table of size positions per side:
// zstd's "better" level for large tables (5 to 10 % smaller than the
// default at half its speed; "best" is 10 to 20 % smaller again but four
// times slower than "better", which would cost a five-man build more than
// half its time). Encoders are shared: EncodeAll may be called from
// several goroutines.
func ZstdEncoder(size int64) *zstd.Encoder {
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

// ZstdBest is zstd's best level, for the one side of a format-3 file of
// a table with pawns (oneSideEncoder).
func ZstdBest() *zstd.Encoder {
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

// OneSideEncoder is the encoder of block i of the one side a format-3
// file stores: zstd's "better" level, and in a table with pawns its best
// level for bestInCycle blocks of every bestCycle. Best saves 9 to 19 %
// of "better"'s bytes, evenly over the blocks, at 3 to 5 times its
// cost: on every block of a table with pawns it took a third of the
// build's CPU, which put a dozen such tables over 1.5 times the raw
// build's time; on none, the set would be over 2.5 GB (docs/dtm.md). A
// pawnless table builds in a third of a pawn table's time per position:
// best on it alone took 0.3 to 0.4 times its raw build, for 13 % of 588
// MB over the 57 five-man ones.
func OneSideEncoder(l *Layout, i int64) *zstd.Encoder {
	if len(l.Pawns) == 0 || i%BestCycle >= BestInCycle {
		return ZstdEncoder(l.Size)
	}
	return ZstdBest()
}

// BestInCycle of every BestCycle blocks of a table with pawns are
// compressed at zstd's best level (oneSideEncoder).
const BestCycle, BestInCycle = 3, 2

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

// wideBlocks writes into dst the blocks (of 1<<shift values) of the
// two-byte values vals (little-endian) as a wide file stores them: each
// block's low bytes, then its high bytes, which are nearly all zero and
// compress to almost nothing. It returns dst.
func wideBlocks(vals, dst []byte, shift uint8) []byte {
	n := len(vals) / 2
	for from := 0; from < n; from += 1 << shift {
		k := min(1<<shift, n-from)
		lo, hi := dst[2*from:2*from+k], dst[2*from+k:2*from+2*k]
		for i := range k {
			lo[i], hi[i] = vals[2*(from+i)], vals[2*(from+i)+1]
		}
	}
	return dst
}

// longestWideMate is the longest mate, in moves, of a wide block (its
// low bytes, then its high bytes).
func longestWideMate(block []byte) uint16 {
	k := len(block) / 2
	longest := 0
	for i := range k {
		longest = max(longest, (Value(block[i]) | Value(block[k+i])<<8).Moves())
	}
	return uint16(longest)
}

// longestMateInPairs is the longest mate, in moves, among two-byte values
// (little-endian, before they are parted into planes).
func longestMateInPairs(vals []byte) uint16 {
	longest := 0
	for i := 0; i+1 < len(vals); i += 2 {
		longest = max(longest, (Value(vals[i]) | Value(vals[i+1])<<8).Moves())
	}
	return uint16(longest)
}

// ZOptions choose what a table file stores.
type ZOptions struct {
	// Decided: per side, a bit per position whose value its captures
	// and promotions give (format 3: left to the probe); nil, format 2
	Decided [2][]uint64
	// Unused: per side, a bit per slot no probe reads (filled freely)
	Unused [2][]uint64
	// OneSide: format 3 keeps only the side to move whose blocks
	// compress smaller
	OneSide bool
	// Fill: how a format-3 file of one side fills the slots a probe
	// need not read (fillChoose: as its blocks compress smaller)
	Fill FillMode
	// Paged: the values are shared mappings of files (a build with its
	// values on disk), whose resident pages a file of both sides lets go
	// a batch at a time as it is written (ReleasePages): never set for
	// values on the heap, which it would lose
	Paged bool
}

// FillMode says how the slots a probe need not read are filled.
type FillMode uint8

const (
	fillChoose FillMode = iota // the byte before, or a row back: what compresses smaller
	FillPrev                   // the byte before
	FillUp                     // a row back where allowed (flagFillUp)
)

// WriteFile writes a table's values as a compressed file (format 3: the
// values' checksum is the CRC-32C of each block's, in order), through a
// temporary file in the same directory, synced and renamed into place.
// workers goroutines compress blocks side by side. A file of both sides
// is written a batch of blocks at a time as they are compressed
// (streamTo); one of one side (ZOptions.OneSide) is compressed whole
// first, since the side kept is the one whose blocks come out smaller.
func WriteFile(path string, l *Layout, sides [2][]byte, o ZOptions, workers int) (int64, error) {
	if workers <= 0 {
		workers = 2
	}
	if o.Decided[0] != nil && o.OneSide {
		return writeSized(path, compressTable(l, sides, o, workers).writeTo)
	}
	c := newCompressedTable(l, sides, o, zBlockShift)
	return writeSized(path, func(f *os.File) (int64, error) { return c.streamTo(f, workers, streamBatch) })
}

// writeSized is writeAtomic of a write that returns the file's size.
func writeSized(path string, write func(f *os.File) (int64, error)) (int64, error) {
	var size int64
	err := writeAtomic(path, func(f *os.File) (err error) {
		size, err = write(f)
		return err
	})
	return size, err
}

// ValueSource fills dst with a table's values of side to move side, from
// index from on: a byte a value, or two (little-endian) for a wide table.
type ValueSource func(side int, from int64, dst []byte) error

// FlagSource fills decided and unused with the bits (ZOptions' Decided
// and Unused) of side's positions from index from on, a multiple of 64,
// once the ValueSource has given their values.
type FlagSource func(side int, from int64, decided, unused []uint64) error

// Stream is a table's values as WriteFileFrom reads them: in index
// order, side after side.
type Stream struct {
	Values ValueSource
	// Wide: two bytes a value (format 4)
	Wide bool
	// Flags, when set, gives the decided and unused bits: a file of
	// format 3 (5 with Wide), the values captures give left to the probe
	Flags FlagSource
	// OneSide keeps (with Flags) only the side to move whose blocks
	// compress smaller
	OneSide bool
}

// WriteFileFrom writes a table's values as a file drawn from st, chunk
// positions at a time (a multiple of a block's): only a chunk's values
// are held, never the table whole, and a file of both sides holds only
// a chunk's compressed blocks too, written as they are done (one of one
// side holds the compressed blocks of both until it is chosen). The file
// is of format 2 (both sides stored), 4 (Wide), 3 (Flags) or 5 (both),
// and goes through a temporary file and a rename, as WriteFile's.
func WriteFileFrom(path string, l *Layout, st Stream, chunk int64, workers int) (int64, error) {
	c, err := newStreamedTable(l, st, chunk)
	if err != nil {
		return 0, err
	}
	if st.Flags != nil && st.OneSide {
		if err := c.compressFrom(l, st, chunk, workers, nil); err != nil {
			return 0, err
		}
		return writeSized(path, c.writeTo)
	}
	return writeSized(path, func(f *os.File) (int64, error) {
		fw, err := c.startFile(f)
		if err != nil {
			return 0, err
		}
		written := func(from, to int64) error { return c.writeBlocks(fw, from, to) }
		if err := c.compressFrom(l, st, chunk, workers, written); err != nil {
			return 0, err
		}
		return c.finishFile(fw)
	})
}

// newStreamedTable is the compressedTable of a file drawn from st, chunk
// positions at a time: its header and block count, no block yet.
func newStreamedTable(l *Layout, st Stream, chunk int64) (*compressedTable, error) {
	shift := uint8(zBlockShift)
	decide := st.Flags != nil
	if decide && st.OneSide {
		shift = ZOneSideShift
	}
	if chunk <= 0 || chunk%(1<<shift) != 0 {
		return nil, fmt.Errorf("%s: chunk %d is not a multiple of the block", l.Mat, chunk)
	}
	c := newCompressedTable(l, [2][]byte{}, ZOptions{}, shift)
	switch {
	case st.Wide && decide:
		c.h.Version, c.h.Sides, c.h.Flags = ZFormatDecidedWide, 3, FlagConversions
	case st.Wide:
		c.h.Version = ZFormatWide
	case decide:
		c.h.Version, c.h.Sides, c.h.Flags = ZFormatDecided, 3, FlagConversions
	}
	return c, nil
}

// compressFrom compresses a table's blocks as st gives its values, a
// chunk at a time; the values' checksum is taken as they come (format 3:
// each block's, in writeTo). After each chunk, written (when not nil) is
// given the range of its blocks, done, in file order. With st.OneSide, it
// then keeps the side whose blocks are smaller.
func (c *compressedTable) compressFrom(l *Layout, st Stream, chunk int64, workers int, written func(from, to int64) error) error {
	shift, per := c.h.Shift, c.per
	decide := st.Flags != nil
	width := int64(1)
	if st.Wide {
		width = 2
	}
	enc := ZstdEncoder(l.Size)
	buf := make([]byte, width*min(chunk, l.Size))
	var planes []byte // a wide chunk's blocks as stored
	if st.Wide && !decide {
		planes = make([]byte, len(buf))
	}
	var decided, unused []uint64
	if decide {
		decided, unused = make([]uint64, (chunk+63)/64), make([]uint64, (chunk+63)/64)
	}
	for side := 0; side < 2; side++ {
		for from := int64(0); from < l.Size; from += chunk {
			n := min(chunk, l.Size-from)
			vals := buf[:width*n]
			if err := st.Values(side, from, vals); err != nil {
				return err
			}
			if decide {
				if err := st.Flags(side, from, decided[:(n+63)/64], unused[:(n+63)/64]); err != nil {
					return err
				}
			}
			if st.Wide && !decide {
				vals = wideBlocks(vals, planes[:width*n], shift)
			}
			if !decide {
				c.h.crc = crc32.Update(c.h.crc, Castagnoli, vals)
			}
			first := int64(side)*per + from>>shift
			blocks := (n + 1<<shift - 1) >> shift
			Blocks(blocks, workers, func(k int64, b []byte) []byte {
				block := vals[width*k<<shift : width*min((k+1)<<shift, n)]
				switch {
				case st.Wide && decide:
					// filled as values, then parted into planes
					c.longs[first+k] = longestMateInPairs(block)
					b = slices.Grow(b[:0], 2*len(block))[:2*len(block)]
					filled := FillDecidedWide(append(b[:0], block...), decided, unused, k<<shift)
					block = wideBlocks(filled, b[len(block):], shift)
					c.crcs[first+k] = crc32.Checksum(block, Castagnoli)
					c.comp[first+k] = enc.EncodeAll(block, nil)
					return b
				case st.Wide:
					c.longs[first+k] = longestWideMate(block)
				default:
					c.longs[first+k] = longestMate(block)
				}
				if decide {
					b = FillDecided(append(b[:0], block...), decided, unused, k<<shift, false)
					c.crcs[first+k] = crc32.Checksum(b, Castagnoli)
					block = b
				}
				c.comp[first+k] = enc.EncodeAll(block, nil)
				return b
			})
			if written != nil {
				if err := written(first, first+blocks); err != nil {
					return err
				}
			}
		}
	}
	if decide && st.OneSide {
		c.keepSmallerSide()
		if l.Men > MaxMen {
			return c.recompressBest(workers)
		}
	}
	return nil
}

// recompressBest compresses the blocks of the side kept again at zstd's
// best level: a six-man file of one side 9 % smaller (KRNvKNN: 791.5 MB
// at "better", 721.8 MB at best; measured 2026-12-03 with
// TestMeasureLevels) for about a tenth of its build's time. Every
// block is first compressed at "better", where the side is chosen; the
// five-man files (written by WriteFile) are not touched.
func (c *compressedTable) recompressBest(workers int) error {
	best := ZstdBest()
	var mu sync.Mutex
	var firstErr error
	for _, side := range c.stored {
		Blocks(c.per, workers, func(i int64, buf []byte) []byte {
			g := side*c.per + i
			raw, err := zstdDecoder().DecodeAll(c.comp[g], buf[:0])
			if err != nil {
				mu.Lock()
				firstErr = fmt.Errorf("%s: block %d compressed again: %w", c.h.sig, g, err)
				mu.Unlock()
				return buf
			}
			c.comp[g] = best.EncodeAll(raw, nil)
			return raw
		})
	}
	return firstErr
}

// keepSmallerSide drops the blocks of the side to move whose blocks
// compress larger.
func (c *compressedTable) keepSmallerSide() {
	var bytes [2]int64
	for g := range c.comp {
		bytes[int64(g)/c.per] += int64(len(c.comp[g]))
	}
	side := int64(0)
	if bytes[1] < bytes[0] {
		side = 1
	}
	for g := range c.comp {
		if int64(g)/c.per != side {
			c.comp[g] = nil
		}
	}
	c.stored, c.h.Sides = []int64{side}, 1<<side
}

// compressedTable is a table's file before it is written: its header
// (all but the checksums and the block count), and every block of the
// sides stored, compressed, in memory (a five-man table's are at most a
// few hundred MB).
type compressedTable struct {
	h      zHeader
	sides  [2][]byte // the values, White to move then Black
	o      ZOptions
	per    int64    // blocks per side
	stored []int64  // the sides stored, in file order
	comp   [][]byte // per block of both sides, its compressed bytes (nil: not stored)
	crcs   []uint32 // per block, the checksum of the bytes it stores (format 3)
	longs  []uint16 // per block, its longest mate
}

// newCompressedTable is the compressedTable of a file of these values
// (nil when they come from a Stream) in blocks of 1<<shift: its header
// and block count, both sides stored, no block compressed yet.
func newCompressedTable(l *Layout, sides [2][]byte, o ZOptions, shift uint8) *compressedTable {
	per := blocksPerSide(l.Size, shift)
	c := &compressedTable{
		h:      zHeader{men: uint32(l.Men), sig: l.Mat.String(), size: uint64(l.Size), Shift: shift, codec: codecZstd},
		sides:  sides,
		o:      o,
		per:    per,
		stored: []int64{0, 1},
		comp:   make([][]byte, 2*per),
		crcs:   make([]uint32, 2*per),
		longs:  make([]uint16, 2*per),
	}
	if o.Decided[0] != nil {
		c.h.Version, c.h.Sides, c.h.Flags = ZFormatDecided, 3, FlagConversions
	}
	return c
}

// compressTable compresses, whole, the blocks a file of one side stores:
// the side (and fill) that compresses smaller.
func compressTable(l *Layout, sides [2][]byte, o ZOptions, workers int) *compressedTable {
	c := newCompressedTable(l, sides, o, ZOneSideShift)
	c.compressOneSide(l, workers)
	return c
}

// streamBatch is how many blocks streamTo compresses before it writes
// them: 32 MiB of values, some 1,500 milliseconds of a core's work, so
// that the wait for the batch's last block costs little.
const streamBatch = 1024

// streamTo compresses the blocks of both sides batch blocks at a time,
// and writes each batch to f as it is done: only a batch's compressed
// blocks are held, never the file's (KQRPvKN's, 8.4 GB). It returns the
// file's size.
func (c *compressedTable) streamTo(f *os.File, workers int, batch int64) (int64, error) {
	fw, err := c.startFile(f)
	if err != nil {
		return 0, err
	}
	enc := ZstdEncoder(int64(c.h.size))
	encoder := func(int64) *zstd.Encoder { return enc }
	for from := int64(0); from < 2*c.per; from += batch {
		to := min(from+batch, 2*c.per)
		c.compress(workers, encoder, true, false, c.comp, c.crcs, func(int64) bool { return true }, from, to)
		if err := c.writeBlocks(fw, from, to); err != nil {
			return 0, err
		}
		if c.o.Paged {
			c.releaseValues(from, to)
		}
	}
	return c.finishFile(fw)
}

// releaseValues lets go of the resident pages of the values of blocks
// g0 to g1 (of both sides, in file order), which are written.
func (c *compressedTable) releaseValues(g0, g1 int64) {
	shift, size := c.h.Shift, int64(c.h.size)
	for side := range int64(2) {
		lo, hi := max(g0, side*c.per), min(g1, (side+1)*c.per)
		if lo < hi {
			i0, i1 := lo-side*c.per, hi-side*c.per
			ReleasePages(c.sides[side][i0<<shift : min(i1<<shift, size)])
		}
	}
}

// compress compresses into comp the blocks want picks among those from
// g0 to g1 (of both sides, in file order), filled (up: flagFillUp), and
// their checksums into crcs; first, it also finds every block's longest
// mate.
func (c *compressedTable) compress(workers int, enc func(i int64) *zstd.Encoder, first, up bool, comp [][]byte, crcs []uint32, want func(g int64) bool, g0, g1 int64) {
	size := int64(c.h.size)
	shift := c.h.Shift
	Blocks(g1-g0, workers, func(k int64, buf []byte) []byte {
		g := g0 + k
		side, i := g/c.per, g%c.per
		if first {
			from := i << shift
			c.longs[g] = longestMate(c.sides[side][from:min(from+1<<shift, size)])
		}
		if !want(g) {
			return buf
		}
		var b []byte
		b, buf = StoredBlock(c.sides[side], c.o.Decided[side], c.o.Unused[side], i, shift, up, buf)
		crcs[g] = crc32.Checksum(b, Castagnoli)
		comp[g] = enc(i).EncodeAll(b, nil)
		return buf
	})
}

// compressOneSide keeps the side, and the fill, whose blocks compress
// smallest, judged on every sampleEvery-th block at the "better" level,
// and compresses it with oneSideEncoder; the samples stand where that is
// "better" too.
func (c *compressedTable) compressOneSide(l *Layout, workers int) {
	sample := ZstdEncoder(l.Size)
	final := func(i int64) *zstd.Encoder { return OneSideEncoder(l, i) }
	sampling := func(int64) *zstd.Encoder { return sample }
	sampled := func(g int64) bool { return g%c.per%sampleEvery == 0 }
	compUp, crcsUp := make([][]byte, 2*c.per), make([]uint32, 2*c.per)
	fill := c.o.Fill
	if fill != FillUp {
		c.compress(workers, sampling, true, false, c.comp, c.crcs, sampled, 0, 2*c.per)
	}
	if fill != FillPrev {
		c.compress(workers, sampling, fill == FillUp, true, compUp, crcsUp, sampled, 0, 2*c.per)
	}
	side, up := c.smallestSample(compUp)
	if up {
		c.comp, c.crcs = compUp, crcsUp
		c.h.Flags |= FlagFillUp
	}
	c.stored = []int64{side}
	for g := range c.comp {
		if int64(g)/c.per != side || final(int64(g)%c.per) != sample {
			c.comp[g] = nil
		}
	}
	c.h.Sides = 1 << side
	c.compress(workers, final, false, up, c.comp, c.crcs, func(g int64) bool { return g/c.per == side && c.comp[g] == nil }, 0, 2*c.per)
}

// smallestSample picks, among the candidates the fill allows (side 0
// first, the byte before first), the side and fill whose sampled blocks
// (c.comp filled with the byte before, compUp a row back) are smallest.
func (c *compressedTable) smallestSample(compUp [][]byte) (side int64, up bool) {
	var bytes [2][2]int64 // fill up; side
	for g := range c.comp {
		bytes[0][int64(g)/c.per] += int64(len(c.comp[g]))
		bytes[1][int64(g)/c.per] += int64(len(compUp[g]))
	}
	// (side, up) candidates
	cands := [][2]int64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	switch c.o.Fill {
	case FillPrev:
		cands = cands[:2]
	case FillUp:
		cands = cands[2:]
	}
	side, up = cands[0][0], cands[0][1] == 1
	for _, k := range cands[1:] {
		if bytes[k[1]][k[0]] < bytes[b2i(up)][side] {
			side, up = k[0], k[1] == 1
		}
	}
	return side, up
}

// writeTo writes the file to f: the header, the block index, the blocks
// of the sides stored. It returns the file's size.
func (c *compressedTable) writeTo(f *os.File) (int64, error) {
	fw, err := c.startFile(f)
	if err != nil {
		return 0, err
	}
	for _, side := range c.stored {
		if err := c.writeBlocks(fw, side*c.per, (side+1)*c.per); err != nil {
			return 0, err
		}
	}
	return c.finishFile(fw)
}

// writeBlocks writes blocks g0 to g1 (of both sides, in file order).
func (c *compressedTable) writeBlocks(fw *fileWriter, g0, g1 int64) error {
	for g := g0; g < g1; g++ {
		if err := c.writeBlock(fw, g); err != nil {
			return err
		}
	}
	return nil
}

// fileWriter is a table file being written: the blocks go out in file
// order after the room left for the header and the block index, which
// are written last.
type fileWriter struct {
	f     *os.File
	w     *bufio.Writer
	index []byte // the block index: per block its offset and checksum, then the end
	off   int64  // where the next block goes
	k     int64  // the blocks written
}

// startFile leaves room at the start of f for the header and the index
// of the blocks of the sides stored, where the first block goes.
func (c *compressedTable) startFile(f *os.File) (*fileWriter, error) {
	n := int64(len(c.stored)) * c.per
	fw := &fileWriter{f: f, index: make([]byte, n*indexEntry+8)}
	fw.off = int64(ZHeaderSize) + int64(len(fw.index))
	if _, err := f.Seek(fw.off, io.SeekStart); err != nil {
		return nil, err
	}
	fw.w = bufio.NewWriterSize(f, 1<<20)
	return fw, nil
}

// writeBlock writes block g (of both sides, compressed), enters it in
// the index, takes its checksum into the values' (format 3: the
// checksum of the bytes it stores; else its values, when the file is
// written from them), and lets its bytes go.
func (c *compressedTable) writeBlock(fw *fileWriter, g int64) error {
	b := c.comp[g]
	binary.LittleEndian.PutUint64(fw.index[fw.k*indexEntry:], uint64(fw.off))
	binary.LittleEndian.PutUint32(fw.index[fw.k*indexEntry+8:], crc32.Checksum(b, Castagnoli))
	if _, err := fw.w.Write(b); err != nil {
		return err
	}
	fw.off += int64(len(b))
	fw.k++
	side, i := g/c.per, g%c.per
	switch {
	case c.h.Decides():
		c.h.crc = crc32.Update(c.h.crc, Castagnoli, binary.LittleEndian.AppendUint32(nil, c.crcs[g]))
	case c.sides[side] != nil: // (else compressFrom took it)
		shift, size := c.h.Shift, int64(c.h.size)
		c.h.crc = crc32.Update(c.h.crc, Castagnoli, c.sides[side][i<<shift:min((i+1)<<shift, size)])
	}
	c.comp[g] = nil
	return nil
}

// finishFile writes the header and the block index once every block is
// written. It returns the file's size.
func (c *compressedTable) finishFile(fw *fileWriter) (int64, error) {
	h := c.h
	for _, l := range c.longs {
		h.Longest = max(h.Longest, l)
	}
	if err := fw.w.Flush(); err != nil {
		return 0, err
	}
	n := fw.k
	binary.LittleEndian.PutUint64(fw.index[n*indexEntry:], uint64(fw.off))
	h.indexCRC, h.Blocks = crc32.Checksum(fw.index, Castagnoli), uint32(n)
	if _, err := fw.f.WriteAt(h.encode(), 0); err != nil {
		return 0, err
	}
	if _, err := fw.f.WriteAt(fw.index, ZHeaderSize); err != nil {
		return 0, err
	}
	return fw.off, nil
}

// writeAtomic writes a file through a temporary file in the same
// directory, synced and renamed into place, so that no reader sees half
// of it; on any error the temporary file is removed.
func writeAtomic(path string, write func(f *os.File) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	if d, e := os.Open(dir); e == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// StoredBlock returns the bytes a file stores for block i of one side's
// values (blocks of 1<<shift): the values themselves, or, with decided
// given (format 3), a copy in buf filled by fillDecided. buf is returned
// for reuse.
func StoredBlock(vals []byte, decided, unused []uint64, i int64, shift uint8, up bool, buf []byte) ([]byte, []byte) {
	from := i << shift
	b := vals[from:min(from+1<<shift, int64(len(vals)))]
	if decided == nil {
		return b, buf
	}
	buf = FillDecided(append(buf[:0], b...), decided, unused, from, up)
	return buf, buf
}

// Blocks runs do(g, buf) for g in 0..n-1 on workers goroutines (0: one
// per core), each with its own buffer (do returns it, grown as needed).
func Blocks(n int64, workers int, do func(g int64, buf []byte) []byte) {
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

// FillDecidedWide is FillDecided for two-byte values (little-endian, a
// block of one side from index from, a multiple of 64), without the
// fill from a row before: each decided position takes the value before
// it when that is no better for the side to move, each unused slot the
// value before it.
func FillDecidedWide(b []byte, decided, unused []uint64, from int64) []byte {
	n := len(b) / 2
	at := func(i int) Value { return Value(b[2*i]) | Value(b[2*i+1])<<8 }
	for w := 0; w < n; w += 64 {
		k := (from + int64(w)) >> 6
		u := unused[k]
		for m := u | decided[k]; m != 0; m &= m - 1 {
			j := bits.TrailingZeros64(m)
			i := w + j
			if i >= n {
				break
			}
			prev := Value(0)
			if i > 0 {
				prev = at(i - 1)
			}
			if u>>j&1 != 0 || !prev.Better(at(i)) {
				b[2*i], b[2*i+1] = byte(prev), byte(prev>>8)
			}
		}
	}
	return b
}

// FillDecided rewrites, in the block b of one side that starts at index
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
func FillDecided(b []byte, decided, unused []uint64, from int64, up bool) []byte {
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
