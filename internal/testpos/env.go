package testpos

import (
	"os"
	"strconv"
	"testing"
)

// EnvCount reads a count from the environment variable name (a sweep's
// size or first seed), def when it is not set; a value that is not a
// count fails the test.
func EnvCount(t testing.TB, name string, def uint64) uint64 {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, v, err)
	}
	return n
}
