package solver

import "mateline.dev/mateline/board"

// Plain mate tests: only the rules, no table and no limit.

// bruteMates reports whether the side to move in pos mates within plies
// (1 or 3), and bruteMated whether it is mated within plies (0 or 2), by
// plain search: no table, no limit. They finish lines at the horizon,
// where the tables hold no moves, and cost little at these depths.
func (s *searcher) bruteMates(pos *board.Position, plies int) bool {
	if plies < 3 {
		return s.matesInOne(pos, pos.InCheck())
	}
	var l board.MoveList
	pos.LegalMoves(&l)
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		if child.IsCheckmate() || s.bruteMated(&child, plies-1) {
			return true
		}
	}
	return false
}

func (s *searcher) bruteMated(pos *board.Position, plies int) bool {
	var l board.MoveList
	pos.LegalMoves(&l)
	if l.N == 0 {
		return pos.InCheck()
	}
	if plies < 2 {
		return false
	}
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		if !s.bruteMates(&child, plies-1) {
			return false
		}
	}
	return true
}

// matesInOne reports whether the side to move has a mating move: only a
// checking move can mate (out of check, only those are generated).
func (s *searcher) matesInOne(pos *board.Position, inCheck bool) bool {
	var l board.MoveList
	if inCheck || !s.env.uses(cutChecksLast) {
		pos.LegalMoves(&l)
	} else {
		pos.CheckingMoves(&l)
	}
	for _, m := range l.Moves[:l.N] {
		child := *pos
		child.Play(m)
		s.nodes++
		if child.InCheck() && !child.HasLegalMove() {
			return true
		}
	}
	return false
}
