package prune

import (
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/problem"
)

// TestIdleMovesFail: every move the idle test drops leads to a position
// the budget test refuses, for either side to move, on random positions.
func TestIdleMovesFail(t *testing.T) {
	dropped := 0
	budgets := [][2]int{{1, 2}, {2, 2}, {2, 3}, {3, 2}, {3, 3}}
	testpos.FewMen(91, 1000, func(pos board.Position) {
		for _, md := range budgets {
			for _, mater := range []board.Color{board.White, board.Black} {
				m, d := md[0], md[1]
				var bt BudgetTest
				alive := bt.SquaresLeft(&pos, problem.Checkmate, mater, m, d, Everywhere, true)
				if alive == 0 {
					continue
				}
				idle := NewIdleTest(&bt, &pos, problem.Checkmate, mater, m, d, alive)
				var l board.MoveList
				pos.LegalMoves(&l)
				for _, mv := range l.Slice() {
					if idle.Keeps(&pos, mv) {
						continue
					}
					dropped++
					child := pos
					child.Play(mv)
					cm, cd := m, d-1
					if pos.Side() == mater {
						cm, cd = m-1, d
					}
					var after BudgetTest
					if after.SquaresLeft(&child, problem.Checkmate, mater, cm, cd, Everywhere, true) != 0 {
						t.Errorf("%s %s (mater %v, m %d, d %d): dropped, but the test allows the child", pos.FEN(), mv.UCI(), mater, m, d)
					}
				}
			}
		}
	})
	if dropped == 0 {
		t.Error("no move dropped: the comparison proved little")
	}
	t.Logf("%d dropped moves checked", dropped)
}
