package generate

// smallSet remembers a few hundred indices, for counting the distinct
// positions one position's moves (or moves backwards) lead to: two moves
// can lead to positions that are mirror images, which the table stores
// once. Clearing is a new stamp, not a loop.
type smallSet struct {
	keys  [1024]int64
	stamp [1024]uint32
	gen   uint32
	n     int
}

func (s *smallSet) clear() {
	s.gen++
	s.n = 0
	if s.gen == 0 { // the stamps wrapped: forget them all
		s.stamp = [1024]uint32{}
		s.gen = 1
	}
}

// add inserts k and reports whether it was new.
func (s *smallSet) add(k int64) bool {
	h := uint64(k) * 0x9e3779b97f4a7c15 >> 54
	for {
		if s.stamp[h] != s.gen {
			s.stamp[h], s.keys[h] = s.gen, k
			s.n++
			return true
		}
		if s.keys[h] == k {
			return false
		}
		h = (h + 1) & 1023
	}
}
