//go:build !unix

package generate

// mappedWords returns n zero words: on a system without shared file
// mappings they stay in memory.
func mappedWords(dir string, n int64) (words []uint64, release func(), err error) {
	return make([]uint64, n), func() {}, nil
}

// mapped returns n zeros of T: on a system without shared file mappings
// they stay in memory.
func mapped[T uint32 | uint64](dir string, n int64, what string) (words []T, release func(), err error) {
	return make([]T, n), func() {}, nil
}
