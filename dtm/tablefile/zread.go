package tablefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
)

var (
	decOnce sync.Once
	decoder *zstd.Decoder
)

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

// Compressed is an open compressed table: its mapped file and block index.
type Compressed struct {
	Header zHeader
	File   []byte // the whole file, mapped
	Per    int64  // blocks per side
	Id     uint64 // the cache's key for this table
	Cache  *BlockCache
	// ReleaseRead lets go of the file's resident pages each time
	// releaseEvery bytes of blocks have been decoded from it (ReleasePages):
	// a six-man file, up to 8 GB, read block by block by a build, stays
	// in the page cache, not in the process's resident memory
	ReleaseRead bool
	readSince   atomic.Int64             // bytes of blocks decoded since the last release
	slots       []atomic.Pointer[cached] // per block, the cache's copy if any
	Corrupt     func(g int64, err error)
}

// OpenCompressed maps a compressed table file and checks its header, its
// index and (check) every block's checksum.
func OpenCompressed(path string, l *Layout, check bool) (*Compressed, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	hb := make([]byte, ZHeaderSize)
	if _, err := io.ReadFull(f, hb); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	h, err := parseZHeader(hb, l)
	if err != nil {
		return nil, nil, err
	}
	indexEnd := int64(ZHeaderSize) + int64(h.Blocks)*indexEntry + 8
	if st.Size() < indexEnd {
		return nil, nil, fmt.Errorf("%w: %d bytes, shorter than its block index", ErrCorrupt, st.Size())
	}
	data, release, err := MapFile(f, st.Size())
	if err != nil {
		return nil, nil, err
	}
	z := &Compressed{Header: h, File: data, Per: blocksPerSide(l.Size, h.Shift), slots: make([]atomic.Pointer[cached], h.Blocks)}
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
		ReleasePages(z.File)
	}
	return z, release, nil
}

// Index returns block g's bytes and checksum.
func (z *Compressed) Index(g int64) (from, to int64, crc uint32) {
	e := z.File[ZHeaderSize+g*indexEntry:]
	from = int64(binary.LittleEndian.Uint64(e))
	crc = binary.LittleEndian.Uint32(e[8:])
	to = int64(binary.LittleEndian.Uint64(e[indexEntry:]))
	return from, to, crc
}

// checkIndex checks the index's checksum and that its offsets climb
// within the file.
func (z *Compressed) checkIndex() error {
	n := int64(z.Header.Blocks)
	idx := z.File[ZHeaderSize : ZHeaderSize+n*indexEntry+8]
	if crc32.Checksum(idx, Castagnoli) != z.Header.indexCRC {
		return fmt.Errorf("%w: block index checksum", ErrCorrupt)
	}
	prev := int64(len(idx)) + ZHeaderSize
	for g := int64(0); g < n; g++ {
		from, to, _ := z.Index(g)
		if from != prev || to < from || to > int64(len(z.File)) {
			return fmt.Errorf("%w: block %d lies outside the file", ErrCorrupt, g)
		}
		prev = to
	}
	if prev != int64(len(z.File)) {
		return fmt.Errorf("%w: %d bytes, its blocks end at %d", ErrCorrupt, len(z.File), prev)
	}
	return nil
}

// checkBlocks checks every block's checksum; it returns the first block
// that fails.
func (z *Compressed) checkBlocks() (int64, error) {
	for g := int64(0); g < int64(z.Header.Blocks); g++ {
		from, to, crc := z.Index(g)
		if crc32.Checksum(z.File[from:to], Castagnoli) != crc {
			return g, fmt.Errorf("%w: block checksum", ErrCorrupt)
		}
	}
	return 0, nil
}

// entries is how many positions block g holds.
func (z *Compressed) entries(g int64) int {
	i := g % z.Per
	size := int64(z.Header.size)
	return int(min((i+1)<<z.Header.Shift, size) - i<<z.Header.Shift)
}

// Decode decompresses block g into dst (reused when large enough),
// checking its checksum and length.
func (z *Compressed) Decode(g int64, dst []byte) ([]byte, error) {
	from, to, crc := z.Index(g)
	c := z.File[from:to]
	if crc32.Checksum(c, Castagnoli) != crc {
		return nil, fmt.Errorf("%w: %s block %d: checksum", ErrCorrupt, z.Header.sig, g)
	}
	out, err := zstdDecoder().DecodeAll(c, dst[:0])
	if err != nil {
		return nil, fmt.Errorf("%w: %s block %d: %v", ErrCorrupt, z.Header.sig, g, err)
	}
	if want := z.entries(g) * z.Header.ValueBytes(); len(out) != want {
		return nil, fmt.Errorf("%w: %s block %d: %d bytes, want %d", ErrCorrupt, z.Header.sig, g, len(out), want)
	}
	return out, nil
}

// At reads the value of index idx with side stm to move, through the
// block cache.
func (z *Compressed) At(stm int, idx int64) (Value, error) {
	slot := int64(stm)
	if !z.Header.Stores(stm) {
		return Draw, errNotStored
	} else if z.Header.SidesStored() == 1 {
		slot = 0
	}
	g := slot*z.Per + idx>>z.Header.Shift
	b, err := z.Cache.get(z, g)
	if err != nil {
		if z.Corrupt != nil {
			z.Corrupt(g, err)
		}
		return Draw, err
	}
	return z.ValueIn(b, idx&(1<<z.Header.Shift-1)), nil
}

// ValueIn is the value of the i-th position of a decompressed block b:
// its byte, or in a wide file its low byte and its high byte, which
// follow the block's low bytes.
func (z *Compressed) ValueIn(b []byte, i int64) Value {
	if z.Header.Wide() {
		k := int64(len(b) / 2)
		return Value(b[i]) | Value(b[k+i])<<8
	}
	return Value(b[i])
}

// Entries is how many positions block g holds.
func (z *Compressed) Entries(g int64) int { return z.entries(g) }

// BlockSide is the side to move whose values block g holds, and the
// index of its first position.
func (z *Compressed) BlockSide(g int64) (stm int, first int64) {
	slot := g / z.Per
	stm = int(slot)
	if z.Header.SidesStored() == 1 {
		stm = int(z.Header.Sides >> 1 & 1) // (bit 1: Black alone)
	}
	return stm, g % z.Per << z.Header.Shift
}

// errNotStored: a file of format 3 does not hold the side asked for.
var errNotStored = errors.New("side to move not stored in this table's file")

// DecompressAll writes every value stored, White to move then Black, to w
// (in a wide file, each block's low bytes then its high bytes).
func (z *Compressed) DecompressAll(w io.Writer) (uint32, error) {
	crc := uint32(0)
	var buf []byte
	for g := int64(0); g < int64(z.Header.Blocks); g++ {
		b, err := z.Decode(g, buf)
		if err != nil {
			return 0, err
		}
		if z.Header.Decides() {
			crc = crc32.Update(crc, Castagnoli, binary.LittleEndian.AppendUint32(nil, crc32.Checksum(b, Castagnoli)))
		} else {
			crc = crc32.Update(crc, Castagnoli, b)
		}
		if _, err := w.Write(b); err != nil {
			return 0, err
		}
		buf = b
	}
	if crc != z.Header.crc {
		return crc, fmt.Errorf("%w: %s: checksum of the values", ErrCorrupt, z.Header.sig)
	}
	return crc, nil
}
