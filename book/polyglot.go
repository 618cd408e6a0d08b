package book

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"mateline.dev/mateline/board"
)

// entrySize is the size of a Polyglot entry: key u64, move u16, weight
// u16, learn u32, big-endian.
const entrySize = 16

// File is one Polyglot book, read through a ReaderAt: lookups are binary
// searches, and the file is never loaded whole.
type File struct {
	path    string
	r       io.ReaderAt
	closer  io.Closer
	entries int64
	// sparse holds the key of every indexStride-th entry, so a lookup
	// reads one block instead of searching the file entry by entry.
	sparse []uint64
}

// indexStride is the number of entries per block of the sparse index.
const indexStride = 256

// BookError is a problem with a book file; it names the file.
type BookError struct {
	Path string
	Err  error
}

func (e *BookError) Error() string { return fmt.Sprintf("book %s: %v", e.Path, e.Err) }

func (e *BookError) Unwrap() error { return e.Err }

// OpenFile opens a Polyglot book and checks that it is one: a whole number
// of 16-byte entries, sorted by key.
func OpenFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &BookError{path, err}
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &BookError{path, err}
	}
	bf, err := NewFile(path, f, st.Size())
	if err != nil {
		f.Close()
		return nil, err
	}
	bf.closer = f
	return bf, nil
}

// NewFile reads a Polyglot book of size bytes from r; path names it in
// errors. It checks the size and the key order in one sequential pass.
func NewFile(path string, r io.ReaderAt, size int64) (*File, error) {
	switch {
	case size == 0:
		return nil, &BookError{path, errors.New("empty file: not a Polyglot book")}
	case size%entrySize != 0:
		return nil, &BookError{path, fmt.Errorf("%d bytes is not a multiple of 16: truncated, or not a Polyglot book", size)}
	}
	bf := &File{path: path, r: r, entries: size / entrySize}
	buf := make([]byte, 4096*entrySize)
	var prev uint64
	for off := int64(0); off < size; {
		n := min(int64(len(buf)), size-off)
		if _, err := r.ReadAt(buf[:n], off); err != nil {
			return nil, &BookError{path, err}
		}
		for i := int64(0); i < n; i += entrySize {
			k := binary.BigEndian.Uint64(buf[i:])
			if (off+i)/entrySize%indexStride == 0 {
				bf.sparse = append(bf.sparse, k)
			}
			if k < prev {
				return nil, &BookError{path, fmt.Errorf("entry %d is out of key order: a Polyglot book must be sorted by key", (off+i)/entrySize)}
			}
			prev = k
		}
		off += n
	}
	return bf, nil
}

// Close closes the file.
func (f *File) Close() error {
	if f.closer == nil {
		return nil
	}
	return f.closer.Close()
}

// Entries returns the number of entries.
func (f *File) Entries() int64 { return f.entries }

// Entry is one raw book entry.
type Entry struct {
	Key    uint64
	Move   uint16
	Weight uint16
	Learn  uint32
}

func decodeEntry(b []byte) Entry {
	return Entry{
		Key:    binary.BigEndian.Uint64(b[0:]),
		Move:   binary.BigEndian.Uint16(b[8:]),
		Weight: binary.BigEndian.Uint16(b[10:]),
		Learn:  binary.BigEndian.Uint32(b[12:]),
	}
}

// Lookup returns the entries for key in file order.
func (f *File) Lookup(key uint64) ([]Entry, error) {
	// The block whose first key is the last one below key may end with
	// the first entries for key; the run can go on into later blocks.
	block := sort.Search(len(f.sparse), func(i int) bool { return f.sparse[i] >= key }) - 1
	block = max(block, 0)
	var out []Entry
	buf := make([]byte, indexStride*entrySize)
	for start := int64(block) * indexStride; start < f.entries; start += indexStride {
		n := min(indexStride, f.entries-start)
		if _, err := f.r.ReadAt(buf[:n*entrySize], start*entrySize); err != nil {
			return nil, &BookError{f.path, err}
		}
		for i := int64(0); i < n; i++ {
			e := decodeEntry(buf[i*entrySize:])
			switch {
			case e.Key == key:
				out = append(out, e)
			case e.Key > key:
				return out, nil
			}
		}
	}
	return out, nil
}

// DecodeMove turns a raw Polyglot move into the legal move it names in pos.
// Castling is stored as king-takes-rook (e1h1); it is castling only when
// the king stands on the from-square (a rook on e1 may really move to h1).
// ok is false when the move is not legal in pos.
func DecodeMove(pos *board.Position, raw uint16) (board.Move, bool) {
	var l board.MoveList
	pos.LegalMoves(&l)
	return decodeIn(pos, &l, raw)
}

// decodeIn is DecodeMove against the legal moves l of pos.
func decodeIn(pos *board.Position, l *board.MoveList, raw uint16) (board.Move, bool) {
	to := board.MakeSquare(int(raw&7), int(raw>>3&7))
	from := board.MakeSquare(int(raw>>6&7), int(raw>>9&7))
	promo := board.NoPieceType
	if p := raw >> 12 & 7; p >= 1 && p <= 4 {
		promo = board.Knight + board.PieceType(p-1)
	} else if p != 0 {
		return board.NoMove, false
	}
	if pc := pos.PieceAt(from); pc.Type() == board.King && pos.PieceAt(to) == board.MakePiece(pc.Color(), board.Rook) {
		switch {
		case to.File() == 7:
			to = from + 2
		case to.File() == 0:
			to = from - 2
		}
	}
	for _, m := range l.Slice() {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m, true
		}
	}
	return board.NoMove, false
}
