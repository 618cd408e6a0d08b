package generate

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// residentKB is the process's resident memory of file-backed and shared
// pages in KiB (RssFile + RssShmem of /proc/self/status), or -1 where
// that is not known.
func residentKB() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	total := int64(-1)
	for _, line := range strings.Split(string(b), "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok || name != "RssFile" && name != "RssShmem" {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return -1
		}
		total = max(total, 0) + kb
	}
	return total
}

// TestDropPagesKeepsValues: the values and bits of a build with them on
// disk (wholeStorage) keep what was written when their resident pages
// are let go between two groups of slices, and the pages leave the
// process's resident memory.
func TestDropPagesKeepsValues(t *testing.T) {
	st := &wholeStorage{onDisk: true, dir: t.TempDir()}
	const n = 1 << 24 // 16 MiB of values, 128 MiB of words
	vals, err := st.byteArray(n, 0)
	if err != nil {
		t.Fatal(err)
	}
	words, err := st.words(n, "decided", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer st.release()()
	b := vals.Bytes(n)
	for i := range b {
		b[i] = byte(i*7 + i>>13)
	}
	for i := range words {
		words[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	before := residentKB()
	st.dropPages()
	after := residentKB()
	for i := range b {
		if b[i] != byte(i*7+i>>13) {
			t.Fatalf("value %d: %d after the pages were let go", i, b[i])
		}
	}
	for i := range words {
		if words[i] != uint64(i)*0x9e3779b97f4a7c15 {
			t.Fatalf("word %d: %x after the pages were let go", i, words[i])
		}
	}
	t.Logf("resident file and shared pages: %d KiB before, %d after", before, after)
	if before >= 0 && before-after < 100<<10 {
		t.Errorf("resident file and shared pages: %d KiB before the drop, %d after: the 144 MiB mapped were not let go", before, after)
	}
}
