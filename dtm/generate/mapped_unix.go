//go:build unix

package generate

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// mappedWords returns n zero words in a shared mapping of a scratch file
// in dir ("" for the system's), unlinked as soon as it is created: the
// system pages the words to the file when memory is short, and a killed
// build leaves nothing. release unmaps them.
func mappedWords(dir string, n int64) (words []uint64, release func(), err error) {
	f, err := os.CreateTemp(dir, ".mateline-sets-*")
	if err != nil {
		return nil, nil, fmt.Errorf("scratch file for a bounded build's bit sets: %w", err)
	}
	defer f.Close() // (the mapping keeps the file)
	if err := os.Remove(f.Name()); err != nil {
		return nil, nil, err
	}
	if err := f.Truncate(n * 8); err != nil {
		return nil, nil, fmt.Errorf("scratch file for a bounded build's bit sets: %w", err)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(n*8), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("mapping a bounded build's bit sets: %w", err)
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n), func() { syscall.Munmap(b) }, nil
}
