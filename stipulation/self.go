package stipulation

import (
	"context"
	"errors"

	"mateline.dev/mateline/board"
)

// SelfResult is what a selfmate solve proves.
type SelfResult struct {
	// Keys are every first move that forces the selfmate within the
	// stipulated moves, in the move generator's order.
	Keys []board.Move
	// Shortest is the fewest moves the selfmate is forced in (0: not
	// within the stipulated moves). Less than the stipulation means the
	// problem is solved shorter than it says.
	Shortest int
	Nodes    uint64 // positions visited
}

// Selfmates solves a selfmate (st.Kind must be Self): the side to move
// forces the other side to checkmate it by the other side's st.Moves-th
// move, the other side mating only when it cannot avoid it. Every key is
// found; an error (ErrLimit) means the answer is not complete.
func Selfmates(ctx context.Context, pos board.Position, st Stipulation, lim Limits) (SelfResult, error) {
	if st.Kind != Self {
		return SelfResult{}, errors.New("not a selfmate stipulation")
	}
	s := newSelfer(ctx, lim)
	var res SelfResult
	for n := 1; n <= st.Moves && res.Shortest == 0; n++ {
		ok, err := s.wins(&pos, n)
		if err != nil {
			res.Nodes = s.nodes
			return res, err
		}
		if ok {
			res.Shortest = n
		}
	}
	if res.Shortest != 0 {
		var l board.MoveList
		pos.LegalMoves(&l)
		for _, m := range l.Slice() {
			child := pos
			child.Play(m)
			ok, err := s.forces(&child, st.Moves)
			if err != nil {
				res.Nodes = s.nodes
				return res, err
			}
			if ok {
				res.Keys = append(res.Keys, m)
			}
		}
	}
	res.Nodes = s.nodes
	return res, nil
}

// selfer is one selfmate search.
type selfer struct {
	ctx       context.Context
	lim       Limits
	nodes     uint64
	won, lost *failTable // positions proved to force the selfmate within n moves, or not to
}

// newSelfer starts a selfmate search.
func newSelfer(ctx context.Context, lim Limits) *selfer {
	return &selfer{ctx: ctx, lim: lim, won: newFailTable(1 << 19), lost: newFailTable(1 << 19)}
}

// wins reports whether the side to move at pos forces the other side to
// mate it within n moves.
func (s *selfer) wins(pos *board.Position, n int) (bool, error) {
	s.nodes++
	if s.nodes&1023 == 0 {
		if s.ctx.Err() != nil || s.lim.Nodes > 0 && s.nodes >= s.lim.Nodes {
			return false, ErrLimit
		}
	}
	key := pos.Key()
	switch {
	case s.won.has(key, n):
		return true, nil
	case s.lost.has(key, n):
		return false, nil
	}
	var l board.MoveList
	pos.LegalMoves(&l)
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		ok, err := s.forces(&child, n)
		if err != nil {
			return false, err
		}
		if ok {
			s.won.add(key, n)
			return true, nil
		}
	}
	s.lost.add(key, n)
	return false, nil
}

// forces reports whether every move of the side to move at pos (the
// defender, its n-th move from the end) mates, or leads to a position
// where the attacker wins within n-1 moves. A defender with no move at
// all (checkmated or stalemated by the attacker) spoils the selfmate.
func (s *selfer) forces(pos *board.Position, n int) (bool, error) {
	var l board.MoveList
	pos.LegalMoves(&l)
	if l.N == 0 {
		return false, nil
	}
	// Popeye tries the shortest lengths first, and its rules for long
	// selfmates hold only at the longer ones: the move stands if it
	// forces the selfmate at the longest length whose rules it keeps.
	for ; n > 1; n-- {
		ok, err := s.keepsRules(pos, &l, n)
		if err != nil {
			return false, err
		}
		if ok {
			break
		}
	}
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		if child.IsCheckmate() {
			continue // the defender mates: the aim
		}
		if n == 1 {
			return false, nil // the defender had a move that does not mate
		}
		ok, err := s.wins(&child, n-1)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// keepsRules reports whether the attacker's move that led to pos (the
// defender to move, with legal moves l) keeps, at length n, Popeye's rules
// for long selfmates: with Limits.MaxFlights, when n > 2, a defender's
// king with that many flights has defended; with Limits.Threat t, when
// n > t and the defender is not in check, the attacker must threaten a
// selfmate within t-1 moves (what Popeye 4.104 does with Threat t).
func (s *selfer) keepsRules(pos *board.Position, l *board.MoveList, n int) (bool, error) {
	if max := s.lim.MaxFlights; max > 0 && n > 2 {
		ksq, flights := pos.KingSquare(pos.Side()), 0
		for _, m := range l.Slice() {
			if m.From() == ksq {
				flights++
			}
		}
		if flights >= max {
			return false, nil
		}
	}
	if t := s.lim.Threat; t > 0 && n > t && !pos.InCheck() {
		null, ok := pos.Passed()
		if !ok {
			return true, nil
		}
		for k := 1; k < t; k++ {
			if ok, err := s.wins(&null, k); ok || err != nil {
				return ok, err
			}
		}
		return false, nil
	}
	return true, nil
}
