package stipulation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/stipulation/internal/prune"
)

// forcedStipulations are the forced stipulations the forced sweep solves:
// selfmates, reflexmates, semi-reflexmates, selfstalemates, direct
// stalemates and an exact selfmate.
var forcedStipulations = []string{"s#1", "s#2", "s#3", "r#2", "r#3", "semi-r#2", "s=2", "=2", "exact-s#2"}

// drawForcedCase draws the forced case of seed, as drawSweepCase does.
func drawForcedCase(seed uint64) sweepCase {
	rng := rand.New(rand.NewPCG(seed, 57))
	st, err := problem.Parse(forcedStipulations[rng.IntN(len(forcedStipulations))])
	if err != nil {
		panic(err)
	}
	themes := testpos.Themes()
	for {
		theme := themes[rng.IntN(len(themes))]
		fen := testpos.Rare(rng, theme)
		if rng.IntN(2) == 0 {
			fen, theme = boxedCase(rng, st), testpos.SelfBlock
		}
		pos, err := board.ParseFEN(fen)
		if err == nil && pos.HasLegalMove() {
			return sweepCase{seed, st, theme, pos}
		}
	}
}

// selfTries is how many cornered positions boxedCase draws, at most, for
// a selfmate with a key.
const selfTries = 40

// boxedCase draws a boxed-kings position (boxedKings) that is cornered;
// for a selfmate (s#N, exact-s#N), one with a key too, when one of
// selfTries such positions has one: a random position has a selfmate key
// once in forty, and the sweep should compare keys and their trees. The
// key is looked for without the fail memo, the shortcut under test, and
// within a small node limit, so that the draw stays the same on every
// run.
func boxedCase(rng *rand.Rand, st problem.Stipulation) string {
	fen := drawCornered(rng)
	if st.Kind != problem.Self || st.Aim != problem.Checkmate {
		return fen
	}
	for try := 1; try < selfTries; try++ {
		if pos, err := board.ParseFEN(fen); err == nil && pos.HasLegalMove() {
			res, err := selfmatesWith(context.Background(), pos, st, Limits{Nodes: 20000}, 0)
			if err == nil && len(res.Keys) > 0 {
				return fen
			}
		}
		fen = drawCornered(rng)
	}
	return fen
}

// drawCornered draws boxedKings positions until one is cornered (at most
// 200).
func drawCornered(rng *rand.Rand) string {
	fen := boxedKings(rng)
	for try := 0; try < 200 && !cornered(fen); try++ {
		fen = boxedKings(rng)
	}
	return fen
}

// boxedKings is a random position where selfmates come: White to move,
// its king on the edge among its own men, Black with few moves (its king
// among its own pawns) and a line piece or two to mate with.
func boxedKings(rng *rand.Rand) string {
	var grid [64]byte
	edge := []int{0, 7, 56, 63, 1 + rng.IntN(6), 57 + rng.IntN(6), 8 * (1 + rng.IntN(6)), 8*(1+rng.IntN(6)) + 7}
	k := edge[rng.IntN(len(edge))]
	grid[k] = 'K'
	for _, sq := range testpos.Ring(k) {
		if rng.IntN(3) > 0 {
			grid[sq] = "PNBRQ"[rng.IntN(5)]
			if (grid[sq] == 'P') && (sq < 8 || sq >= 56) {
				grid[sq] = 'B'
			}
		}
	}
	testpos.PlacementOn(rng, &grid, "k")
	bk := -1
	for sq, c := range grid {
		if c == 'k' {
			bk = sq
		}
	}
	for _, sq := range testpos.Ring(bk) {
		if grid[sq] == 0 && sq >= 8 && sq < 56 && rng.IntN(2) == 0 {
			grid[sq] = 'p'
		}
	}
	extra := string("qrbn"[rng.IntN(4)])
	if rng.IntN(2) == 0 {
		extra += string("qrbn"[rng.IntN(4)])
	}
	white := string("QRBN"[rng.IntN(4)])
	return testpos.PlacementOn(rng, &grid, extra+white) + " w - - 0 1"
}

// cornered reports whether fen is legal and White has a move after which
// Black has one or two moves, each of them a check: where selfmates are.
func cornered(fen string) bool {
	pos, err := board.ParseFEN(fen)
	if err != nil {
		return false
	}
	var l, r board.MoveList
	pos.LegalMoves(&l)
	for _, m := range l.Slice() {
		after := pos
		after.Play(m)
		after.LegalMoves(&r)
		if r.N == 0 || r.N > 2 {
			continue
		}
		checks := 0
		for _, d := range r.Slice() {
			next := after
			next.Play(d)
			if next.InCheck() {
				checks++
			}
		}
		if checks == r.N {
			return true
		}
	}
	return false
}

// forcedAnswer is what a forced solve says of a case: the shortest
// length, every key, and the solution tree to the full depth, as text.
func forcedAnswer(c sweepCase, cuts prune.Set) (string, bool, int) {
	lim := Limits{Nodes: sweepNodes}
	res, err := selfmatesWith(context.Background(), c.pos, c.stip, lim, cuts)
	if errors.Is(err, ErrLimit) {
		return "", false, 0
	}
	keys := make([]string, len(res.Keys))
	for i, k := range res.Keys {
		keys[i] = k.UCI()
	}
	slices.Sort(keys)
	out := fmt.Sprintf("shortest %d, keys %v", res.Shortest, keys)
	if res.Shortest == 0 {
		return out, true, 0
	}
	tree, err := selfTreeWith(context.Background(), c.pos, c.stip, res, lim, TreeOptions{FullDepth: c.stip.Moves}, cuts)
	if errors.Is(err, ErrLimit) {
		return "", false, 0
	}
	js, _ := json.Marshal(tree)
	return out + ", tree " + string(js), true, len(res.Keys)
}

// checkForcedCase compares, for the forced case of seed, the answer with
// the fail memo (forced play's one shortcut) and without it.
func checkForcedCase(seed uint64) (string, string, bool, int) {
	c := drawForcedCase(seed)
	want, ok, keys := forcedAnswer(c, 0)
	if !ok {
		return c.stip.String(), "", false, 0
	}
	got, ok, _ := forcedAnswer(c, prune.All)
	if ok && got != want {
		return c.stip.String(), fmt.Sprintf("seed %d: %s %s (%s), fail memo: %.300s; without: %.300s", seed, c.pos.FEN(), c.stip, c.theme, got, want), true, keys
	}
	return c.stip.String(), "", true, keys
}

// TestForcedShortcutsSound: the forced stipulations' answers (length,
// keys, and the solution tree with its duals and threats) are the same
// with the fail memo as without it, on the sweep's rare positions.
// MATELINE_FORCED_SWEEP_FIRST and MATELINE_FORCED_SWEEP_CASES choose the
// seeds; a failure names its seed, which drawForcedCase replays.
func TestForcedShortcutsSound(t *testing.T) {
	first := testpos.EnvCount(t, "MATELINE_FORCED_SWEEP_FIRST", 1)
	n := testpos.EnvCount(t, "MATELINE_FORCED_SWEEP_CASES", 2000)
	sweepNodes = testpos.EnvCount(t, "MATELINE_SWEEP_NODES", sweepNodes)
	st := sweep(first, n, checkForcedCase, false, func(diff string) { t.Error(diff) })
	t.Logf("seeds %d to %d: %d compared (%d keys), %d over %d nodes", first, first+n-1,
		st.compared.Load(), st.solutions.Load(), st.skipped.Load(), sweepNodes)
	for _, stip := range forcedStipulations {
		if x := st.byStip[stip]; x != nil {
			t.Logf("  %-9s %7d compared, %6d keys, %d ms", stip, x.compared, x.solutions, x.took.Milliseconds())
		}
	}
	if st.solutions.Load() == 0 {
		t.Error("no key compared")
	}
}
