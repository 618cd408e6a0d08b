package solver

import (
	"slices"

	"mateline.dev/mateline/board"
)

// Move ordering: the table's move, then checks, captures by victim value,
// killer moves and history. Ordering changes only the speed of a proof,
// never its result.

var victimValue = [7]int32{0, 100, 300, 300, 500, 900, 0}

const (
	orderBook    = 1 << 29
	orderCheck   = 1 << 24
	orderCapture = 1 << 20
	orderKiller  = 1 << 18
)

// orderMoves scores the moves of ply from index from on, and moves the
// best of them to index from and returns it (as pickMove would).
func (s *searcher) orderMoves(q *query, ply int, pos *board.Position, from int) board.Move {
	l := &s.lists[ply]
	sc := &s.scores[ply]
	us := pos.Side()
	ci := pos.NewCheckInfo()
	best := from
	for i := from; i < l.N; i++ {
		m := l.Moves[i]
		v := staticOrder(pos, &ci, m)
		if ply == 0 && slices.Contains(q.rootBook, m) {
			v += orderBook
		}
		if m == s.killers[ply][0] || m == s.killers[ply][1] {
			v += orderKiller
		}
		v += s.history[us][m.From()][m.To()]
		sc[i] = v
		if v > sc[best] {
			best = i
		}
	}
	l.Moves[from], l.Moves[best] = l.Moves[best], l.Moves[from]
	sc[from], sc[best] = sc[best], sc[from]
	return l.Moves[from]
}

// staticOrder scores a move by what it is: a check, a capture by the value
// taken, a promotion.
func staticOrder(pos *board.Position, ci *board.CheckInfo, m board.Move) int32 {
	var v int32
	if pos.GivesCheckWith(ci, m) {
		v += orderCheck
	}
	if victim := pos.PieceAt(m.To()); victim != board.NoPiece {
		v += orderCapture + victimValue[victim.Type()]*16 - victimValue[pos.PieceAt(m.From()).Type()]/16
	} else if m.IsEnPassant() {
		v += orderCapture + victimValue[board.Pawn]*16
	}
	if p := m.Promotion(); p != board.NoPieceType {
		v += orderCapture + victimValue[p]*8
	}
	return v
}

// pickMove moves the best-scored remaining move to position i and returns it.
func (s *searcher) pickMove(ply, i int) board.Move {
	l := &s.lists[ply]
	sc := &s.scores[ply]
	best := i
	for j := i + 1; j < l.N; j++ {
		if sc[j] > sc[best] {
			best = j
		}
	}
	l.Moves[i], l.Moves[best] = l.Moves[best], l.Moves[i]
	sc[i], sc[best] = sc[best], sc[i]
	return l.Moves[i]
}

// rewardCutoff remembers a move that refuted the opponent's last move.
func (s *searcher) rewardCutoff(ply int, pos *board.Position, m board.Move, depth int) {
	if pos.PieceAt(m.To()) != board.NoPiece {
		return
	}
	if s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	h := &s.history[pos.Side()][m.From()][m.To()]
	*h += int32(depth * depth)
	if *h > orderKiller/2 {
		for c := range s.history {
			for f := range s.history[c] {
				for t := range s.history[c][f] {
					s.history[c][f][t] /= 2
				}
			}
		}
	}
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
