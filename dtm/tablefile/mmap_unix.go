//go:build unix

package tablefile

import (
	"os"
	"syscall"
	"unsafe"
)

// MapFile maps a file read-only.
func MapFile(f *os.File, size int64) ([]byte, func(), error) {
	if size == 0 {
		return nil, func() {}, nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() { syscall.Munmap(b) }, nil
}

// LockFile takes an exclusive lock on path (created if need be), waiting
// for another process that holds it, and returns its release.
func LockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// ReleasePages drops the process's hold on the resident pages of a
// mapping (from the first page boundary in b: a table's values start after
// its header): they stay in the page cache, and a later read maps them
// again.
func ReleasePages(b []byte) {
	if len(b) == 0 {
		return
	}
	page := uintptr(os.Getpagesize())
	if off := uintptr(unsafe.Pointer(&b[0])) % page; off != 0 {
		if skip := int(page - off); skip < len(b) {
			b = b[skip:]
		} else {
			return
		}
	}
	syscall.Madvise(b, syscall.MADV_DONTNEED)
}
