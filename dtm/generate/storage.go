package generate

import "mateline.dev/mateline/dtm/tablefile"

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
type wholeStorage struct {
	onDisk bool
	dir    string
	// checkpoint, when set (with onDisk), names the files kept instead
	// of unlinked scratch files; resumable says each was there whole
	// (set with it, cleared by a file made afresh)
	checkpoint *Checkpoint
	resumable  bool
	unmap      []func()
	drop       []func()       // per mapping, the release of its resident pages
	syncs      []func() error // per checkpoint file, the write of its pages
}

// byteArray is a ByteArray of n bytes, zero (or a checkpoint's), for
// side to move side.
func (st *wholeStorage) byteArray(n int64, side int) (tablefile.ByteArray, error) {
	if !st.onDisk {
		return tablefile.NewByteArray(n), nil
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
		return make([]uint64, n), nil
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

// sync writes every checkpoint file's dirty pages and waits for them.
func (st *wholeStorage) sync() error {
	for _, s := range st.syncs {
		if err := s(); err != nil {
			return err
		}
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
