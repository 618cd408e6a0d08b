package solver_test

import (
	"context"
	"testing"

	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/internal/shareddata"
	"mateline.dev/mateline/solver"
)

// suiteCase selects records from a suite file.
type suiteCase struct {
	file   []string
	every  int // take every n-th record
	keep   func(mate int) bool
	nodes  uint64
	atMost int // at most this many records
}

// runSuite solves the selected records under a node budget and checks
// that each is proved with exactly the stated length, or shorter (then the
// suite is wrong, and the test says so). It returns the number solved.
func runSuite(t *testing.T, sc suiteCase) int {
	path := shareddata.Path(t, sc.file...)
	recs, err := inputs.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sv := solver.New(64)
	n, taken := 0, 0
	for _, rec := range recs {
		if taken >= sc.atMost {
			break
		}
		if rec.Err != nil {
			t.Errorf("%v", rec.Err)
			continue
		}
		claim := rec.Claim.Mate
		if claim == 0 || !sc.keep(int(claim)) {
			continue
		}
		n++
		if (n-1)%sc.every != 0 {
			continue
		}
		taken++
		opt := solver.Options{Nodes: sc.nodes}.ForClaim(claim)
		res := sv.Solve(context.Background(), rec.Pos, opt)
		switch {
		case res.Mate == claim:
		case res.Status == solver.StatusMate && (res.Mate < 0) == (claim < 0) && res.Mate.Moves() < claim.Moves():
			t.Logf("%s:%d: the suite says %d, mateline proves %d: %s", path, rec.Line, claim, res.Mate, rec.FEN)
		default:
			t.Errorf("%s:%d %s: claim %d, got %v %d after %d nodes (proved to %d)", path, rec.Line, rec.FEN,
				claim, res.Status, res.Mate, res.Nodes, res.Depth)
		}
	}
	return taken
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestMates2000Short solves every #1 to #3 entry of matetrack's mates2000
// (mate and mated).
func TestMates2000Short(t *testing.T) {
	n := runSuite(t, suiteCase{file: []string{"suites", "matetrack", "mates2000.epd"}, every: 1,
		keep: func(m int) bool { return abs(m) <= 3 }, nodes: 20_000_000, atMost: 1 << 30})
	t.Logf("%d positions", n)
	if n < 40 {
		t.Errorf("only %d #1-#3 positions read", n)
	}
}

// TestKRvKSample solves a sample of matetools' KRvK suite (mate and mated,
// up to 10 moves) without tablebases.
func TestKRvKSample(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	n := runSuite(t, suiteCase{file: []string{"suites", "matetools", "KRvK1000pv.epd"}, every: 10,
		keep: func(m int) bool { return abs(m) <= 10 }, nodes: 60_000_000, atMost: 25})
	t.Logf("%d positions", n)
}

// TestMatedtrackSample solves a sample of matetrack's bm #-N positions.
func TestMatedtrackSample(t *testing.T) {
	n := runSuite(t, suiteCase{file: []string{"suites", "matetrack", "matedtrack.epd"}, every: 5,
		keep: func(m int) bool { return m < 0 && m >= -4 }, nodes: 20_000_000, atMost: 40})
	t.Logf("%d positions", n)
}
