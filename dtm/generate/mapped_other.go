//go:build !unix

package generate

// mapped returns n zeros of T: on a system without shared file mappings
// they stay in memory.
func mapped[T uint32 | uint64](dir string, n int64, what string) (words []T, release func(), err error) {
	return make([]T, n), func() {}, nil
}

// dropPages does nothing where mapped's words are in memory.
func dropPages[T uint32 | uint64](words []T) {}

// mappedFile is mapped where there is no shared file mapping: the
// checkpoint's files are not made, and nothing existed.
func mappedFile[T uint32 | uint64](path string, n int64) (words []T, release func(), sync func() error, existed bool, err error) {
	return make([]T, n), func() {}, func() error { return nil }, false, nil
}
