//go:build !unix

package generate

// mappedWords returns n zero words: on a system without shared file
// mappings they stay in memory.
func mappedWords(dir string, n int64) (words []uint64, release func(), err error) {
	return make([]uint64, n), func() {}, nil
}
