//go:build !linux

package solver

// allocZeroed returns n zeroed values of T from the Go heap.
func allocZeroed[T any](_ any, n uint64) []T { return make([]T, n) }
