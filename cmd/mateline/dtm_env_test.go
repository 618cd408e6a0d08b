package main

import (
	"os"
	"testing"
)

// TestMain points the DTM cache at a temporary directory, so that tests
// never write into the user's cache, and removes it and the binary the
// tests built (binary) at the end.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mateline-cmd-dtm")
	if err == nil {
		os.Setenv("MATELINE_DTM", dir)
	}
	code := m.Run()
	if err == nil {
		os.RemoveAll(dir)
	}
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}
