package dtm

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
		if z.h.version >= zFormatDecided {
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
