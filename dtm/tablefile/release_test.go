//go:build linux

package tablefile

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// rssFileKB is the process's resident pages of mapped files in KiB
// (RssFile of /proc/self/status).
func rssFileKB(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "RssFile:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Skip("no RssFile in /proc/self/status")
	return 0
}

// TestReleaseRead: a file read block by block with ReleaseRead (as a
// build reads a six-man table's) keeps few of its pages resident, and
// every value reads right; without it, the whole file stays resident.
func TestReleaseRead(t *testing.T) {
	l := testLayout(t, "KRvKN")
	rng := rand.New(rand.NewPCG(3, 4))
	var sides [2][]byte
	for s := range sides {
		sides[s] = make([]byte, l.Size)
		for i := range sides[s] {
			sides[s][i] = byte(rng.IntN(256)) // (no compression: a file of 3.8 MB)
		}
	}
	path := filepath.Join(t.TempDir(), "KRvKN"+FileSuffix)
	if _, err := WriteFile(path, l, sides, ZOptions{}, 2); err != nil {
		t.Fatal(err)
	}
	defer func(every int64) { releaseEvery = every }(releaseEvery)
	releaseEvery = 256 << 10
	for _, release := range []bool{false, true} {
		z, unmap, err := OpenCompressed(path, l, true)
		if err != nil {
			t.Fatal(err)
		}
		z.Cache, z.ReleaseRead = NewBlockCache(1<<16), release
		before := rssFileKB(t)
		for s := range 2 {
			for i := int64(0); i < l.Size; i += 7 {
				v, err := z.At(s, i)
				if err != nil {
					t.Fatal(err)
				}
				if byte(v) != sides[s][i] {
					t.Fatalf("release %v, side %d index %d: %v, want %d", release, s, i, v, sides[s][i])
				}
			}
		}
		grown := rssFileKB(t) - before
		unmap()
		t.Logf("release %v: resident file pages grew by %d KiB over a file of %d KiB", release, grown, len(z.File)>>10)
		if half := int64(len(z.File)>>10) / 2; release && grown > half || !release && grown < half {
			t.Errorf("release %v: resident file pages grew by %d KiB over a file of %d KiB", release, grown, len(z.File)>>10)
		}
	}
}
