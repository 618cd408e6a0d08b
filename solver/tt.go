package solver

import (
	"math/bits"
	"sync/atomic"
	"unsafe"

	"mateline.dev/mateline/board"
)

// Bound says how a stored score relates to the true value.
type Bound uint8

// The bound types.
const (
	BoundNone  Bound = 0
	BoundUpper Bound = 1 // the value is at most the score (the search failed low)
	BoundLower Bound = 2 // the value is at least the score (the search failed high)
	BoundExact Bound = 3
)

// ttEntry is what the table holds about one position.
type ttEntry struct {
	move  board.Move
	score int16
	depth uint8
	bound Bound
	gen   uint32 // the search that stored it (genBits bits)
}

// genBits is the width of the generation stored with an entry: searches
// are told apart for 4 million searches before the count wraps.
const (
	genBits = 22
	genMask = 1<<genBits - 1
)

// pack and unpack turn an entry into one 64-bit word and back: the move in
// bits 0-15, the score in 16-31, the depth in 32-39, the bound in 40-41
// and the generation in 42-63.
func (e ttEntry) pack() uint64 {
	return uint64(e.move) | uint64(uint16(e.score))<<16 | uint64(e.depth)<<32 | uint64(e.bound&3)<<40 | uint64(e.gen&genMask)<<42
}

func unpack(d uint64) ttEntry {
	return ttEntry{move: board.Move(d), score: int16(uint16(d >> 16)), depth: uint8(d >> 32), bound: Bound(d>>40) & 3, gen: uint32(d >> 42)}
}

// ttSlot is one entry in memory: 16 bytes, the data and the full 64-bit
// key XORed with it. Several threads read and write the table without
// locks; each word is read and written whole, and a slot whose two words
// come from different writes fails the key check, so a torn entry is never
// taken for a valid one. The full key is kept, so a false hit needs a
// 64-bit collision: a wrong entry could otherwise prove a false mate.
type ttSlot struct {
	keyXorData atomic.Uint64
	data       atomic.Uint64
}

const bucketSize = 4

// ttBucket holds four entries: 64 bytes, one cache line.
type ttBucket [bucketSize]ttSlot

// Table is a transposition table of memoized bounds, shared by the threads
// of a solve. Its memory is fixed when it is made and never grows.
type Table struct {
	buckets    []ttBucket
	generation atomic.Uint32
	// isolated makes the entries of earlier searches count as empty when
	// a slot is chosen, so that a search stores exactly what it would in
	// an empty table (Options.Fresh). It is set between searches.
	isolated bool
}

// NewTable makes a table of at most mib MiB (at least one bucket).
func NewTable(mib int) *Table { return newTableBytes(uint64(mib) << 20) }

// newTableBytes makes a table of at most size bytes (at least one bucket).
func newTableBytes(size uint64) *Table {
	n := size / 64
	if n == 0 {
		n = 1
	}
	t := &Table{}
	t.buckets = allocZeroed[ttBucket](t, n) // zeroed memory, faulted in the background
	return t
}

// Bytes returns the memory the entries take.
func (t *Table) Bytes() int { return len(t.buckets) * 64 }

// NewSearch ages the entries, so that a new position's search can replace
// what older searches left without starving.
func (t *Table) NewSearch() { t.generation.Store((t.generation.Load() + 1) & genMask) }

func (t *Table) bucket(key uint64) *ttBucket {
	hi, _ := bits.Mul64(key, uint64(len(t.buckets)))
	return &t.buckets[hi]
}

// prefetch starts bringing key's bucket into the cache, so that a probe
// soon after does not wait for memory.
func (t *Table) prefetch(key uint64) { prefetch(uintptr(unsafe.Pointer(t.bucket(key)))) }

// probe returns the entry for key, if any.
func (t *Table) probe(key uint64) (ttEntry, bool) {
	b := t.bucket(key)
	for i := range b {
		d := b[i].data.Load()
		if b[i].keyXorData.Load()^d == key && d>>40&3 != 0 { // a bound is stored
			return unpack(d), true
		}
	}
	return ttEntry{}, false
}

// store records a bound. In the bucket it overwrites the entry of the same
// key, else the entry worth least: shallow and from older searches. An
// isolated table takes an entry of an older search for an empty slot, so
// the current search's entries fill each bucket from its first slot, as
// in an empty table.
func (t *Table) store(key uint64, move board.Move, score, depth int, bound Bound) {
	b := t.bucket(key)
	gen := t.generation.Load()
	victim, victimWorth := 0, 1<<30
	for i := range b {
		d := b[i].data.Load()
		e := unpack(d)
		if e.bound == BoundNone || t.isolated && e.gen != gen {
			victim = i
			break
		}
		if b[i].keyXorData.Load()^d == key {
			victim = i
			if move == board.NoMove {
				move = e.move
			}
			break
		}
		age := int((gen - e.gen) & genMask)
		if w := int(e.depth) - 4*age; w < victimWorth {
			victim, victimWorth = i, w
		}
	}
	if depth > 255 {
		depth = 255
	}
	d := ttEntry{move: move, score: int16(score), depth: uint8(depth), bound: bound, gen: gen}.pack()
	b[victim].data.Store(d)
	b[victim].keyXorData.Store(key ^ d)
}

// hashfull returns the permille of the first 1,000 entries that hold a
// bound of the current search, as UCI's hashfull reports it.
func (t *Table) hashfull() int {
	gen := t.generation.Load()
	used, seen := 0, 0
	for i := 0; i < len(t.buckets) && seen < 1000; i++ {
		for j := range t.buckets[i] {
			e := unpack(t.buckets[i][j].data.Load())
			if e.bound != BoundNone && e.gen == gen {
				used++
			}
			seen++
		}
	}
	if seen == 0 {
		return 0
	}
	return used * 1000 / seen
}
