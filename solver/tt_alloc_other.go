//go:build !linux

package solver

// allocBuckets takes the table's memory from the Go heap.
func allocBuckets(_ *Table, n uint64) []ttBucket { return make([]ttBucket, n) }
