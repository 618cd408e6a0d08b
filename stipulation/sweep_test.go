package stipulation

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/stipulation/internal/prune"
)

// sweepStipulations are the stipulations the sweep solves, a few of each
// family: h#, h#N.5, h=, ser-h#, ser-h=, ser-#, ser-=, ser-s#, hs#,
// reci-h#, pser-.
var sweepStipulations = []string{
	"h#1", "h#1.5", "h#2", "h#2.5", "h#3", "h=1.5", "h=2", "h=2.5",
	"ser-h#2", "ser-h#3", "ser-h=3", "ser-#2", "ser-#3", "ser-=3", "ser-s#2",
	"hs#2", "hr#2", "reci-h#2", "pser-h#3", "pser-#3",
}

// sweepNodes is the most nodes the reference solve of one position may
// take (MATELINE_SWEEP_NODES); a position that needs more is left out
// (the count says how many were).
var sweepNodes uint64 = 150_000

// sweepCase is one position and stipulation of the sweep, drawn from its
// seed alone so that a failure can be replayed.
type sweepCase struct {
	seed  uint64
	stip  problem.Stipulation
	theme testpos.Theme
	pos   board.Position
}

// drawSweepCase draws the case of seed: a stipulation, a theme and a
// legal position of that theme with a legal move.
func drawSweepCase(seed uint64) sweepCase {
	rng := rand.New(rand.NewPCG(seed, 55))
	st, _ := problem.Parse(sweepStipulations[rng.IntN(len(sweepStipulations))])
	themes := testpos.Themes()
	for {
		theme := themes[rng.IntN(len(themes))]
		pos, err := board.ParseFEN(testpos.Rare(rng, theme))
		if err == nil && pos.HasLegalMove() {
			return sweepCase{seed, st, theme, pos}
		}
	}
}

// solveWith lists the solutions of c with the shortcuts in cuts, sorted;
// ok is false when the node limit stopped it.
func solveWith(c sweepCase, cuts prune.Set) ([]string, bool) {
	res, err := linesWith(context.Background(), c.pos, c.stip, Limits{Nodes: sweepNodes}, cuts)
	if errors.Is(err, ErrLimit) {
		return nil, false
	}
	if cuts == 0 {
		rareSeen.count(c.pos, res.Solutions)
	}
	return lines(res.Solutions), true
}

// rareCounts counts the solutions a sweep compares by the rare moves
// they hold, to show that it reaches them.
type rareCounts struct {
	capturePromotion, underpromotion, enPassant, castling, doubleCheck atomic.Int64
}

// rareSeen is the rare moves of the sweeps of this process.
var rareSeen rareCounts

// count adds the solutions of pos: each line once per kind of rare move
// it holds (a double check only as the last move).
func (r *rareCounts) count(pos board.Position, sols []Line) {
	for _, line := range sols {
		var capProm, under, ep, castle bool
		p := pos
		for _, m := range line {
			if m.Promotion() != board.NoPieceType {
				capProm = capProm || p.PieceAt(m.To()) != board.NoPiece
				under = under || m.Promotion() != board.Queen
			}
			ep = ep || m.IsEnPassant()
			castle = castle || m.IsCastling()
			p.Play(m)
		}
		for kind, seen := range map[*atomic.Int64]bool{&r.capturePromotion: capProm, &r.underpromotion: under, &r.enPassant: ep, &r.castling: castle, &r.doubleCheck: p.Checkers().More()} {
			if seen {
				kind.Add(1)
			}
		}
	}
}

// String says the counts.
func (r *rareCounts) String() string {
	return fmt.Sprintf("capture-promotion %d, underpromotion %d, en passant %d, castling %d, ending in a double check %d",
		r.capturePromotion.Load(), r.underpromotion.Load(), r.enPassant.Load(), r.castling.Load(), r.doubleCheck.Load())
}

// shortcutsOf is the shortcuts a stipulation's search makes somewhere
// (the others, alone, would search as none does).
func shortcutsOf(st problem.Stipulation) []prune.Shortcut {
	var used []prune.Shortcut
	if st.IsSeries() {
		for _, x := range seriesPolicy {
			if x == prune.ChecksOnly && st.Aim != problem.Checkmate {
				continue
			}
			used = append(used, x)
		}
		return used
	}
	uses := prune.New(st.Plies(), st.Aim, helpEnds[st.Kind].pruned(), prune.All).Uses()
	for x := prune.Shortcut(0); x < prune.Count; x++ {
		if uses.Has(x) {
			used = append(used, x)
		}
	}
	return used
}

// sweepOne compares, for case c, the solutions with no shortcut with
// those with each shortcut alone and with all of them; it returns what
// differs ("" when nothing does) and whether the case was compared.
func sweepOne(c sweepCase) (string, bool, int) {
	want, ok := solveWith(c, 0)
	if !ok {
		return "", false, 0
	}
	sets := []prune.Set{prune.All}
	for _, x := range shortcutsOf(c.stip) {
		sets = append(sets, 1<<x)
	}
	for _, set := range sets {
		got, ok := solveWith(c, set)
		if ok && !slices.Equal(got, want) {
			return fmt.Sprintf("seed %d: %s %s (%s), shortcuts %s: %d solutions, %d without any; missing %q, extra %q",
				c.seed, c.pos.FEN(), c.stip, c.theme, set, len(got), len(want), minus(want, got), minus(got, want)), true, len(want)
		}
	}
	return "", true, len(want)
}

// minus is the lines of a not in b, at most three.
func minus(a, b []string) []string {
	var out []string
	for _, l := range a {
		if !slices.Contains(b, l) && len(out) < 3 {
			out = append(out, l)
		}
	}
	return out
}

// sweepStats counts a sweep, in all and by stipulation.
type sweepStats struct {
	compared, skipped, solutions atomic.Int64
	mu                           sync.Mutex
	byStip                       map[string]*stipStats
}

// stipStats is one stipulation's share of a sweep.
type stipStats struct {
	compared, solutions int
	took                time.Duration
}

// add counts a compared case of stip.
func (s *sweepStats) add(stip string, solutions int, took time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byStip == nil {
		s.byStip = map[string]*stipStats{}
	}
	x := s.byStip[stip]
	if x == nil {
		x = &stipStats{}
		s.byStip[stip] = x
	}
	x.compared++
	x.solutions += solutions
	x.took += took
}

// caseCheck checks the case of one seed: its stipulation, what differs
// ("" when nothing does), whether it was compared, and its solutions.
type caseCheck func(seed uint64) (stip, diff string, compared bool, solutions int)

// checkHelpCase is the sweep of help and series play's case check.
func checkHelpCase(seed uint64) (string, string, bool, int) {
	c := drawSweepCase(seed)
	diff, ok, sols := sweepOne(c)
	return c.stip.String(), diff, ok, sols
}

// sweep runs the cases of seeds first..first+n-1 over the cores; each
// difference is reported by fail, and the first stops it when
// stopAtFirst.
func sweep(first, n uint64, check caseCheck, stopAtFirst bool, fail func(string)) *sweepStats {
	var st sweepStats
	var next atomic.Uint64
	next.Store(first)
	var stop atomic.Bool
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				seed := next.Add(1) - 1
				if seed >= first+n {
					return
				}
				began := time.Now()
				stip, diff, ok, sols := check(seed)
				if !ok {
					st.skipped.Add(1)
					continue
				}
				st.compared.Add(1)
				st.solutions.Add(int64(sols))
				st.add(stip, sols, time.Since(began))
				if diff != "" {
					mu.Lock()
					fail(diff)
					mu.Unlock()
					if stopAtFirst {
						stop.Store(true)
					}
				}
			}
		}()
	}
	wg.Wait()
	return &st
}

// TestShortcutsSound: on random positions drawn rich in promotions,
// capture-promotions, en passant, castling rights, pins, self-blocks and
// crowds of line pieces round a king, over every family of help and
// series play, each shortcut alone and all of them give the solutions
// the search without any gives. MATELINE_SWEEP_CASES sets the size
// (scripts/sound-sweep.sh runs millions) and MATELINE_SWEEP_FIRST the
// first seed; a failure names its seed, which drawSweepCase replays.
func TestShortcutsSound(t *testing.T) {
	first := testpos.EnvCount(t, "MATELINE_SWEEP_FIRST", 1)
	n := testpos.EnvCount(t, "MATELINE_SWEEP_CASES", 1200)
	sweepNodes = testpos.EnvCount(t, "MATELINE_SWEEP_NODES", sweepNodes)
	st := sweep(first, n, checkHelpCase, false, func(diff string) { t.Error(diff) })
	t.Logf("seeds %d to %d: %d compared (%d solutions), %d over %d nodes", first, first+n-1,
		st.compared.Load(), st.solutions.Load(), st.skipped.Load(), sweepNodes)
	for _, stip := range sweepStipulations {
		if x := st.byStip[stip]; x != nil {
			t.Logf("  %-9s %7d compared, %8d solutions, %d ms", stip, x.compared, x.solutions, x.took.Milliseconds())
		}
	}
	t.Logf("solution lines with a rare move (the search without shortcuts): %s", &rareSeen)
	if st.solutions.Load() == 0 {
		t.Error("no solution compared")
	}
}
