package generate

import "sync/atomic"

// codeSets records which values occur in each block of a byte array, so
// that a scan for one value skips the blocks without it: late in a build
// few positions take the ply's value, and a scan of the whole slice for
// them would cost more than the positions themselves.
type codeSets []uint64 // 256 bits (four words) per block

// blockShift is log2 of the entries in a block.
const blockShift = 10

const blockSize = 1 << blockShift

func newCodeSets(n int64) codeSets { return make(codeSets, (n+blockSize-1)>>blockShift*4) }

// add records value v at entry i. Goroutines may add at once.
func (c codeSets) add(i int64, v uint8) {
	w := &c[i>>blockShift*4+int64(v>>6)]
	bit := uint64(1) << (v & 63)
	if atomic.LoadUint64(w)&bit == 0 {
		atomic.OrUint64(w, bit)
	}
}

// has reports whether value v was recorded in the block of entry i. It
// must not race with add.
func (c codeSets) has(i int64, v uint8) bool {
	return c[i>>blockShift*4+int64(v>>6)]>>(v&63)&1 != 0
}
