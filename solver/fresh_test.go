package solver

import (
	"context"
	"fmt"
	"testing"

	"mateline.dev/mateline/board"
)

// TestFreshSolveIgnoresHistory: a fresh solve gives the same result, to
// the node, the keys and the line, on a new solver and on one that solved
// other positions before, in any order. A batch relies on it: its output
// must not depend on which worker solved what, or where a run resumed.
func TestFreshSolveIgnoresHistory(t *testing.T) {
	var positions []board.Position
	var opts []Options
	for _, bp := range BenchPositions {
		if bp.MaxMate > 5 {
			continue
		}
		positions = append(positions, board.MustParseFEN(bp.FEN))
		opts = append(opts, Options{MaxMate: bp.MaxMate, Fresh: true, Threads: 1})
	}
	describe := func(r Result) string {
		return fmt.Sprintf("%v %d within %d depth %d nodes %d keys %v pv %v", r.Status, r.Mate, r.MateWithin, r.Depth, r.Nodes, ucis(r.Keys), ucis(r.PV))
	}
	want := make([]string, len(positions))
	for i, pos := range positions {
		want[i] = describe(New(4).Solve(context.Background(), pos, opts[i]))
	}
	// One solver for all, forwards then backwards, with a solve that is
	// not fresh in between (its entries stay for later ones to ignore).
	sv := New(4)
	sv.Solve(context.Background(), board.MustParseFEN("r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1"), Options{MaxMate: 4})
	for pass := 0; pass < 2; pass++ {
		for k := range positions {
			i := k
			if pass == 1 {
				i = len(positions) - 1 - k
			}
			if got := describe(sv.Solve(context.Background(), positions[i], opts[i])); got != want[i] {
				t.Errorf("%s after other solves: %s\nalone: %s", positions[i].FEN(), got, want[i])
			}
		}
	}
	// A tree read after a fresh solve sees that solve's tables.
	pos := board.MustParseFEN("K5R1/7p/7p/8/R3PkP1/3p1b2/3pBQn1/4n2N w - - 0 1")
	opt := Options{MaxMate: 3, AllKeys: true, Fresh: true}
	res := sv.Solve(context.Background(), pos, opt)
	tree, err := sv.Tree(context.Background(), pos, res, opt, 0)
	if err != nil || len(tree.Keys) != 1 || tree.Keys[0].Move.UCI() != "f2b6" {
		t.Errorf("tree after a fresh solve: %v %+v", err, tree)
	}
}
