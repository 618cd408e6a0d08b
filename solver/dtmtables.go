package solver

import (
	"slices"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/tablebase/dtmline"
)

// Exact distance-to-mate tables (Options.DTM) answer a root they cover
// without a search, and give every node of the search they cover its
// exact score.

// dtmMaxMen is the most men a DTM table holds: six.
const dtmMaxMen = 6

// dtmCovers reports whether a position can be in the DTM tables.
func dtmCovers(pos *board.Position) bool {
	return pos.Castling() == 0 && pos.Occupied().Count() <= dtmMaxMen
}

// probeDTM returns the score of pos at ply from the tables: exact, or
// under the 50-move rule a bound that settles the node's window
// [alpha, beta]. ok is false when the tables do not answer or settle it.
func (s *searcher) probeDTM(pos *board.Position, ply, alpha, beta int) (int, Bound, bool) {
	m, ok := s.env.dtm.ProbeDTM(pos)
	if !ok {
		return 0, BoundNone, false
	}
	s.tbHits++
	mate := problem.Mate(m)
	if mate == 0 {
		return 0, BoundExact, true // no mate, with the clock or without
	}
	plies := mate.Plies()
	if ply+plies >= MaxPly {
		return 0, BoundNone, false
	}
	v := mateScore - ply - plies
	if mate < 0 {
		v = -v
	}
	if !s.env.rule50 || plies <= 100-pos.HalfmoveClock() {
		// The tables ignore the clock, but a mate that fits in what it
		// leaves is exact under the rule too: the winner's DTM line needs
		// no more plies, and the rule never shortens a mate.
		return v, BoundExact, true
	}
	// A longer mate may still come, through a capture or a pawn move in
	// time, or be a draw: never shorter than the tables say, and never
	// a mate for the other side.
	switch {
	case mate > 0 && v <= alpha:
		return v, BoundUpper, true
	case mate > 0 && beta <= 0:
		return 0, BoundLower, true
	case mate < 0 && v >= beta:
		return v, BoundLower, true
	case mate < 0 && alpha >= 0:
		return 0, BoundUpper, true
	}
	return 0, BoundNone, false
}

// tableAnswer answers a solve from the DTM tables when they cover the
// root: the exact mate, every key that keeps it (the defences that hold
// out longest for a mated side), and main lines where the winner mates
// soonest and the loser holds out longest, ties going to the first move
// in UCI order (the first of them without AllKeys). A mate of a kind Want
// does not ask for, or none, is StatusNoMate; a mate longer than MaxMate
// is StatusCapped, as a search would say, unless MaxMate is MaxMateMoves,
// as far as a search reaches: a longer mate the tables prove (KRNvKNN's
// 262 moves) is given then. With the
// 50-move rule the answer is used only when the mate fits in the plies
// the clock leaves.
func tableAnswer(pos board.Position, opt Options) (Result, bool) {
	var res Result
	if opt.DTM == nil || !dtmCovers(&pos) || opt.FirstMate {
		return res, false
	}
	moves := legalMoves(&pos)
	if len(moves) == 0 {
		return res, false
	}
	if rm, _ := legalSubset(&pos, opt.RootMoves); rm != nil {
		moves = rm
	}
	// the value of each root move, from the side to move
	vals := make([]problem.Mate, len(moves))
	best := problem.Mate(0)
	for i, m := range moves {
		child := pos
		child.Play(m)
		v, ok := dtmline.MoveValue(opt.DTM, &child)
		if !ok {
			return res, false
		}
		vals[i] = v
		if i == 0 || dtmline.Better(v, best) {
			best = v
		}
	}
	res.TBHits = uint64(len(moves))
	if opt.Book != nil {
		res.Book = opt.Book.BookMoves(&pos)
	}
	if opt.Rule50 && best != 0 && best.Plies() > 100-pos.HalfmoveClock() {
		return res, false
	}
	wanted := best > 0 && opt.Want != WantMated || best < 0 && opt.Want != WantMate
	switch {
	case best == 0 || !wanted:
		res.Status, res.Depth = StatusNoMate, opt.MaxMate
		return res, true
	case best.Moves() > opt.MaxMate && opt.MaxMate < MaxMateMoves:
		res.Status, res.Depth = StatusCapped, opt.MaxMate
		return res, true
	}
	res.Status, res.Mate, res.Depth = StatusMate, best, best.Moves()
	for i, m := range moves {
		if vals[i] == best {
			res.Keys = append(res.Keys, m)
		}
	}
	slices.SortFunc(res.Keys, func(a, b board.Move) int { return compareUCI(a, b) })
	// One rule for the tables and the search: every key with AllKeys (or
	// several lines), else one.
	if res.AllKeys = opt.AllKeys || opt.Lines > 1; !res.AllKeys {
		res.Keys = res.Keys[:1]
	}
	if opt.NoKeys {
		res.Keys = nil
		return res, true
	}
	lines := max(opt.Lines, 1)
	for _, k := range res.Keys[:min(lines, len(res.Keys))] {
		line, ok := dtmline.LineFrom(opt.DTM, pos, k)
		if !ok {
			res.Partial = true
			break
		}
		res.Lines = append(res.Lines, line)
	}
	if len(res.Lines) > 0 {
		res.PV = res.Lines[0]
	}
	return res, true
}

func legalMoves(pos *board.Position) []board.Move {
	var l board.MoveList
	pos.LegalMoves(&l)
	return slices.Clone(l.Slice())
}

func compareUCI(a, b board.Move) int {
	switch x, y := a.UCI(), b.UCI(); {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
