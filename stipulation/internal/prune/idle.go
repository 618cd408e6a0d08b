package prune

import (
	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// The idle test drops moves before they are played. A position that
// passes the budget test may fail it with one move fewer for the side to
// move: then every move must do something for the mate. A move of a man
// (not the king) that, from where it lands, can reach no square that
// matters within the moves its side has left after it (for the mating
// side: attack one of the squares where the king can still be mated or
// one round them; for the other side: stand on one in fewer moves than
// from where it was) leaves a position no better than the first with
// that man gone (or where it was) and one move fewer, which fails: the
// child would fail the budget test too. Taking a man only
// makes it worse for the side taken. Mates only: a stalemate's stuck test
// reads every man.

// IdleTest is the idle test at one position.
type IdleTest struct {
	on     bool
	side   board.Color
	mater  bool           // the side to move is the mating side
	left   int            // the side to move's moves after this one
	matter board.Bitboard // the squares alive, and those round them
}

// NewIdleTest prepares the test at pos, where the budget test left the
// mating squares alive (all of them) with m moves of mater's and d of
// the other side's.
func NewIdleTest(bt *BudgetTest, pos *board.Position, aim problem.Aim, mater board.Color, m, d int, alive board.Bitboard) IdleTest {
	if aim != problem.Checkmate {
		return IdleTest{}
	}
	it := IdleTest{side: pos.Side(), mater: pos.Side() == mater}
	mm, dd := m, d
	if it.mater {
		mm--
		it.left = mm
	} else {
		dd--
		it.left = dd
	}
	if it.left < 1 || bt.SquaresLeft(pos, aim, mater, mm, dd, alive, false) != 0 {
		return IdleTest{}
	}
	it.on = true
	for a := alive; a != 0; {
		t := a.PopFirst()
		it.matter |= board.SquareBB(t) | board.KingAttacks(t)
	}
	if !it.mater {
		// A man of the other side also serves where a pawn of the mating
		// side takes it as it mates (the budget test counts that
		// capture only with a man there): those squares matter too
		// (2026-12-02: the ser-h#3 8/6P1/8/8/7k/5K2/3q4/3r4 b, Qh6 Qh8
		// Kh3 gxh8=Q#, was lost).
		it.matter |= pawnPrey(pos, mater)
	}
	return it
}

// keeps reports whether the child after mv may pass the budget test.
func (it *IdleTest) Keeps(pos *board.Position, mv board.Move) bool {
	if !it.on || mv.IsCastling() {
		return true
	}
	was := pos.PieceAt(mv.From()).Type()
	if was == board.King {
		return true
	}
	kind := was
	if p := mv.Promotion(); p != board.NoPieceType && Mutant != IdleMoves {
		kind = p
	}
	b := budget()
	if it.mater {
		return b.attack[it.side][kind][mv.To()][it.left]&it.matter != 0
	}
	// the other side: a man that comes no nearer any square that
	// matters is no better off than where it was
	to, from := &b.stand[it.side][kind][mv.To()], &b.stand[it.side][was][mv.From()]
	for ms := it.matter & b.stands[it.side][kind][mv.To()][it.left]; ms != 0; {
		if s := ms.PopFirst(); to[s] < from[s] {
			return true
		}
	}
	return false
}
