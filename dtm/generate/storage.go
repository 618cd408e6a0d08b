package generate

import (
	"fmt"
	"io"
	"os"

	"mateline.dev/mateline/dtm/tablefile"
)

// mappedWords returns n zero words in a shared mapping of a scratch file
// (mapped): a bounded build's bit sets on disk.
func mappedWords(dir string, n int64) (words []uint64, release func(), err error) {
	return mapped[uint64](dir, n, "bit sets")
}

// wholeStorage is where a build by rows keeps what it holds of the whole
// table, its values and its decided and unused bits: the heap, or, for a
// table with pawns too large for memory (Options.ValuesOnDisk), shared
// mappings of scratch files in dir, paged by the system. A group of
// slices reads only its own positions and those of the slices its pawn
// moves lead to, so the pages it touches are a few slices' (the heap
// holds the group's own arrays either way).
//
// A checkpoint keeps the arrays in files that a killed build goes on
// from: on disk, the mapped files themselves; on the heap, files the
// rows of each group finished are written to (saved), read back whole
// when the build goes on.
type wholeStorage struct {
	onDisk bool
	dir    string
	// checkpoint, when set, names the files kept; resumable says each
	// was there whole (set with it, cleared by a file made afresh or
	// missing)
	checkpoint *Checkpoint
	resumable  bool
	unmap      []func()
	drop       []func()       // per mapping, the release of its resident pages
	syncs      []func() error // per checkpoint file, the write of its pages
	saved      []savedArray   // on the heap with a checkpoint: the arrays a group's rows are saved from
}

// savedArray is an array of the heap that a checkpoint's file keeps, a
// group's rows at a time.
type savedArray struct {
	path   string
	bytes  []byte // the array's memory
	perRow int64  // its bytes for a row of 64 positions
}

// byteArray is a ByteArray of n bytes, zero (or a checkpoint's), for
// side to move side.
func (st *wholeStorage) byteArray(n int64, side int) (tablefile.ByteArray, error) {
	if !st.onDisk {
		a := tablefile.NewByteArray(n)
		return a, st.keepOnHeap(a.Bytes(n), 64, "values", side)
	}
	w, err := mapping[uint32](st, (n+3)/4, "values", side)
	if err != nil {
		return nil, err
	}
	return tablefile.ByteArray(w), nil
}

// words is n zero words (or a checkpoint's): what (decided, unused) of
// side to move side.
func (st *wholeStorage) words(n int64, what string, side int) ([]uint64, error) {
	if !st.onDisk {
		w := make([]uint64, n)
		return w, st.keepOnHeap(wordBytes(w), 8, what, side)
	}
	return mapping[uint64](st, n, what, side)
}

// mapping maps n words of st's on disk: a checkpoint's file, or an
// unlinked scratch file.
func mapping[T uint32 | uint64](st *wholeStorage, n int64, what string, side int) ([]T, error) {
	if st.checkpoint == nil {
		w, unmap, err := mapped[T](st.dir, n, what)
		if err != nil {
			return nil, err
		}
		st.keep(unmap, func() { dropPages(w) })
		return w, nil
	}
	w, unmap, sync, existed, err := mappedFile[T](st.checkpoint.arrayFile(what, side), n)
	if err != nil {
		return nil, err
	}
	st.resumable = st.resumable && existed
	st.keep(unmap, func() { dropPages(w) })
	st.syncs = append(st.syncs, sync)
	return w, nil
}

// keepOnHeap adds an array of the heap (b, perRow bytes a row) to those
// a checkpoint saves, and fills it from the checkpoint's file when a
// killed build left one (a file missing makes the checkpoint not
// resumable). Without a checkpoint it does nothing.
func (st *wholeStorage) keepOnHeap(b []byte, perRow int64, what string, side int) error {
	if st.checkpoint == nil {
		return nil
	}
	path := st.checkpoint.arrayFile(what, side)
	st.saved = append(st.saved, savedArray{path, b, perRow})
	if !st.resumable {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		st.resumable = false
		return nil
	}
	defer f.Close()
	// (a file holds the rows of the groups finished, the rest a hole)
	if _, err := f.ReadAt(b, 0); err != nil && err != io.EOF {
		return fmt.Errorf("reading checkpoint file %s: %w", path, err)
	}
	return nil
}

// sync writes every checkpoint file's dirty pages and waits for them;
// on the heap, it writes the rows [lo, hi) of each array saved to its
// file, synced.
func (st *wholeStorage) sync(lo, hi int64) error {
	for _, s := range st.syncs {
		if err := s(); err != nil {
			return err
		}
	}
	for _, a := range st.saved {
		if err := a.saveRows(lo, hi); err != nil {
			return err
		}
	}
	return nil
}

// saveRows writes rows [lo, hi) of the array to its file, at their
// place, and syncs it.
func (a savedArray) saveRows(lo, hi int64) error {
	f, err := os.OpenFile(a.path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("checkpoint file: %w", err)
	}
	from, to := lo*a.perRow, min(hi*a.perRow, int64(len(a.bytes)))
	_, err = f.WriteAt(a.bytes[from:to], from)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("checkpoint file %s: %w", a.path, err)
	}
	return nil
}

// keep adds a mapping to those release lets go, and its pages to those
// dropPages lets go.
func (st *wholeStorage) keep(unmap, drop func()) {
	st.unmap, st.drop = append(st.unmap, unmap), append(st.drop, drop)
}

// dropPages lets go of the resident pages of every mapping, between two
// groups of slices: they stay in the page cache, and the next group maps
// again those it reads, so the process holds the pages of one group's
// work, not of every group before (KQRPvKN's values and bits are 64 GB).
func (st *wholeStorage) dropPages() {
	for _, d := range st.drop {
		d()
	}
}

// release is what lets every mapping go, or nil when nothing is mapped.
func (st *wholeStorage) release() func() {
	if len(st.unmap) == 0 {
		return nil
	}
	return func() {
		for _, u := range st.unmap {
			u()
		}
		st.unmap = nil
	}
}
