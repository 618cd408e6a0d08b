package stipulation

// failTable remembers positions, each with its plies left, from which a
// search found nothing: a fixed number of slots, each keeping the newest
// entry that falls into it, so that memory stays bounded.
type failTable struct {
	slots []uint64
	mask  uint64
}

// newFailTable makes a table of n slots (a power of two).
func newFailTable(n int) *failTable {
	return &failTable{slots: make([]uint64, n), mask: uint64(n - 1)}
}

// mix makes one 64-bit key of a position key and plies left (never 0,
// the empty slot).
func mix(key uint64, plies int) uint64 {
	k := key ^ uint64(plies+1)*0x9e3779b97f4a7c15
	if k == 0 {
		k = 1
	}
	return k
}

func (t *failTable) has(key uint64, plies int) bool {
	k := mix(key, plies)
	return t.slots[k&t.mask] == k
}

func (t *failTable) add(key uint64, plies int) {
	k := mix(key, plies)
	t.slots[k&t.mask] = k
}
