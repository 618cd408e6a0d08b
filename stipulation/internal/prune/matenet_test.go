package prune

import (
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/problem"
)

// TestMoveNetsNoStricter: the net tests made before a move is played
// (lastMoveNet, materMoveNet, lastBudget) refuse a move only when the
// test of the position after it (netAllows, budgetTest) refuses that
// position, on random positions with either side to move.
func TestMoveNetsNoStricter(t *testing.T) {
	refused := 0
	testpos.FewMen(77, 3000, func(pos board.Position) {
		last, third := newLastMoveNet(&pos), newMaterMoveNet(&pos)
		lastB := newLastBudget(&pos, problem.Checkmate, nil)
		var bt, after BudgetTest
		var l board.MoveList
		pos.LegalMoves(&l)
		for _, m := range l.Slice() {
			child := pos
			child.Play(m)
			if !lastB.keeps(&bt, &pos, m, Everywhere) {
				refused++
				if after.anySquareLeft(&child, problem.Checkmate, pos.Side().Other(), 1, 0) {
					t.Errorf("%s %s: the budget test refuses before the move, allows after it", pos.FEN(), m.UCI())
				}
			}
			if !last.keeps(m) {
				refused++
				if netAllows(&child, pos.Side().Other(), 1, 0) {
					t.Errorf("%s %s: refused before the move, allowed after (mate next)", pos.FEN(), m.UCI())
				}
			}
			if !third.keeps(&pos, m) {
				refused++
				if netAllows(&child, pos.Side(), 1, 1) {
					t.Errorf("%s %s: refused before the move, allowed after (mate in two plies)", pos.FEN(), m.UCI())
				}
			}
		}
	})
	if refused == 0 {
		t.Error("no move refused: the comparison proved little")
	}
	t.Logf("%d refusals checked", refused)
}
