package solver

import (
	"math/bits"

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

// ttEntry is 16 bytes. The full 64-bit key is kept, so a false hit needs a
// 64-bit collision: a wrong entry could otherwise prove a false mate.
type ttEntry struct {
	key   uint64
	move  board.Move
	score int16
	depth uint8
	flags uint8 // bound in the low 2 bits, generation in the high 6
	_     uint32
}

const bucketSize = 4

// ttBucket holds four entries: 64 bytes, one cache line.
type ttBucket [bucketSize]ttEntry

// Table is a transposition table of memoized bounds. Its memory is fixed
// when it is made and never grows. It is not safe for concurrent use: each
// search worker owns one.
type Table struct {
	buckets    []ttBucket
	generation uint8
	probes     uint64
	hits       uint64
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
	t.buckets = allocBuckets(t, n)
	// Touch every page now: faulting pages in during the search costs
	// more than the search itself on short problems, and the workers of a
	// batch would queue on the kernel's page-fault lock.
	clear(t.buckets)
	return t
}

// Bytes returns the memory the entries take.
func (t *Table) Bytes() int { return len(t.buckets) * 64 }

// NewSearch ages the entries, so that a new position's search can replace
// what older searches left without starving.
func (t *Table) NewSearch() { t.generation = (t.generation + 1) & 63 }

// Stats returns the probe and hit counts since the table was made.
func (t *Table) Stats() (probes, hits uint64) { return t.probes, t.hits }

func (t *Table) bucket(key uint64) *ttBucket {
	hi, _ := bits.Mul64(key, uint64(len(t.buckets)))
	return &t.buckets[hi]
}

// probe returns the entry for key, if any.
func (t *Table) probe(key uint64) (ttEntry, bool) {
	t.probes++
	b := t.bucket(key)
	for i := range b {
		if b[i].key == key && b[i].flags&3 != 0 {
			t.hits++
			return b[i], true
		}
	}
	return ttEntry{}, false
}

// store records a bound. In the bucket it overwrites the entry of the same
// key, else the entry worth least: shallow and from older searches.
func (t *Table) store(key uint64, move board.Move, score, depth int, bound Bound) {
	b := t.bucket(key)
	victim := &b[0]
	worth := func(e *ttEntry) int {
		age := int((t.generation - e.flags>>2) & 63)
		return int(e.depth) - 4*age
	}
	for i := range b {
		e := &b[i]
		if e.key == key || e.flags&3 == 0 {
			victim = e
			if move == board.NoMove && e.key == key {
				move = e.move
			}
			break
		}
		if worth(e) < worth(victim) {
			victim = e
		}
	}
	if depth > 255 {
		depth = 255
	}
	*victim = ttEntry{key: key, move: move, score: int16(score), depth: uint8(depth),
		flags: uint8(bound) | t.generation<<2}
}
