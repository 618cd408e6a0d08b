// Package shareddata locates the shared test data (suites, Syzygy tables,
// books) for tests. The folder is named by MATELINE_DATA; CI sets it to
// the team's data folder. On a fresh clone it is unset and the tests that need it
// skip with a message saying so.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared data folder, or skips the test when it is not set
// or not there. A relative MATELINE_DATA is taken from the module root (the
// folder with go.mod), where "go test ./..." is typed, not from the package
// folder that go test runs each test in.
func Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("MATELINE_DATA")
	if dir == "" {
		t.Skip("MATELINE_DATA is not set: skipping a test that needs the shared data (CI sets it to the team's shared data folder)")
	}
	if !filepath.IsAbs(dir) {
		if root, ok := moduleRoot(); ok {
			dir = filepath.Join(root, dir)
		}
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

// moduleRoot finds the nearest folder above the working directory that
// holds go.mod.
func moduleRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
