//go:build !amd64

package solver

// prefetch does nothing where no prefetch instruction is wired up.
func prefetch(addr uintptr) {}
