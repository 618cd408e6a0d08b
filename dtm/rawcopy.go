package dtm

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"sync/atomic"
	"time"

	"mateline.dev/mateline/dtm/generate"
	"mateline.dev/mateline/dtm/tablefile"
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
	kept    bool // kept after its last hold (keepRaw)
}

// keptRawBytes bounds the raw copies kept of the tables of format 3 this
// store built or built again: a build that reads one of those (a
// promotion) needs its values whole, which its file no longer gives;
// kept, they need not be built again. Over the bound, the oldest goes
// first, or, in a set build (Plan), the one the set reads last; one that
// no build of the set reads any more goes at once.
const keptRawBytes = 16 << 30

// keepRaw writes the values of t, just built, to a scratch copy kept
// for the builds that read it (rawMu not held); in a set build (Plan),
// only if a build still to come reads it.
func (s *Store) keepRaw(t *Table, val [2][]byte) error {
	if !s.readLater(t.l.Mat) {
		return nil
	}
	data, release, err := writeScratch(s.dir, t.l, val)
	if err != nil {
		return err
	}
	s.adoptRaw(t, data, release)
	return nil
}

// readLater reports whether a build may still read m's values whole:
// outside a set build (Plan), always; in one, while a table still to
// come reads m's.
func (s *Store) readLater(m tablefile.Material) bool {
	s.rawMu.Lock()
	defer s.rawMu.Unlock()
	return s.plan == nil || s.plan.nextRead(m.String()) < len(s.plan.keys)
}

// readThroughFile reports whether a build still to come in the set
// build (Plan) reads m's table through its file (Store.throughFilesMen),
// which must then store both sides as they are: m is written in format 2.
func (s *Store) readThroughFile(m tablefile.Material) bool {
	if m.Men() < s.throughFilesMen {
		return false
	}
	s.rawMu.Lock()
	defer s.rawMu.Unlock()
	return s.plan != nil && s.plan.nextRead(m.String()) < len(s.plan.keys)
}

// adoptRaw keeps data, a scratch copy of t's values mapped (release
// unmaps it), as t's raw copy for the builds that read it (rawMu not
// held).
func (s *Store) adoptRaw(t *Table, data []byte, release func()) {
	s.rawMu.Lock()
	defer s.rawMu.Unlock()
	if t.rawc != nil {
		release()
		return
	}
	t.rawc = &rawCopy{data: data, release: release, kept: true}
	t.raw.Store(&data)
	s.kept = append(s.kept, t)
	s.evictKept()
}

// evictKept lets go of kept raw copies over s.keptBytes, and, in a set
// build, of those no later build reads (rawMu held). A copy still held
// goes at its last release.
func (s *Store) evictKept() {
	drop := func(i int) {
		old := s.kept[i]
		s.kept = slices.Delete(s.kept, i, i+1)
		if old.rawc != nil {
			old.rawc.kept = false
			if old.rawc.refs == 0 {
				old.dropRaw()
			}
		}
	}
	next := func(t *Table) int { return s.plan.nextRead(t.l.Mat.String()) }
	if s.plan != nil {
		for i := len(s.kept) - 1; i >= 0; i-- {
			if next(s.kept[i]) == len(s.plan.keys) {
				drop(i)
			}
		}
	}
	total := int64(0)
	for _, k := range s.kept {
		total += 2 * k.l.Size
	}
	for len(s.kept) > 1 && total > s.keptBytes {
		i := 0
		if s.plan != nil {
			for j := range s.kept {
				if next(s.kept[j]) > next(s.kept[i]) {
					i = j
				}
			}
		}
		total -= 2 * s.kept[i].l.Size
		drop(i)
	}
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
		return fmt.Errorf("%s: no values", t.l.Mat)
	}
	if t.z.Header.Wide() {
		// (a wide table has six men or more: its parents with pawns read
		// it through its file, as they read every six-man promotion)
		return fmt.Errorf("%s: its values take two bytes and are read through its blocks, not whole", t.l.Mat)
	}
	var data []byte
	var release func()
	var err error
	if t.z.Header.Decides() {
		// its file leaves values to the probe: the values whole come from
		// building it again (its own tables held meanwhile, outside the
		// lock: they may need the same)
		s.rawMu.Unlock()
		data, release, err = s.rebuildToScratch(t)
		s.rawMu.Lock()
		if err == nil && t.rawc != nil { // another holder was quicker
			release()
			t.rawc.refs++
			return nil
		}
	} else {
		data, release, err = decompressToScratch(s.dir, t)
	}
	if err != nil {
		return fmt.Errorf("reading %s whole for a build: %w", t.l.Mat, err)
	}
	t.rawc = &rawCopy{data: data, release: release, refs: 1}
	t.raw.Store(&data)
	if t.z.Header.Decides() {
		// built again: kept, like a copy this store built
		t.rawc.kept = true
		s.kept = append(s.kept, t)
		s.evictKept()
	}
	return nil
}

// rebuildToScratch builds t's values again, for a build that reads them
// whole, and writes them to an unlinked scratch file, mapped.
func (s *Store) rebuildToScratch(t *Table) ([]byte, func(), error) {
	val, _, _, err := s.buildAgain(t, false)
	if err != nil {
		return nil, nil, err
	}
	data, release, err := writeScratch(s.dir, t.l, [2][]byte{val[0].Bytes(t.l.Size), val[1].Bytes(t.l.Size)})
	val = [2]tablefile.ByteArray{}
	debug.FreeOSMemory()
	return data, release, err
}

// buildAgain builds the values of t, a table on disk, again in memory
// (with the positions captures and promotions decide when decide is
// set), its children held meanwhile, and reports it as a build Again.
func (s *Store) buildAgain(t *Table, decide bool) ([2]tablefile.ByteArray, [2][]uint64, [2][]uint64, error) {
	m := t.l.Mat
	held, err := s.holdChildren(m, tablefile.MaxMen)
	defer func() {
		for _, c := range held {
			s.releaseRaw(c)
		}
	}()
	if err != nil {
		return [2]tablefile.ByteArray{}, [2][]uint64{}, [2][]uint64{}, err
	}
	resolve := s.resolveForBuild
	start := time.Now()
	b, err := generate.Build(t.l, s.lookupHeld, resolve, generate.Options{Workers: s.workers, Progress: s.sliceReporter(m, start, true), ByPositions: s.byPositions, Decide: decide})
	if err == nil && b.Stream != nil {
		// (its values' high bytes are in the stream alone: a wide table
		// is read through its blocks, never whole)
		return [2]tablefile.ByteArray{}, [2][]uint64{}, [2][]uint64{}, fmt.Errorf("%s: built again, its values take two bytes and are not read whole", m)
	}
	if err == nil && s.progress != nil {
		s.progress(BuildEvent{Table: m.String(), Finished: true, Elapsed: time.Since(start), Again: true})
	}
	return b.Values, b.Decided, b.Unused, err
}

// checkFile builds the values of t, whose file is of format 3, again,
// and compares every block the file stores with the block a writer
// makes of them (the positions captures and promotions decide filled
// the same way): it returns the blocks that differ or do not decode.
// The values are kept as t's raw copy for the checks that read them
// next.
func (s *Store) checkFile(t *Table) (int64, error) {
	val, decided, unused, err := s.buildAgain(t, true)
	if err != nil {
		return 0, err
	}
	sides := [2][]byte{val[0].Bytes(t.l.Size), val[1].Bytes(t.l.Size)}
	z := t.z
	var stored []int
	for stm := 0; stm < 2; stm++ {
		if z.Header.Stores(stm) {
			stored = append(stored, stm)
		}
	}
	if z.Header.Flags&tablefile.FlagConversions == 0 {
		decided, unused = [2][]uint64{}, [2][]uint64{} // stored as built
	}
	var bad atomic.Int64
	tablefile.Blocks(int64(z.Header.Blocks), s.workers, func(g int64, buf []byte) []byte {
		side := stored[g/z.Per]
		var want []byte
		want, buf = tablefile.StoredBlock(sides[side], decided[side], unused[side], g%z.Per, z.Header.Shift, z.Header.Flags&tablefile.FlagFillUp != 0, buf)
		got, err := z.Decode(g, nil)
		if err != nil || !bytes.Equal(got, want) {
			bad.Add(1)
		}
		return buf
	})
	decided, unused = [2][]uint64{}, [2][]uint64{}
	err = s.keepRaw(t, sides)
	val = [2]tablefile.ByteArray{}
	debug.FreeOSMemory()
	return bad.Load(), err
}

// writeScratch writes the values of l's table (val: White to move,
// Black) to an unlinked scratch file in dir, mapped.
func writeScratch(dir string, l *tablefile.Layout, val [2][]byte) ([]byte, func(), error) {
	return scratchCopy(dir, l, func(w io.Writer) error {
		for side := 0; side < 2; side++ {
			if _, err := w.Write(val[side]); err != nil {
				return err
			}
		}
		return nil
	})
}

// scratchCopy writes the values of l's table whole with write to a
// file in dir, unlinked at once where the system allows, and maps it.
func scratchCopy(dir string, l *tablefile.Layout, write func(io.Writer) error) ([]byte, func(), error) {
	f, err := os.CreateTemp(dir, "."+l.Mat.String()+".raw*")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	unlinked := os.Remove(f.Name()) == nil // not on every system while open
	w := bufio.NewWriterSize(f, 1<<20)
	if err = write(w); err == nil {
		err = w.Flush()
	}
	var data []byte
	var release func()
	if err == nil {
		data, release, err = tablefile.MapFile(f, 2*l.Size)
	}
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
	if t.rawc.refs > 0 || t.rawc.kept || t.l.Men <= concurrentMen {
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
	return scratchCopy(dir, t.l, func(w io.Writer) error {
		_, err := t.z.DecompressAll(w)
		return err
	})
}
