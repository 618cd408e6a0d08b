package solver

// MaxHashMiB is the largest table size a solve should be given: three
// quarters of the machine's memory, or 64 GiB when that is not known.
func MaxHashMiB() int {
	if m := totalMemoryMiB(); m > 0 {
		return max(m*3/4, 1)
	}
	return 64 << 10
}
