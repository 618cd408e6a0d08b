package solver

import (
	"math/bits"
	"unsafe"
)

// pnInf is the proof or disproof number of a decided node. Sums of
// undecided numbers saturate just below it.
const pnInf = 1 << 30

// pnEntry holds what the proof-number search knows of one node: a
// position at a given number of plies left.
type pnEntry struct {
	key   uint64 // position key salted with the plies left
	phi   uint32 // the cost of proving a win for the side to move
	delta uint32 // the cost of proving its loss
	work  uint32 // nodes spent below this node: what replacement keeps
	gen   uint32 // the search that stored it
}

const pnBucketSize = 4

// pnTable is the proof-number search's memory: fixed at creation, with
// buckets of four entries that keep the nodes that cost most to compute,
// and give way first to a newer search's.
type pnTable struct {
	entries []pnEntry
	gen     uint32
	// isolated makes the entries of earlier searches count as empty when
	// a slot is chosen (Options.Fresh), as in the transposition table.
	isolated bool
}

// newPNTable makes a table of at most size bytes (at least one bucket).
func newPNTable(size uint64) *pnTable {
	n := size / (24 * pnBucketSize)
	if n == 0 {
		n = 1
	}
	t := &pnTable{}
	t.entries = allocZeroed[pnEntry](t, n*pnBucketSize)
	return t
}

// bytes returns the memory the entries take.
func (t *pnTable) bytes() int { return len(t.entries) * 24 }

func (t *pnTable) bucket(key uint64) []pnEntry {
	hi, _ := bits.Mul64(key, uint64(len(t.entries)/pnBucketSize))
	return t.entries[hi*pnBucketSize : hi*pnBucketSize+pnBucketSize]
}

// prefetch starts bringing key's bucket (two cache lines) into the cache.
func (t *pnTable) prefetch(key uint64) {
	b := t.bucket(key)
	prefetch(uintptr(unsafe.Pointer(&b[0])))
	prefetch(uintptr(unsafe.Pointer(&b[pnBucketSize-1])) + unsafe.Sizeof(b[0]) - 1)
}

// entry returns the entry stored for key.
func (t *pnTable) entry(key uint64) (pnEntry, bool) {
	for _, e := range t.bucket(key) {
		if e.key == key && e.work != 0 {
			return e, true
		}
	}
	return pnEntry{}, false
}

// probe returns the numbers stored for key.
func (t *pnTable) probe(key uint64) (phi, delta uint32, ok bool) {
	e, ok := t.entry(key)
	return e.phi, e.delta, ok
}

// work returns the nodes spent below the entry of key (0 if none): a
// rough measure of how long the side to lose holds out there.
func (t *pnTable) work(key uint64) uint32 {
	e, _ := t.entry(key)
	return e.work
}

// store records the numbers of key, replacing the same key, an empty
// entry, an older search's entry, or the entry that cost least. An
// isolated table takes an older search's entry for an empty one.
func (t *pnTable) store(key uint64, phi, delta, work uint32) {
	b := t.bucket(key)
	victim := &b[0]
	for i := range b {
		e := &b[i]
		if e.key == key || e.work == 0 || t.isolated && e.gen != t.gen {
			victim = e
			break
		}
		if e.gen != t.gen && (victim.gen == t.gen || e.gen < victim.gen) {
			victim = e
		} else if e.gen == victim.gen && e.work < victim.work {
			victim = e
		}
	}
	if work == 0 {
		work = 1
	}
	*victim = pnEntry{key: key, phi: phi, delta: delta, work: work, gen: t.gen}
}

// newSearch makes the entries of earlier searches the first to go.
func (t *pnTable) newSearch() { t.gen++ }

// pliesSalt makes the key of a node depend on the plies left: a position
// proved within 5 plies is a different node from the same one within 3.
func pliesSalt(plies int) uint64 {
	x := uint64(plies+1) * 0x9e3779b97f4a7c15
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	return x ^ x>>29
}
