package solver

import (
	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// Once a mate is proved, the key moves and the main line are read off with
// further exact questions, answered from the tables where they can be.

// rootTest reports whether the root position is won by the side to move
// within plies (odd), or lost within plies (even), by q's attacker. It is a
// null-window search around that boundary; false when q stopped.
func (s *searcher) rootTest(q *query, pos board.Position, plies int) bool {
	if q.stopped {
		return false
	}
	s.pos[0] = pos
	if plies%2 == 1 {
		bound := mateScore - plies
		v, _ := s.search(q, 0, plies, bound-1, bound)
		return !q.stopped && v >= bound
	}
	bound := -(mateScore - plies)
	v, _ := s.search(q, 0, plies, bound, bound+1)
	return !q.stopped && v <= bound
}

// matesWithin reports whether the side to move in pos mates within plies
// (odd): from what the proof-number search's table decided, else by a
// search from ply 0. ok is false when the solve's limits stopped it.
func (s *searcher) matesWithin(pos *board.Position, plies int) (mates, ok bool) {
	if plies < 1 {
		return false, true
	}
	if wins, known := s.pnKnown(pos.Side(), pos, plies); known {
		return wins, true
	}
	return s.decide(pos, pos.Side(), plies)
}

// matedWithin reports whether the side to move in pos is mated within
// plies (even; 0 means it is checkmated now), like matesWithin.
func (s *searcher) matedWithin(pos *board.Position, plies int) (mated, ok bool) {
	if plies == 0 {
		return pos.IsCheckmate(), true
	}
	if wins, known := s.pnKnown(pos.Side().Other(), pos, plies); known {
		return wins, true
	}
	return s.decide(pos, pos.Side().Other(), plies)
}

// decide reports whether attacker mates within plies of pos. A short
// question goes to the alpha-beta search alone; a long one to both
// searches in turn, the alpha-beta search first (the table mostly holds
// its answer already), on budgets that double, until one decides it: the
// proof-number search decides some long ones far sooner (matetrack.epd
// line 6068: after each king move but the key, no mate in 17 moves). ok is false when
// the solve's limits, or the searcher's budget, stopped it.
func (s *searcher) decide(pos *board.Position, attacker board.Color, plies int) (wins, ok bool) {
	if plies < decideTurnsPlies {
		q := s.newQuery(attacker)
		wins = s.rootTest(q, *pos, plies)
		return wins, !q.stopped
	}
	for budget := uint64(firstDecideBudget); ; budget *= 2 {
		q := s.newQuery(attacker).withNodes(s, budget)
		wins = s.rootTest(q, *pos, plies)
		if !q.stopped {
			return wins, true
		}
		if s.spent() {
			return false, false
		}
		q = s.newQuery(attacker).withNodes(s, budget/decidePNShare)
		if wins, decided := s.pnProve(q, *pos, plies); decided {
			return wins, true
		}
		if s.spent() {
			return false, false
		}
	}
}

// decideTurnsPlies is the least question, in plies, that decide gives to
// both searches in turn; firstDecideBudget is the alpha-beta search's
// first budget, and the proof-number search gets a decidePNShare-th of
// each.
const (
	decideTurnsPlies  = 9
	firstDecideBudget = 1 << 14
	decidePNShare     = 4
)

// spent reports whether the solve's limits, or the searcher's budget,
// stop every query it starts.
func (s *searcher) spent() bool {
	return s.limitReached() || s.budgetEnd > 0 && s.nodes >= s.budgetEnd
}

// keys returns the root moves achieving mate (signed moves): for a win the
// moves after which the opponent is mated within the remaining plies, for a
// loss the defences that hold out the full length. Only rootMoves are
// tried when not nil. complete is false when a limit cut the list short.
func (s *searcher) keys(pos board.Position, mate problem.Mate, rootMoves []board.Move, all bool, book []board.Move) (keys []board.Move, complete bool) {
	var l board.MoveList
	pos.LegalMoves(&l)
	if rootMoves != nil {
		keepOnly(&l, rootMoves)
	}
	ordered := rootOrder(l.Slice(), book)
	rest := mate.Plies() - 1 // plies left after a key
	if !all && mate > 0 {
		// One key will do: a move the proof-number search proved, if any,
		// saves refuting the moves before it in the list.
		for _, m := range ordered {
			child := pos
			child.Play(m)
			if mated, known := s.pnKnown(pos.Side(), &child, rest); known && mated {
				return []board.Move{m}, true
			}
		}
		ordered = s.tableFirst(&pos, ordered)
	}
	for _, m := range ordered {
		child := pos
		child.Play(m)
		var key, ok bool
		if mate > 0 {
			key, ok = s.matedWithin(&child, rest)
		} else {
			// A defence holds out the full length if the opponent cannot
			// mate in fewer than the rest plies after it.
			var faster bool
			faster, ok = s.matesWithin(&child, rest-2)
			key = !faster
		}
		if !ok {
			return keys, false
		}
		if key {
			keys = append(keys, m)
			if !all {
				break
			}
		}
	}
	return keys, true
}

// rootOrder puts book moves first, keeping the rest in generator order.
func rootOrder(moves, book []board.Move) []board.Move {
	out := make([]board.Move, 0, len(moves))
	for _, b := range book {
		for _, m := range moves {
			if m == b {
				out = append(out, m)
			}
		}
	}
	for _, m := range moves {
		inBook := false
		for _, b := range book {
			inBook = inBook || b == m
		}
		if !inBook {
			out = append(out, m)
		}
	}
	return out
}
