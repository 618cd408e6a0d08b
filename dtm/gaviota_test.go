package dtm

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/shareddata"
)

var (
	sharedOnce  sync.Once
	sharedStore *Store
	sharedDir   string
)

// testStore is one store for the package's tests, in a temporary
// directory, that builds what it needs: each table is built once.
func testStore(t testing.TB) *Store {
	t.Helper()
	sharedOnce.Do(func() {
		sharedDir, _ = os.MkdirTemp("", "mateline-dtm-test")
		sharedStore = Open(sharedDir, Options{BuildMen: MaxMen})
	})
	return sharedStore
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedStore != nil {
		sharedStore.Close()
		os.RemoveAll(sharedDir)
	}
	os.Exit(code)
}

// TestGaviotaVectors compares every distance of the shared Gaviota
// vectors (3 men, signed plies) with ours.
func TestGaviotaVectors(t *testing.T) {
	path := shareddata.Path(t, "gaviota", "dtm3-vectors.tsv")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := testStore(t)
	sc := bufio.NewScanner(f)
	n := 0
	for line := 1; sc.Scan(); line++ {
		cols := strings.Split(sc.Text(), "\t")
		if line == 1 {
			continue
		}
		pos, err := board.ParseFEN(cols[0])
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		want, _ := strconv.Atoi(cols[2])
		v, err := s.Probe(&pos)
		if err != nil {
			t.Fatalf("line %d %s: %v", line, cols[0], err)
		}
		got := 0
		switch {
		case v.Win():
			got = v.Plies()
		case v.Loss():
			got = -v.Plies()
		}
		if got != want {
			t.Errorf("line %d %s: DTM %d plies (%s), Gaviota %d", line, cols[0], got, v, want)
		}
		n++
	}
	if n != 400 {
		t.Errorf("%d vectors, want 400", n)
	}
}
