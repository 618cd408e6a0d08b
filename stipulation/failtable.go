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
// (keeping what it held) as entries come, up to its maximum. The threads
// of one search can share it: each slot is one word, read and written
// whole, and a thread that doubles it copies the slots while the others
// go on with the old ones (what they add there meanwhile may be lost,
// which only forgets).
type failTable struct {
	cur     atomic.Pointer[failSlots]
	adds    atomic.Int64 // entries added since the last doubling
	growing atomic.Bool  // a thread is doubling it
	max     int          // most slots
}

// failSlots is a failTable's slots at one size.
type failSlots struct {
	slots []atomic.Uint64
	mask  uint64
}

// minFailSlots is the size a table starts at.
const minFailSlots = 1 << 12

// newFailTable makes a table of at most n slots (a power of two).
func newFailTable(n int) *failTable {
	t := &failTable{max: n}
	t.cur.Store(newFailSlots(min(n, minFailSlots)))
	return t
}

// newFailSlots makes n empty slots.
func newFailSlots(n int) *failSlots {
	return &failSlots{slots: make([]atomic.Uint64, n), mask: uint64(n - 1)}
}

// size is the slots the table has now.
func (t *failTable) size() int { return len(t.cur.Load().slots) }

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
	f := t.cur.Load()
	return f.slots[k&f.mask].Load() == k
}

func (t *failTable) add(key uint64, plies int) {
	f := t.cur.Load()
	if len(f.slots) < t.max && t.adds.Add(1) > int64(len(f.slots)/4) {
		f = t.grow(f)
	}
	k := mix(key, plies)
	f.slots[k&f.mask].Store(k)
}

// grow doubles the table from f, keeping every entry f held, and gives
// the slots to add to: the doubled ones, or f while another thread
// doubles it.
func (t *failTable) grow(f *failSlots) *failSlots {
	if !t.growing.CompareAndSwap(false, true) {
		return f
	}
	defer t.growing.Store(false)
	if t.cur.Load() != f {
		return t.cur.Load() // (doubled since f was read)
	}
	g := newFailSlots(2 * len(f.slots))
	for i := range f.slots {
		if k := f.slots[i].Load(); k != 0 {
			g.slots[k&g.mask].Store(k)
		}
	}
	t.cur.Store(g)
	t.adds.Store(0)
	return g
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
	f := t.cur.Load()
	for i, k := range keys[:len(moves)] {
		if k != 0 && f.slots[k&f.mask].Load() == k {
			known[i>>6] |= 1 << (i & 63)
		}
	}
}
