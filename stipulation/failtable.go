package stipulation

import (
	"sync/atomic"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/stipulation/internal/prune"
)

// failTable remembers positions, each with its plies left, for which a
// search proved an answer: a fixed number of slots, each keeping the
// newest entry that falls into it, so that memory stays bounded. It starts
// small, so that the many short solves of a batch cost little, and doubles
// (keeping what it held) as entries come, up to its maximum. A table
// at its maximum (newSharedFailTable) can be shared by threads: each
// slot is one word, read and written whole.
type failTable struct {
	slots []atomic.Uint64
	mask  uint64
	adds  int // entries added since the last growth (while it can grow)
	max   int // most slots
}

// minFailSlots is the size a table starts at.
const minFailSlots = 1 << 12

// newFailTable makes a table of at most n slots (a power of two).
func newFailTable(n int) *failTable {
	size := min(n, minFailSlots)
	return &failTable{slots: make([]atomic.Uint64, size), mask: uint64(size - 1), max: n}
}

// newSharedFailTable makes a table of n slots (a power of two) that
// never grows, for the threads of one search to share: a position one
// thread proved without a solution is one for all.
func newSharedFailTable(n int) *failTable {
	return &failTable{slots: make([]atomic.Uint64, n), mask: uint64(n - 1), max: n}
}

// mix makes one 64-bit key of a position key and plies left (never 0,
// the empty slot).
func mix(key uint64, plies int) uint64 {
	if prune.Mutant == prune.FailMemo {
		plies = 0
	}
	k := key ^ uint64(plies+1)*0x9e3779b97f4a7c15
	if k == 0 {
		k = 1
	}
	return k
}

func (t *failTable) has(key uint64, plies int) bool {
	k := mix(key, plies)
	return t.slots[k&t.mask].Load() == k
}

func (t *failTable) add(key uint64, plies int) {
	if len(t.slots) < t.max {
		if t.adds++; t.adds > len(t.slots)/4 {
			t.grow()
		}
	}
	k := mix(key, plies)
	t.slots[k&t.mask].Store(k)
}

// grow doubles the table, keeping every entry it held.
func (t *failTable) grow() {
	size := 2 * len(t.slots)
	slots := make([]atomic.Uint64, size)
	mask := uint64(size - 1)
	for i := range t.slots {
		if k := t.slots[i].Load(); k != 0 {
			slots[k&mask].Store(k)
		}
	}
	t.slots, t.mask, t.adds = slots, mask, 0
}

// probe marks in known (cleared first) the moves of l from pos whose
// child, with plies left, is in the table (the keys read ahead, as
// Position.KeyAfter gives them; keys is working memory). A move whose
// key KeyAfter cannot give exactly (castling, en passant, a pawn's double
// step, a castling right lost) is never marked: its guess may be the key
// of another position, one without the en-passant capture or the right
// that the real child has. The keys are worked out first and then looked
// up in one pass, so that the memory reads overlap instead of waiting one
// by one.
func (t *failTable) probe(pos *board.Position, l *board.MoveList, plies int, known *[4]uint64, keys *[len(board.MoveList{}.Moves)]uint64) {
	*known = [4]uint64{}
	moves := l.Slice()
	for i, m := range moves {
		keys[i] = mix(pos.KeyAfter(m), plies)
		if !pos.KeyAfterIsExact(m) {
			keys[i] = 0 // never in the table: 0 is the empty slot's, and mix never gives it
		}
	}
	for i, k := range keys[:len(moves)] {
		if k != 0 && t.slots[k&t.mask].Load() == k {
			known[i>>6] |= 1 << (i & 63)
		}
	}
}
