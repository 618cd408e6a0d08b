package solver

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// populateAfter is how long a table waits before its pages are faulted in.
const populateAfter = 30 * time.Millisecond

// allocZeroed returns n zeroed values of T for a table owned by owner,
// mapped outside the Go heap (so that a large table neither counts towards
// the collector's goal nor gets scanned) with transparent huge pages where
// the kernel allows them: 2 MiB pages need 512 times fewer page faults,
// which otherwise dominate short searches and serialise the workers of a
// batch. The memory is unmapped when owner is collected. It falls back to
// the Go heap. T must hold no pointers.
func allocZeroed[T any](owner any, n uint64) []T {
	var zero T
	size := int(n) * int(unsafe.Sizeof(zero))
	if size == 0 {
		return nil
	}
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]T, n)
	}
	_ = syscall.Madvise(mem, 14) // MADV_HUGEPAGE; an error only means small pages
	// Fault the pages in, in the background, once the program has run for
	// a while: faulting them during the search costs more than short
	// searches do, and the workers of a batch would queue on the kernel's
	// page-fault lock. Doing it at once would delay a quick answer (64 MiB:
	// about 80 ms before the search, or 12 ms of exit for a mate in 1).
	// MADV_POPULATE_WRITE (Linux 5.14) leaves the contents alone, so the
	// search may use the table meanwhile.
	time.AfterFunc(populateAfter, func() { syscall.Madvise(mem, 23) })
	runtime.SetFinalizer(owner, func(any) { syscall.Munmap(mem) })
	return unsafe.Slice((*T)(unsafe.Pointer(&mem[0])), n)
}
