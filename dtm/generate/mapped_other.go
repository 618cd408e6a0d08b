//go:build !unix

package generate

// mapped returns n zeros of T: on a system without shared file mappings
// they stay in memory.
func mapped[T uint32 | uint64](dir string, n int64, what string) (words []T, release func(), err error) {
	return make([]T, n), func() {}, nil
}

// dropPages does nothing where mapped's words are in memory.
func dropPages[T uint32 | uint64](words []T) {}
