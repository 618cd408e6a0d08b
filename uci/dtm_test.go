package uci

import (
	"io"
	"strings"
	"testing"
	"time"

	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/dtm/tablefile"
	"mateline.dev/mateline/solver"
)

// dtmSession is an engine whose DTMPath default is a fresh table cache.
func dtmSession(t *testing.T) (*session, string) {
	dir := t.TempDir()
	cfg := Config{Name: "mateline test", Author: "test", DefaultHash: 8, MaxHash: 1024, DTMDir: dir,
		OpenDTM: func(dir string, build, cacheMiB int, warn func(string)) (solver.DTM, solver.DTM, io.Closer, error) {
			st := dtm.Open(dir, dtm.Options{BuildMen: build, Warn: warn})
			return st.Prober(tablefile.MaxMen), st.Prober(4), st, nil
		}}
	return newSessionWith(t, cfg), dir
}

// TestDTMPath: a root the tables hold gets its exact score mate at once
// (no node searched); DTMPath <empty> turns the tables off, DTMBuild 0
// reads without building.
func TestDTMPath(t *testing.T) {
	s, dir := dtmSession(t)
	s.send("uci")
	got := s.until("uciok", 5*time.Second)
	for _, want := range []string{"option name DTMPath type string default " + dir, "option name DTMBuild type spin default 4 min 0 max 6"} {
		if !contains(got, want) {
			t.Errorf("uci answer lacks %q:\n%s", want, strings.Join(got, "\n"))
		}
	}
	const kqk = "8/8/8/3k4/8/8/8/K5Q1 w - - 0 1" // mate in 9
	s.send("position fen "+kqk, "go movetime 5000")
	got = s.until("bestmove", 20*time.Second)
	mate, pv := finalScore(t, got)
	if mate != 9 || !replay(t, kqk, mate, pv) || !contains(got, " nodes 0 ") {
		t.Errorf("from the tables: score mate %d pv %v; want mate 9 at once\n%s", mate, pv, strings.Join(got, "\n"))
	}

	// off: the search answers (a mate in 1 is found either way)
	s.send("setoption name DTMPath value <empty>", "position fen 3k4/8/3K4/8/8/8/8/7Q w - - 0 1", "go mate 3")
	got = s.until("bestmove", 20*time.Second)
	if mate, _ := finalScore(t, got); mate != 1 || contains(got, " nodes 0 ") {
		t.Errorf("without tables: score mate %d; want mate 1 by search\n%s", mate, strings.Join(got, "\n"))
	}

	// read only, from an empty cache: nothing is built, the search runs
	s.send("setoption name DTMPath value "+t.TempDir(), "setoption name DTMBuild value 0", "position fen "+kqk, "go depth 2")
	got = s.until("bestmove", 20*time.Second)
	if contains(got, "score mate") {
		t.Errorf("DTMBuild 0 on an empty cache still answered from tables:\n%s", strings.Join(got, "\n"))
	}
}
