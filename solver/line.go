package solver

import (
	"slices"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// Main lines: once a mate is proved and its keys are known, the line
// follows the winner's moves that keep the mate on schedule and the
// loser's replies that hold out longest, each asked of the search (or read
// off the tables). When a limit cut the line short, completeLine reads it
// off the proof instead.

// line builds the main line from the first key: the winner plays a move
// that keeps the mate on schedule, the loser a reply that holds out
// longest. complete is false when a limit cut it short.
func (s *searcher) line(root board.Position, first board.Move, mate problem.Mate) (pv []board.Move, complete bool) {
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
