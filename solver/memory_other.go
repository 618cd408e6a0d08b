//go:build !linux

package solver

// totalMemoryMiB returns the machine's memory in MiB, or 0 when unknown.
func totalMemoryMiB() int { return 0 }
