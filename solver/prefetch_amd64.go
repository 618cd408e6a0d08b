package solver

// prefetch asks the processor to bring the cache line at addr in, without
// waiting for it.
//
//go:noescape
func prefetch(addr uintptr)
