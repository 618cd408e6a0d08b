package stipulation

import (
	"context"
	"errors"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/stipulation/internal/prune"
)

// Series finds every solution of a series-mover (st.Kind SeriesDirect or
// SeriesHelp) from pos. The side to move plays st.Moves moves in a row,
// the other side not moving, and none but the last may give check (the
// other side would have to answer it). In ser-#N (ser-=N) the last of
// them checkmates (stalemates) the other side; in ser-h#N (ser-h=N) the
// other side then plays one move that checkmates (stalemates) the side
// of the series, answering a check if the last series move gave one. In
// a parry series (st.Parry) a series move may check before the last: the
// other side's parries (each of its moves) follow it in the line, and
// the series goes on. Solutions come in the move generator's order, move
// by move. An error (ErrLimit) means the
// list may be incomplete; without one, no solution means there is none.
func Series(ctx context.Context, pos board.Position, st problem.Stipulation, lim Limits) (HelpResult, error) {
	return seriesWith(ctx, pos, st, lim, prune.Enabled())
}

// seriesWith is Series with the shortcuts in cuts only.
func seriesWith(ctx context.Context, pos board.Position, st problem.Stipulation, lim Limits, cuts prune.Set) (HelpResult, error) {
	if !st.IsSeries() {
		return HelpResult{}, errors.New("not a series stipulation")
	}
	end := map[problem.Kind]seriesEnd{problem.SeriesDirect: endBySeries, problem.SeriesHelp: endHelp, problem.SeriesSelf: endSelf, problem.SeriesReflex: endReflex}[st.Kind]
	s := &serieser{ctx: ctx, lim: lim, aim: st.Aim, end: end, parry: st.Parry, dead: newFailTable(1 << 20),
		lists: make([]board.MoveList, st.Moves+2), stack: make([]board.Position, st.Moves+2), cuts: cuts}
	var err error
	if st.Intro > 0 {
		err = s.intro(&pos, st.Intro, st.Moves, make([]board.Move, 0, st.Plies()))
	} else {
		_, err = s.solve(&pos, st.Moves, make([]board.Move, 0, st.Plies()), everywhere)
	}
	return HelpResult{Solutions: s.solutions, Nodes: s.nodes}, err
}

// intro plays the introductory moves: left more of them by the side to
// move at pos, the other side not moving, none giving check but the last;
// after the last, the other side plays the series of moves moves.
func (s *serieser) intro(pos *board.Position, left, moves int, line []board.Move) error {
	s.nodes++
	if s.nodes&1023 == 0 && (s.ctx.Err() != nil || s.lim.Nodes > 0 && s.nodes >= s.lim.Nodes) {
		return ErrLimit
	}
	var l board.MoveList
	pos.LegalMoves(&l)
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		if left > 1 {
			if child.InCheck() {
				continue // an introductory move may not check before the last
			}
			child.Pass()
			if err := s.intro(&child, left-1, moves, append(line, m)); err != nil {
				return err
			}
			continue
		}
		if _, err := s.solve(&child, moves, append(line, m), everywhere); err != nil {
			return err
		}
	}
	return nil
}

// Lines finds every solution of a stipulation solved by its lines
// (st.HasSolutions: helpmates and series-movers).
func Lines(ctx context.Context, pos board.Position, st problem.Stipulation, lim Limits) (HelpResult, error) {
	return linesWith(ctx, pos, st, lim, prune.Enabled())
}

// linesWith is Lines with the shortcuts in cuts only.
func linesWith(ctx context.Context, pos board.Position, st problem.Stipulation, lim Limits, cuts prune.Set) (HelpResult, error) {
	if st.IsSeries() {
		return seriesWith(ctx, pos, st, lim, cuts)
	}
	return helpmatesWith(ctx, pos, st, lim, cuts)
}

// seriesEnd is how a series-mover ends.
type seriesEnd uint8

const (
	endBySeries   seriesEnd = iota // ser-#: the last series move reaches the aim
	endHelp                        // ser-h#: then a move of the other side does
	endSelf                        // ser-s#: then every move of the other side does (it has one)
	endReflex                      // ser-r#: then the other side can mate, so must; before, neither side can
	endReciprocal                  // reci-h#: the side to move, two plies from the end, can mate at once and be mated in a helpmate in one
)

// pruned is how the help play's shortcuts see the ending.
func (e seriesEnd) pruned() prune.Ending {
	switch e {
	case endBySeries:
		return prune.EndsInAim
	case endReciprocal:
		return prune.EndsReciprocal
	}
	return prune.EndsForced
}

// serieser is one series search.
type serieser struct {
	ctx       context.Context
	lim       Limits
	aim       problem.Aim
	end       seriesEnd
	parry     bool // pser-: a check before the last series move is parried (Stipulation.Parry)
	nodes     uint64
	solutions []Line
	dead      *failTable // positions, with series moves left, that have no solution
	lists     []board.MoveList
	stack     []board.Position // a child position per series moves left, reused
	budget    prune.BudgetTest // the mating-net test with moves counted per man
	// cuts: the shortcuts made (seriesPolicy says where; all of them
	// but in tests)
	cuts prune.Set
}

// seriesPolicy is where each shortcut of series play is made, in words
// (serieser.solve makes them): the fail memo before the last series
// move; the budget test, in ser-# and ser-h# (and their pser- and ser-=
// forms), before the move that reaches the aim, and at it the square
// the king stands on; the idle test where the budget test asks for
// every square and there is no parry; the checks only, for the move
// that mates.
var seriesPolicy = [...]prune.Shortcut{prune.FailMemo, prune.Budget, prune.IdleMoves, prune.ChecksOnly}

// solve appends the solutions from pos, the side of the series to move
// with left series moves to play (in ser-h, left 0: the other side to
// play the last move), and reports whether there were any; the king of
// the side that is mated can only be mated on the squares of within
// (those the budget test left alive at the position before).
func (s *serieser) solve(pos *board.Position, left int, line []board.Move, within board.Bitboard) (bool, error) {
	s.nodes++
	if s.nodes&1023 == 0 && (s.ctx.Err() != nil || s.lim.Nodes > 0 && s.nodes >= s.lim.Nodes) {
		return false, ErrLimit
	}
	if left == 0 && (s.end == endSelf || s.end == endReflex) {
		return s.forcedEnd(pos, line)
	}
	if s.end == endReflex && canMate(pos) {
		return false, nil // it would have to mate, ending the play off the aim
	}
	last := left == 0 || left == 1 && s.end == endBySeries // the move that must reach the aim
	key := pos.Key()
	memo := !last && s.cuts.Has(prune.FailMemo)
	if memo && s.dead.has(key, left) {
		return false, nil
	}
	alive := within
	var idle prune.IdleTest // (prune/idle.go)
	if (s.end == endHelp || s.end == endBySeries) && s.cuts.Has(prune.Budget) {
		// ser-h#: the other side mates (ser-h=: stalemates) in one after
		// left moves; ser-#: the side to move mates with the last of its
		// left moves; pser-h#: the other side also parries, once at most
		// after each series move but the last
		mater, m, d := pos.Side().Other(), 1, left
		switch {
		case s.end == endBySeries && s.parry:
			mater, m, d = pos.Side(), left, max(left-1, 0)
		case s.end == endBySeries:
			mater, m, d = pos.Side(), left, 0
		case s.parry:
			m = max(left, 1)
		}
		if last {
			// the side to move mates: the other king stands where it
			// will be mated
			if !within.Has(pos.KingSquare(pos.Side().Other())) {
				return false, nil
			}
		} else {
			// every square alive where the children are tested on
			// them (else the children keep within)
			all := left >= 2
			alive = s.budget.SquaresLeft(pos, s.aim, mater, m, d, within, all)
			if alive == 0 {
				if memo {
					s.dead.add(key, left)
				}
				return false, nil
			}
			if all && !s.parry && s.cuts.Has(prune.IdleMoves) {
				idle = prune.NewIdleTest(&s.budget, pos, s.aim, mater, m, d, alive)
			}
		}
	}
	l := &s.lists[left]
	if last && s.aim == problem.Checkmate && s.cuts.Has(prune.ChecksOnly) {
		pos.CheckingMoves(l)
		if prune.Mutant == prune.ChecksOnly {
			prune.DropSpecial(l)
		}
	} else {
		pos.LegalMoves(l)
	}
	found := false
	for _, m := range l.Slice() {
		if !idle.Keeps(pos, m) {
			s.nodes++ // the child fails the budget test: no mate after m
			continue
		}
		child := &s.stack[left]
		*child = *pos
		child.Play(m)
		if last {
			if reached(child, s.aim) {
				s.solutions = append(s.solutions, append(append(Line(nil), line...), m))
				found = true
				if len(s.solutions) == s.lim.MaxSolutions {
					return true, ErrMaxSolutions
				}
			}
			continue
		}
		if child.InCheck() && left > 1 {
			if !s.parry {
				continue // a series move may not check before the last
			}
			ok, err := s.parries(child, left-1, append(line, m), alive)
			if err != nil {
				return found, err
			}
			found = found || ok
			continue
		}
		if s.end == endReflex && left > 1 && canMate(child) {
			continue // the other side would have to mate now
		}
		if left > 1 {
			child.Pass() // the other side does not move
		}
		ok, err := s.solve(child, left-1, append(line, m), alive)
		if err != nil {
			return found, err
		}
		found = found || ok
	}
	if !found && memo {
		s.dead.add(key, left)
	}
	return found, nil
}

// parries goes on with a parry series after a series move that gave
// check: at pos the other side is in check, and each of its moves that
// parries it (every legal move does) is followed by the series' left
// moves still to play (the mating squares still alive: within). In
// pser-h# any one parry will do; in pser-# and pser-s# the other side
// chooses, so every parry must be answered, and the lines after all of
// them make the solution (none are kept when one parry refutes). A check no move
// parries is a mate (or a stalemate) before the series' end: that line
// fails.
func (s *serieser) parries(pos *board.Position, left int, line []board.Move, within board.Bitboard) (bool, error) {
	var l board.MoveList
	pos.LegalMoves(&l)
	every := s.end == endBySeries || s.end == endSelf
	if every && l.N == 0 {
		return false, nil
	}
	mark := len(s.solutions)
	found := false
	for _, r := range l.Slice() {
		child := *pos
		child.Play(r)
		ok, err := s.solve(&child, left, append(line, r), within)
		if err != nil {
			return found, err
		}
		if every && !ok {
			s.solutions = s.solutions[:mark]
			return false, nil
		}
		found = found || ok
	}
	return found, nil
}

// reached reports whether pos, after a solution's last move, is the aim.
func reached(pos *board.Position, aim problem.Aim) bool {
	if aim == problem.Stalemate {
		return pos.IsStalemate()
	}
	return pos.IsCheckmate()
}

// forcedEnd ends a series selfmate or reflexmate: the other side, to
// move at pos after the series, must reach the aim (forcedEnds); each such
// move ends a solution.
func (s *serieser) forcedEnd(pos *board.Position, line []board.Move) (bool, error) {
	return addEnds(&s.solutions, line, forcedEnds(pos, s.aim, s.end), s.lim.MaxSolutions)
}

// addEnds appends to sols a solution for each move of ends after line,
// stopping at most solutions (ErrMaxSolutions; 0: no bound); it reports
// whether there was any.
func addEnds(sols *[]Line, line, ends []board.Move, most int) (bool, error) {
	for _, m := range ends {
		*sols = append(*sols, append(append(Line(nil), line...), m))
		if len(*sols) == most {
			return true, ErrMaxSolutions
		}
	}
	return len(ends) > 0, nil
}

// forcedEnds returns the moves that end a self or reflex play at pos, the
// side to move having to reach the aim: with endSelf every one of its
// moves does, and it has one (else none is returned); with endReflex its
// mates, which it must play.
func forcedEnds(pos *board.Position, aim problem.Aim, end seriesEnd) []board.Move {
	var l board.MoveList
	pos.LegalMoves(&l)
	var ends []board.Move
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		if reached(&child, aim) {
			ends = append(ends, m)
		} else if end == endSelf {
			return nil
		}
	}
	return ends
}

// matesInOne returns the moves that mate at once at pos.
func matesInOne(pos *board.Position) []board.Move {
	var l board.MoveList
	pos.CheckingMoves(&l)
	var mates []board.Move
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		if child.IsCheckmate() {
			mates = append(mates, m)
		}
	}
	return mates
}

// canMate reports whether the side to move at pos has a mate in one.
func canMate(pos *board.Position) bool {
	var l board.MoveList
	pos.CheckingMoves(&l)
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		if child.IsCheckmate() {
			return true
		}
	}
	return false
}
