//go:build !unix

package tablefile

import (
	"io"
	"os"
)

// MapFile reads a file into memory (no mapping on this system).
func MapFile(f *os.File, size int64) ([]byte, func(), error) {
	b := make([]byte, size)
	if _, err := f.ReadAt(b, 0); err != nil && err != io.EOF {
		return nil, nil, err
	}
	return b, func() {}, nil
}

// LockFile creates the lock file; without file locks, two builders rely
// on the atomic rename alone (each writes a whole file).
func LockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}

// ReleasePages does nothing where tables are read into memory.
func ReleasePages([]byte) {}
