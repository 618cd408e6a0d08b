package stipulation

import (
	"context"
	"errors"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/solver"
	"mateline.dev/mateline/stipulation/internal/prune"
)

// TreeOptions shape a selfmate's solution tree.
type TreeOptions struct {
	// FullDepth is the attacker moves shown with every defence; below,
	// the main line only (0: solver.DefaultTreeDepth).
	FullDepth int
	NoThreat  bool // Popeye's NoThreat: no threats
}

// SelfTree builds the solution tree of a selfmate that Selfmates solved,
// in the shape of a direct mate's tree (solver.SolutionTree): every key;
// under each attacker move every defence, a defence that mates (the aim)
// having no answers; after each other defence the attacker moves that
// force the selfmate soonest, more than one being a dual; and the threat,
// the selfmate the attacker would force if the defender could pass.
// MateIn counts the attacker's moves to the selfmate.
func SelfTree(ctx context.Context, pos board.Position, st problem.Stipulation, res SelfResult, lim Limits, opt TreeOptions) (*solver.SolutionTree, error) {
	return selfTreeWith(ctx, pos, st, res, lim, opt, prune.Enabled())
}

// selfTreeWith is SelfTree with the shortcuts in cuts only.
func selfTreeWith(ctx context.Context, pos board.Position, st problem.Stipulation, res SelfResult, lim Limits, opt TreeOptions, cuts prune.Set) (*solver.SolutionTree, error) {
	if !st.IsForced() || res.Shortest == 0 {
		return nil, errors.New("no proved solution to show")
	}
	full := opt.FullDepth
	if full <= 0 {
		full = solver.DefaultTreeDepth(problem.Mate(st.Moves))
	}
	b := &selfTreeBuilder{s: newSelfer(ctx, st, lim, cuts), full: full, noThreat: opt.NoThreat}
	t := &solver.SolutionTree{Mate: problem.Mate(res.Shortest), FullDepth: full}
	for _, k := range res.Keys {
		child := pos
		child.Play(k)
		n, err := b.soonest(&child, st.Moves, b.s.forces)
		if err == nil {
			var an *solver.AttackerNode
			an, err = b.attacker(pos, k, n, 1)
			t.Keys = append(t.Keys, an)
		}
		if err != nil {
			return t, err
		}
	}
	t.Cut = b.cut
	return t, nil
}

// selfTreeBuilder asks the questions a selfmate's tree needs.
type selfTreeBuilder struct {
	s        *selfer
	full     int
	noThreat bool
	cut      bool
}

// soonest returns the fewest moves, at most most, for which ask says yes
// at pos (0: none).
func (b *selfTreeBuilder) soonest(pos *board.Position, most int, ask func(*board.Position, int) (bool, error)) (int, error) {
	first := 1
	if b.s.rules.exact {
		first = most // exact-: only the moves left count
	}
	for n := max(first, 1); n <= most; n++ {
		ok, err := ask(pos, n)
		if err != nil || ok {
			return n, err
		}
	}
	return 0, nil
}

// attacker builds the node of attacker move m in pos, which forces the
// selfmate in n moves; level counts the attacker's moves from the root.
func (b *selfTreeBuilder) attacker(pos board.Position, m board.Move, n, level int) (*solver.AttackerNode, error) {
	node := &solver.AttackerNode{Move: m, MateIn: n}
	child := pos
	child.Play(m)
	if n >= 2 && !child.InCheck() && !b.noThreat {
		th, err := b.threat(child, n-1)
		if err != nil {
			return nil, err
		}
		node.Threat, node.Zugzwang = th, th == nil
	}
	if level > b.full || level == b.full && n > 1 {
		b.cut = true
		line, err := b.mainLine(child, n)
		node.MainLine = line
		return node, err
	}
	var l board.MoveList
	b.s.defenderMoves(&child, &l)
	for _, d := range l.Slice() {
		dn, err := b.defence(child, d, n, level)
		if err != nil {
			return nil, err
		}
		node.Defences = append(node.Defences, dn)
	}
	return node, nil
}

// defence builds the node of defence d in pos, the defender's n-th move
// from the end: no answers when d mates, else the attacker moves that
// force the selfmate soonest.
func (b *selfTreeBuilder) defence(pos board.Position, d board.Move, n, level int) (*solver.DefenceNode, error) {
	node := &solver.DefenceNode{Move: d}
	after := pos
	after.Play(d)
	if reached(&after, b.s.rules.aim) {
		return node, nil
	}
	k, err := b.soonest(&after, n-1, b.s.wins)
	if err != nil || k == 0 {
		return node, err // k 0 cannot happen in a proved tree
	}
	answers, err := b.forcingMoves(after, k)
	if err != nil {
		return nil, err
	}
	for _, a := range answers {
		if len(node.Answers) > 0 {
			node.Answers = append(node.Answers, &solver.AttackerNode{Move: a, MateIn: k}) // a dual: named, not followed
			continue
		}
		an, err := b.attacker(after, a, k, level+1)
		if err != nil {
			return nil, err
		}
		node.Answers = append(node.Answers, an)
	}
	return node, nil
}

// forcingMoves returns the attacker's moves in pos that force the
// selfmate within n moves.
func (b *selfTreeBuilder) forcingMoves(pos board.Position, n int) ([]board.Move, error) {
	var l board.MoveList
	b.s.attackerMoves(&pos, &l)
	var out []board.Move
	for _, m := range l.Slice() {
		if b.s.attackerFails(&pos, m) {
			continue
		}
		child := pos
		child.Play(m)
		ok, err := b.s.forces(&child, n)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// threat is the selfmate the attacker would force within most moves if
// the defender, to move in pos, could pass; nil when there is none.
func (b *selfTreeBuilder) threat(pos board.Position, most int) (*solver.Threat, error) {
	null, ok := pos.Passed()
	if !ok {
		return nil, nil
	}
	k, err := b.soonest(&null, most, b.s.wins)
	if err != nil || k == 0 {
		return nil, err
	}
	moves, err := b.forcingMoves(null, k)
	if err != nil || len(moves) == 0 {
		return nil, err
	}
	after := null
	after.Play(moves[0])
	line, err := b.mainLine(after, k)
	return &solver.Threat{MateIn: k, Moves: moves, Line: append([]board.Move{moves[0]}, line...)}, err
}

// mainLine is the play from pos, the defender to move after an attacker
// move that forces the selfmate in n moves: the defence that holds out
// longest (a mating defence only when every defence mates), the first
// answer, and so on to the defender's mate.
func (b *selfTreeBuilder) mainLine(pos board.Position, n int) ([]board.Move, error) {
	var line []board.Move
	for {
		var l board.MoveList
		b.s.defenderMoves(&pos, &l)
		best, bestK := board.NoMove, -1
		for _, d := range l.Slice() {
			after := pos
			after.Play(d)
			k := 0
			if !reached(&after, b.s.rules.aim) {
				var err error
				if k, err = b.soonest(&after, n-1, b.s.wins); err != nil {
					return line, err
				}
			}
			if k > bestK {
				best, bestK = d, k
			}
		}
		if best == board.NoMove {
			return line, nil
		}
		line = append(line, best)
		pos.Play(best)
		if bestK == 0 {
			return line, nil // the defender mated
		}
		answers, err := b.forcingMoves(pos, bestK)
		if err != nil || len(answers) == 0 {
			return line, err
		}
		line = append(line, answers[0])
		pos.Play(answers[0])
		n = bestK
	}
}

// SelfSetPlay is the set play of a forced stipulation: the play if the
// defender were to move first in pos, within the stipulated moves of the
// defender, as Popeye bounds it. Each defence that reaches the aim, or
// after which the attacker forces it within st.Moves-1 moves, is a
// defence of the tree,
// with the attacker's soonest continuations; the other defences are left
// out, as problemists show set play. Nil when the defender could not move
// first (the attacker gives check).
func SelfSetPlay(ctx context.Context, pos board.Position, st problem.Stipulation, lim Limits, opt TreeOptions) (*solver.SolutionTree, error) {
	null, ok := pos.Passed()
	if !ok || !st.IsForced() {
		return nil, nil
	}
	full := opt.FullDepth
	if full <= 0 {
		full = solver.DefaultTreeDepth(problem.Mate(st.Moves))
	}
	b := &selfTreeBuilder{s: newSelfer(ctx, st, lim, prune.Enabled()), full: full, noThreat: opt.NoThreat}
	t := &solver.SolutionTree{Mate: problem.Mate(st.Moves), FullDepth: full}
	var l board.MoveList
	b.s.defenderMoves(&null, &l)
	for _, d := range l.Slice() {
		dn, err := b.defence(null, d, st.Moves, 0)
		if err != nil {
			return t, err
		}
		after := null
		after.Play(d)
		if len(dn.Answers) > 0 || reached(&after, st.Aim) {
			t.Defences = append(t.Defences, dn)
		}
	}
	t.Cut = b.cut
	return t, nil
}

// Try is a first move that fails to few defences: the defences
// (refutations) after which the selfmate cannot be forced in time.
type Try struct {
	Move        board.Move
	Refutations []board.Move
}

// SelfTries lists a selfmate's tries: the first moves that are not keys
// and fail to at least one and at most maxRefutations defences, in the
// move generator's order. A move that leaves the defender no move at all
// is no try.
func SelfTries(ctx context.Context, pos board.Position, st problem.Stipulation, lim Limits, maxRefutations int) ([]Try, error) {
	if !st.IsForced() {
		return nil, errors.New("not a forced stipulation")
	}
	s := newSelfer(ctx, st, lim, prune.Enabled())
	var tries []Try
	var l board.MoveList
	s.attackerMoves(&pos, &l)
	for _, m := range l.Slice() {
		if s.attackerFails(&pos, m) {
			continue
		}
		child := pos
		child.Play(m)
		var dl board.MoveList
		s.defenderMoves(&child, &dl)
		var refs []board.Move
		for _, d := range dl.Slice() {
			after := child
			after.Play(d)
			if reached(&after, st.Aim) && !(st.Exact && st.Moves > 1) {
				continue
			}
			ok := false
			if st.Moves > 1 {
				var err error
				if ok, err = s.wins(&after, st.Moves-1); err != nil {
					return tries, err
				}
			}
			if !ok {
				if refs = append(refs, d); len(refs) > maxRefutations {
					break
				}
			}
		}
		if len(refs) > 0 && len(refs) <= maxRefutations {
			tries = append(tries, Try{Move: m, Refutations: refs})
		}
	}
	return tries, nil
}
