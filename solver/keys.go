package solver

import (
	"slices"

	"mateline.dev/mateline/board"
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
	q := s.newQuery(pos.Side())
	mates = s.rootTest(q, *pos, plies)
	return mates, !q.stopped
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
	q := s.newQuery(pos.Side().Other())
	mated = s.rootTest(q, *pos, plies)
	return mated, !q.stopped
}

// keys returns the root moves achieving mate (signed moves): for a win the
// moves after which the opponent is mated within the remaining plies, for a
// loss the defences that hold out the full length. Only rootMoves are
// tried when not nil. complete is false when a limit cut the list short.
func (s *searcher) keys(pos board.Position, mate Mate, rootMoves []board.Move, all bool, book []board.Move) (keys []board.Move, complete bool) {
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

// line builds the main line from the first key: the winner plays a move
// that keeps the mate on schedule, the loser a reply that holds out
// longest. complete is false when a limit cut it short.
func (s *searcher) line(root board.Position, first board.Move, mate Mate) (pv []board.Move, complete bool) {
	pv = []board.Move{first}
	pos := root
	pos.Play(first)
	left := mate.Plies() - 1 // plies left until mate after the first move
	winner := mate.Winner(root.Side())
	for left > 0 {
		var l board.MoveList
		pos.LegalMoves(&l)
		if l.N == 0 {
			break
		}
		var next board.Move
		var ok bool
		if pos.Side() == winner {
			next, ok = s.onSchedule(&pos, l.Slice(), left)
		} else {
			next, ok = s.longestDefence(&pos, l.Slice(), left)
		}
		if !ok {
			return pv, false
		}
		if next == board.NoMove {
			break
		}
		pv = append(pv, next)
		pos.Play(next)
		left--
	}
	return pv, true
}

// onSchedule returns a move of the winner, to move in pos, that mates
// within the left plies.
func (s *searcher) onSchedule(pos *board.Position, moves []board.Move, left int) (board.Move, bool) {
	for _, m := range s.tableFirst(pos, moves) {
		child := *pos
		child.Play(m)
		mated, ok := s.matedWithin(&child, left-1)
		if !ok {
			return board.NoMove, false
		}
		if mated {
			return m, true
		}
	}
	return board.NoMove, true
}

// longestDefence returns a reply of the loser, to move in pos, that holds
// out longest when mate comes within left plies. A reply that holds out
// all of them (no mate within left-2 plies after it) is longest, and on a
// shortest mate's line there always is one: the table's move, which
// refuted the shorter mates in the last iteration, is tried first. Only
// when none holds out the full length are the replies measured one by one.
func (s *searcher) longestDefence(pos *board.Position, moves []board.Move, left int) (board.Move, bool) {
	ordered := s.tableFirst(pos, moves)
	for _, m := range ordered {
		child := *pos
		child.Play(m)
		faster, ok := s.matesWithin(&child, left-3)
		if !ok {
			return board.NoMove, false
		}
		if !faster {
			return m, true
		}
	}
	best, bestNeed := board.NoMove, -1
	for _, m := range ordered {
		child := *pos
		child.Play(m)
		need := 1
		for need < left-1 {
			mates, ok := s.matesWithin(&child, need)
			if !ok {
				return board.NoMove, false
			}
			if mates {
				break
			}
			need += 2
		}
		if need > bestNeed {
			best, bestNeed = m, need
		}
	}
	return best, true
}

// tableFirst returns moves with the table's move for pos first.
func (s *searcher) tableFirst(pos *board.Position, moves []board.Move) []board.Move {
	e, found := s.env.tt.probe(s.ttKey(pos))
	if !found || e.move == board.NoMove {
		return moves
	}
	out := make([]board.Move, 0, len(moves))
	for _, m := range moves {
		if m == e.move {
			out = append(out, m)
		}
	}
	for _, m := range moves {
		if m != e.move {
			out = append(out, m)
		}
	}
	return out
}

// completeLine replaces a main line that a limit cut short with one read
// from the proof tree of the mate, when the tables of the proof still hold
// it (reading them is bounded by the same limit): the line then has the
// full length of the mate, though its defences may not be the longest
// resistance.
func completeLine(s *searcher, pos board.Position, res *Result) {
	want := res.Mate.Plies()
	rest := res.Mate.After() // the mate the opponent faces after the key
	if len(res.Lines) > 0 && len(res.Lines[0]) == want {
		return
	}
	var line []board.Move
	if len(res.Keys) == 0 {
		_, l, err := s.firstMateLine(pos, res.Mate)
		if err != nil {
			l = s.tableLine(pos, want)
		}
		line = l
	} else {
		line = []board.Move{res.Keys[0]}
		if want > 1 {
			child := pos
			child.Play(res.Keys[0])
			_, tail, err := s.firstMateLine(child, rest)
			if err != nil {
				tail = s.tableLine(child, want-1)
			}
			line = append(line, tail...)
		}
	}
	if len(line) != want || !checkmates(pos, line) {
		return
	}
	if len(res.Keys) == 0 {
		res.Keys = line[:1]
	}
	if len(res.Lines) == 0 {
		res.Lines = [][]board.Move{line}
	} else {
		res.Lines[0] = line
	}
}

// longestKnownDefence returns a reply of the loser, to move in pos with
// left plies to go, after which the proof-number search proved the
// winner's mate within left-1 plies, the one whose proof cost most (the
// likeliest to hold out longest) and not allowing mate at once; NoMove if
// there is none. Near the end, where that search's table holds nothing, a
// plain search decides.
func (s *searcher) longestKnownDefence(pos *board.Position, moves []board.Move, winner board.Color, left int) board.Move {
	best, bestWork := board.NoMove, uint32(0)
	for _, m := range moves {
		child := *pos
		child.Play(m)
		if left <= 2 {
			if s.bruteMates(&child, left-1) {
				return m
			}
			continue
		}
		if wins, known := s.pnKnown(winner, &child, left-1); !known || !wins {
			continue
		}
		w := uint32(1)
		if !s.bruteMates(&child, 1) { // a reply allowing mate at once ends the line early
			w += min(s.env.pn.work(s.pnKey(&child, left-1)), 1<<31)
		}
		if w > bestWork {
			best, bestWork = m, w
		}
	}
	return best
}

// tableLine follows the tables from pos for plies moves, without a search:
// the winner plays a mate on the last ply, else a move the proof-number
// search proved, else the table's move; the loser plays the table's move,
// the refutation of the shorter mates that the last iteration stored, else
// a reply the proof-number search answered (longestKnownDefence). The
// caller checks that the line has the full length and ends in mate.
func (s *searcher) tableLine(pos board.Position, plies int) []board.Move {
	winner := pos.Side() // the side that makes the last move mates
	if plies%2 == 0 {
		winner = winner.Other()
	}
	var line []board.Move
	for left := plies; left > 0; left-- {
		var l board.MoveList
		pos.LegalMoves(&l)
		next := board.NoMove
		if pos.Side() == winner {
			for _, m := range l.Slice() {
				child := pos
				child.Play(m)
				if left == 1 && child.IsCheckmate() {
					next = m
					break
				}
				if wins, known := s.pnKnown(winner, &child, left-1); left > 1 && known && wins {
					next = m
					break
				}
				if left == 3 && !child.IsCheckmate() && s.bruteMated(&child, 2) {
					// The proof-number search leaves mates in two to
					// the alpha-beta search, so its table holds no move.
					next = m
					break
				}
			}
		}
		if next == board.NoMove {
			if e, found := s.env.tt.probe(s.ttKey(&pos)); found && slices.Contains(l.Slice(), e.move) {
				next = e.move
			} else if pos.Side() != winner {
				next = s.longestKnownDefence(&pos, l.Slice(), winner, left)
			}
			if next == board.NoMove {
				return line
			}
		}
		line = append(line, next)
		pos.Play(next)
	}
	return line
}

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
