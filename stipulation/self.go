package stipulation

import (
	"context"
	"errors"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/stipulation/internal/prune"
)

// SelfResult is what a solve of a forced stipulation (s#N, s=N, r#N,
// semi-r#N, =N) proves.
type SelfResult struct {
	// Keys are every first move that forces the aim within the
	// stipulated moves, in the move generator's order.
	Keys []board.Move
	// Shortest is the fewest moves the selfmate is forced in (0: not
	// within the stipulated moves). Less than the stipulation means the
	// problem is solved shorter than it says.
	Shortest int
	Nodes    uint64 // positions visited
}

// Selfmates solves a forced stipulation (st.IsForced): in s#N (s=N) the
// side to move, the attacker, forces the other side, the defender, to
// checkmate (stalemate) it by the defender's st.Moves-th move, the
// defender reaching the aim only when it cannot avoid it; r#N and
// semi-r#N are s#N where a defender that can mate in one must (in r#N the
// attacker too, which fails it); in =N the attacker forces the defender
// to be stalemated by the attacker's st.Moves-th move. Every key is
// found; an error (ErrLimit) means the answer is not complete.
func Selfmates(ctx context.Context, pos board.Position, st problem.Stipulation, lim Limits) (SelfResult, error) {
	return selfmatesWith(ctx, pos, st, lim, prune.Enabled())
}

// selfmatesWith is Selfmates with the shortcuts in cuts only (of them,
// forced play makes the fail memo).
func selfmatesWith(ctx context.Context, pos board.Position, st problem.Stipulation, lim Limits, cuts prune.Set) (SelfResult, error) {
	if !st.IsForced() {
		return SelfResult{}, errors.New("not a forced stipulation (s#, s=, r#, semi-r#, =)")
	}
	s := newSelfer(ctx, st, lim, cuts)
	var res SelfResult
	first := 1
	if st.Exact {
		first = st.Moves // only the stated length counts
	}
	for n := first; n <= st.Moves && res.Shortest == 0; n++ {
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
		s.attackerMoves(&pos, &l)
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

// selfer is one search of a forced stipulation.
type selfer struct {
	ctx       context.Context
	lim       Limits
	rules     forcedRules
	nodes     uint64
	won, lost *failTable // positions proved to force the aim within n moves, or not to
	memo      bool       // the fail memo shortcut: won and lost are read and written
}

// forcedRules are what the forced stipulations differ in.
type forcedRules struct {
	aim problem.Aim
	// direct: the attacker's own move reaches the aim (=N); else the
	// defender's does (s#N, s=N, r#N, semi-r#N).
	direct bool
	// reflexDefender: a defender that can mate in one must (r#, semi-r#);
	// reflexAttacker: so must the attacker, and its mate fails it (r#).
	reflexDefender, reflexAttacker bool
	// exact: the aim reached before the last move fails (exact-).
	exact bool
}

// newSelfer starts a search of a forced stipulation.
func newSelfer(ctx context.Context, st problem.Stipulation, lim Limits, cuts prune.Set) *selfer {
	r := forcedRules{aim: st.Aim, direct: st.Kind == problem.Direct,
		reflexDefender: st.Kind == problem.Reflex || st.Kind == problem.SemiReflex, reflexAttacker: st.Kind == problem.Reflex, exact: st.Exact}
	return &selfer{ctx: ctx, lim: lim, rules: r, won: newFailTable(1 << 19), lost: newFailTable(1 << 19), memo: cuts.Has(prune.FailMemo)}
}

// keepMates cuts the legal moves l at pos to those that checkmate, when
// there are any (the reflex rule: a side that can mate in one must).
func keepMates(pos *board.Position, l *board.MoveList) {
	n := 0
	for _, m := range l.Slice() {
		after := *pos
		after.Play(m)
		if after.IsCheckmate() {
			l.Moves[n] = m
			n++
		}
	}
	if n > 0 {
		l.N = n
	}
}

// attackerMoves fills l with the attacker's moves at pos: its legal
// moves, or in r#N, when it can mate in one, only those (each of which
// fails the stipulation).
func (s *selfer) attackerMoves(pos *board.Position, l *board.MoveList) {
	pos.LegalMoves(l)
	if s.rules.reflexAttacker {
		keepMates(pos, l)
	}
}

// defenderMoves fills l with the defender's moves at pos: its legal
// moves, or in r#N and semi-r#N, when it can mate in one, only those.
func (s *selfer) defenderMoves(pos *board.Position, l *board.MoveList) {
	pos.LegalMoves(l)
	if s.rules.reflexDefender {
		keepMates(pos, l)
	}
}

// attackerFails reports whether the attacker's move m cannot be part of
// a solution however the play goes on: in r#N a mate by the attacker.
func (s *selfer) attackerFails(pos *board.Position, m board.Move) bool {
	if !s.rules.reflexAttacker {
		return false
	}
	after := *pos
	after.Play(m)
	return after.IsCheckmate()
}

// wins reports whether the side to move at pos, the attacker, forces the
// aim within n moves.
func (s *selfer) wins(pos *board.Position, n int) (bool, error) {
	s.nodes++
	if s.nodes&1023 == 0 {
		if s.ctx.Err() != nil || s.lim.Nodes > 0 && s.nodes >= s.lim.Nodes {
			return false, ErrLimit
		}
	}
	key := pos.Key()
	switch {
	case !s.memo:
	case s.won.has(key, n):
		return true, nil
	case s.lost.has(key, n):
		return false, nil
	}
	var l board.MoveList
	s.attackerMoves(pos, &l)
	for _, m := range l.Slice() {
		if s.attackerFails(pos, m) {
			continue
		}
		child := *pos
		child.Play(m)
		ok, err := s.forces(&child, n)
		if err != nil {
			return false, err
		}
		if ok {
			if s.memo {
				s.won.add(key, n)
			}
			return true, nil
		}
	}
	if s.memo {
		s.lost.add(key, n)
	}
	return false, nil
}

// forces reports whether the attacker's move that led to pos, its n-th
// move from the end, forces the aim. In =N: it reached the aim, or
// (n > 1) every defence leads to a position where the attacker wins
// within n-1 moves. Otherwise: every defence (the defender's n-th move
// from the end) reaches the aim or leads to such a position; a defender
// with no move at all (checkmated or stalemated by the attacker) spoils
// it.
func (s *selfer) forces(pos *board.Position, n int) (bool, error) {
	var l board.MoveList
	s.defenderMoves(pos, &l)
	if s.rules.direct {
		if l.N == 0 && pos.InCheck() == (s.rules.aim == problem.Checkmate) { // the attacker's move reached the aim
			return n == 1 || !s.rules.exact, nil
		}
		if n == 1 || l.N == 0 {
			return false, nil
		}
		for _, m := range l.Slice() {
			child := *pos
			child.Play(m)
			ok, err := s.wins(&child, n-1)
			if err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	}
	if l.N == 0 {
		return false, nil
	}
	early := s.rules.exact && n > 1 // the aim reached now fails
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
		if reached(&child, s.rules.aim) {
			if early {
				return false, nil // too soon: exact- refutes it
			}
			continue // the defender reaches the aim
		}
		if n == 1 {
			return false, nil // the defender had a move that does not reach it
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
