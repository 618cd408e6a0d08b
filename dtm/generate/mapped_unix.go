//go:build unix

package generate

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"

	"mateline.dev/mateline/dtm/tablefile"
)

// mapped returns n zeros of T in a shared mapping of a scratch file in
// dir ("" for the system's), unlinked as soon as it is created: the
// system pages them to the file when memory is short, and a killed
// build leaves nothing. release unmaps them; what names what they hold
// in an error.
func mapped[T uint32 | uint64](dir string, n int64, what string) (words []T, release func(), err error) {
	if n == 0 {
		return nil, func() {}, nil
	}
	size := n * int64(unsafe.Sizeof(T(0)))
	f, err := os.CreateTemp(dir, ".mateline-scratch-*")
	if err != nil {
		return nil, nil, fmt.Errorf("scratch file for a build's %s: %w", what, err)
	}
	defer f.Close() // (the mapping keeps the file)
	if err := os.Remove(f.Name()); err != nil {
		return nil, nil, err
	}
	if err := f.Truncate(size); err != nil {
		return nil, nil, fmt.Errorf("scratch file for a build's %s: %w", what, err)
	}
	b, err := mapShared(f, size)
	if err != nil {
		return nil, nil, fmt.Errorf("mapping a build's %s: %w", what, err)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n), func() { syscall.Munmap(b) }, nil
}

// mapShared maps the first size bytes of f, read and written, shared
// with the file.
func mapShared(f *os.File, size int64) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
}

// mappedFile returns n words of T in a shared mapping of the file at
// path, kept after the build (a Checkpoint's): the file's words when it
// is there at that size (existed), else zeros. sync writes the mapping's
// dirty pages to the file and waits for them; release unmaps it.
func mappedFile[T uint32 | uint64](path string, n int64) (words []T, release func(), sync func() error, existed bool, err error) {
	size := n * int64(unsafe.Sizeof(T(0)))
	if n == 0 {
		return nil, func() {}, func() error { return nil }, true, nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, nil, false, fmt.Errorf("checkpoint file: %w", err)
	}
	defer f.Close() // (the mapping keeps the file)
	st, err := f.Stat()
	if err != nil {
		return nil, nil, nil, false, err
	}
	existed = st.Size() == size
	if !existed {
		if err := f.Truncate(0); err != nil {
			return nil, nil, nil, false, err
		}
		if err := f.Truncate(size); err != nil {
			return nil, nil, nil, false, fmt.Errorf("checkpoint file %s: %w", path, err)
		}
	}
	b, err := mapShared(f, size)
	if err != nil {
		return nil, nil, nil, false, fmt.Errorf("mapping checkpoint file %s: %w", path, err)
	}
	sync = func() error {
		_, _, e := syscall.Syscall(syscall.SYS_MSYNC, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), syscall.MS_SYNC)
		if e != 0 {
			return e
		}
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n), func() { syscall.Munmap(b) }, sync, existed, nil
}

// dropPages lets go of the process's hold on the resident pages of a
// mapping made by mapped (tablefile.ReleasePages): they stay in the page
// cache, written back as the system sees fit, and a later read maps them
// again. Only for a shared mapping of a file: on memory of the heap it
// would lose what it holds.
func dropPages[T uint32 | uint64](words []T) {
	if len(words) == 0 {
		return
	}
	tablefile.ReleasePages(unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*int(unsafe.Sizeof(T(0)))))
}
