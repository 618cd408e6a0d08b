package dtm

import (
	"bufio"
	"fmt"
	"os"
)

// rawCopy is a table's values decompressed whole, for the builds that
// read it (a build reads its smaller tables position by position, far too
// often to go through blocks): a scratch file in the cache directory,
// removed as soon as it is mapped, so that it takes no disk once let go
// or once the process ends, killed or not. Its pages are the system's
// page cache, not the heap.
type rawCopy struct {
	data    []byte // White to move, then Black
	release func()
	refs    int
}

// acquireRaw makes t's values readable whole (t.rawData) until the
// matching releaseRaw.
func (s *Store) acquireRaw(t *Table) error {
	s.rawMu.Lock()
	defer s.rawMu.Unlock()
	if t.rawc != nil {
		t.rawc.refs++
		return nil
	}
	if t.z == nil {
		return fmt.Errorf("%s: no values", t.l.mat)
	}
	data, release, err := decompressToScratch(s.dir, t)
	if err != nil {
		return fmt.Errorf("decompressing %s for a build: %w", t.l.mat, err)
	}
	t.rawc = &rawCopy{data: data, release: release, refs: 1}
	t.raw.Store(&data)
	return nil
}

// releaseRaw lets go of a hold taken by acquireRaw. The copy of a table of
// up to four men stays until the store closes (172 MiB for all of them,
// read by every larger build); a larger one goes with its last hold.
func (s *Store) releaseRaw(t *Table) {
	s.rawMu.Lock()
	defer s.rawMu.Unlock()
	if t.rawc == nil {
		return
	}
	t.rawc.refs--
	if t.rawc.refs > 0 || t.l.men <= concurrentMen {
		return
	}
	t.dropRaw()
}

// dropRaw unmaps t's raw copy (rawMu held; no hold left).
func (t *Table) dropRaw() {
	if t.rawc == nil {
		return
	}
	t.raw.Store(nil)
	t.rawc.release()
	t.rawc = nil
}

// decompressToScratch writes t's values to an unlinked file in dir and
// maps it.
func decompressToScratch(dir string, t *Table) ([]byte, func(), error) {
	f, err := os.CreateTemp(dir, "."+t.l.mat.String()+".raw*")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	unlinked := os.Remove(f.Name()) == nil // not on every system while open
	w := bufio.NewWriterSize(f, 1<<20)
	if _, err = t.z.decompressAll(w); err == nil {
		err = w.Flush()
	}
	if err != nil {
		if !unlinked {
			os.Remove(f.Name())
		}
		return nil, nil, err
	}
	data, release, err := mapFile(f, 2*t.l.size)
	if err != nil {
		if !unlinked {
			os.Remove(f.Name())
		}
		return nil, nil, err
	}
	if !unlinked {
		name := f.Name()
		inner := release
		release = func() { inner(); os.Remove(name) }
	}
	return data, release, nil
}
