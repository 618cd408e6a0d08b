package dtm

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
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
		sharedStore = Open(sharedDir, Options{BuildMen: tablefile.MaxMen})
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

// tsvRow is a data row of a shared vector file, with its line number.
type tsvRow struct {
	line int
	cols []string
}

// readTSV returns the rows after the header of a shared TSV file,
// skipping the test when the file is missing.
func readTSV(t *testing.T, parts ...string) []tsvRow {
	t.Helper()
	f, err := os.Open(shareddata.Path(t, parts...))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []tsvRow
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if line > 1 {
			rows = append(rows, tsvRow{line, strings.Split(sc.Text(), "\t")})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestGaviotaVectors compares every distance of the shared Gaviota
// vectors (3 men, signed plies) with ours.
func TestGaviotaVectors(t *testing.T) {
	rows := readTSV(t, "gaviota", "dtm3-vectors.tsv")
	s := testStore(t)
	n := 0
	for _, r := range rows {
		line, cols := r.line, r.cols
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
