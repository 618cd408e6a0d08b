// Package shareddata locates the shared test data (suites, Syzygy tables,
// books) for tests. The folder is named by MATELINE_DATA; CI sets it to
// ../shared/data. On a fresh clone it is unset and the tests that need it
// skip with a message saying so.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared data folder, or skips the test when it is not set
// or not there.
func Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("MATELINE_DATA")
	if dir == "" {
		t.Skip("MATELINE_DATA is not set: skipping a test that needs the shared data (CI sets MATELINE_DATA=../shared/data)")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("MATELINE_DATA=%s is not readable (%v): skipping", dir, err)
	}
	return dir
}

// Path returns a file inside the shared data folder, skipping the test
// when the folder or the file is missing.
func Path(t testing.TB, parts ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{Dir(t)}, parts...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is missing: skipping", p)
	}
	return p
}
