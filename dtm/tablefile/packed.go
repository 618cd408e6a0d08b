package tablefile

import (
	"sync/atomic"
	"unsafe"
)

// ByteArray is a byte array kept in 32-bit words, so that goroutines
// can change single entries with compare-and-swap. Entry i is bits
// 8*(i%4).. of word i/4: the words' memory is the bytes in order on a
// little-endian machine, and toBytes writes it out in that order on any.
type ByteArray []uint32

func NewByteArray(n int64) ByteArray { return make(ByteArray, (n+3)/4) }

// Get reads entry i; it must not race with a writer.
func (a ByteArray) Get(i int64) uint8 { return uint8(a[i>>2] >> (8 * uint(i&3))) }

// Set writes entry i; it must not race with any other access to its word.
func (a ByteArray) Set(i int64, v uint8) {
	sh := 8 * uint(i&3)
	a[i>>2] = a[i>>2]&^(0xff<<sh) | uint32(v)<<sh
}

// Load reads entry i atomically.
func (a ByteArray) Load(i int64) uint8 {
	return uint8(atomic.LoadUint32(&a[i>>2]) >> (8 * uint(i&3)))
}

// Cas sets entry i from old to v atomically, and reports whether it did.
func (a ByteArray) Cas(i int64, old, v uint8) bool {
	w := &a[i>>2]
	sh := 8 * uint(i&3)
	for {
		cur := atomic.LoadUint32(w)
		if uint8(cur>>sh) != old {
			return false
		}
		if atomic.CompareAndSwapUint32(w, cur, cur&^(0xff<<sh)|uint32(v)<<sh) {
			return true
		}
	}
}

// Dec decrements entry i (which must be positive) atomically and returns
// the new value.
func (a ByteArray) Dec(i int64) uint8 {
	w := &a[i>>2]
	sh := 8 * uint(i&3)
	// adding ^(1<<sh - 1) subtracts 1<<sh; the entry is positive, so no
	// borrow reaches the next entry
	return uint8(atomic.AddUint32(w, ^(uint32(1)<<sh-1)) >> sh)
}

// Bytes returns the first n entries as Bytes: the words' own memory on a
// little-endian machine, a copy elsewhere.
func (a ByteArray) Bytes(n int64) []byte {
	if LittleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a))), n)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = a.Get(int64(i))
	}
	return b
}

var LittleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()
