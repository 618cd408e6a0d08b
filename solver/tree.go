package solver

import (
	"context"
	"errors"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// SolutionTree is a proved mate's solution as problemists read it (Popeye
// and Chest print the same): the keys, and under each attacker move every
// legal defence with the attacker's answers, down to mate. The answers to
// a defence are the attacker moves that mate soonest after it; more than
// one is a dual. A quiet attacker move with moves to spare has a threat:
// the mate the attacker would give if the defender could pass (shown for
// information; proofs never use it). Below FullDepth attacker moves the
// tree gives the main line only.
type SolutionTree struct {
	Mate      problem.Mate
	Keys      []*AttackerNode // mate > 0: every key
	Defences  []*DefenceNode  // mate < 0: every move of the side to move
	FullDepth int             // attacker moves shown with every defence
	// Cut says some variation was given as its main line only, below
	// FullDepth.
	Cut bool
}

// AttackerNode is an attacker move of the tree.
type AttackerNode struct {
	Move   board.Move
	MateIn int     // attacker moves to mate, this one included
	Threat *Threat // after a quiet move with moves to spare, or nil
	// Zugzwang marks a quiet move with moves to spare that threatens
	// nothing: the defender is lost only because it must move.
	Zugzwang bool
	// Defences are every legal defence, within the full depth.
	Defences []*DefenceNode
	// MainLine, below the full depth, is the main line after this move:
	// the longest defence, the answer, and so on to mate.
	MainLine []board.Move
}

// DefenceNode is a defence of the tree.
type DefenceNode struct {
	Move board.Move
	// Answers are the attacker moves that mate soonest after it, the
	// first with its own variations; more than one is a dual.
	Answers []*AttackerNode
}

// Threat is what the attacker threatens after a quiet move.
type Threat struct {
	MateIn int          // attacker moves to mate
	Moves  []board.Move // every first move of the threat
	Line   []board.Move // the threat's main line, from its first move
}

// DefaultTreeDepth is the full depth of a tree when none is asked: all of
// it up to mate in 4, the first two moves beyond.
func DefaultTreeDepth(mate problem.Mate) int {
	if mate.Moves() <= 4 {
		return mate.Moves()
	}
	return 2
}

// errTreeLimit says the solution tree could not be finished within the
// limits.
var errTreeLimit = errors.New("the solution tree was cut short by a limit")

// Tree builds the solution tree of a mate proved by Solve on the same
// position with the same options; keys are the result's keys (all of
// them: solve with AllKeys). fullDepth bounds the attacker moves shown with
// every defence (0: DefaultTreeDepth). ctx, opt.Timeout and opt.Nodes
// bound it.
func (sv *Solver) Tree(ctx context.Context, pos board.Position, res Result, opt Options, fullDepth int) (*SolutionTree, error) {
	if res.Status != StatusMate {
		return nil, errors.New("no proved mate to show")
	}
	if fullDepth <= 0 {
		fullDepth = DefaultTreeDepth(res.Mate)
	}
	opt = withoutTables(opt)
	s := sv.threads(1, &env{tt: sv.tt, pn: sv.pn, prober: opt.Prober, rule50: opt.Rule50, lim: limitsOf(ctx, opt), salt: sv.salt, cuts: shortcutsFor(opt)})[0]
	b := &treeBuilder{s: s, full: fullDepth}
	t := &SolutionTree{Mate: res.Mate, FullDepth: fullDepth}
	var err error
	if res.Mate > 0 {
		for _, k := range res.Keys {
			n, e := b.attacker(pos, k, res.Mate.Moves(), 1)
			if e != nil {
				err = e
				break
			}
			t.Keys = append(t.Keys, n)
		}
	} else {
		var l board.MoveList
		pos.LegalMoves(&l)
		for _, d := range l.Slice() {
			n, e := b.defence(pos, d, res.Mate.Moves(), 0)
			if e != nil {
				err = e
				break
			}
			t.Defences = append(t.Defences, n)
		}
	}
	t.Cut = b.cut
	return t, err
}

// treeBuilder asks the exact questions a tree needs.
type treeBuilder struct {
	s    *searcher
	full int
	cut  bool
}

// attacker builds the node of attacker move m in pos, which mates in
// mateIn moves; level counts the attacker's moves from the root.
func (b *treeBuilder) attacker(pos board.Position, m board.Move, mateIn, level int) (*AttackerNode, error) {
	n := &AttackerNode{Move: m, MateIn: mateIn}
	child := pos
	child.Play(m)
	if mateIn <= 1 {
		return n, nil
	}
	if !child.InCheck() {
		th, err := b.threat(child, mateIn-1)
		if err != nil {
			return nil, err
		}
		n.Threat, n.Zugzwang = th, th == nil
	}
	if level >= b.full {
		b.cut = true
		line, ok := b.s.line(pos, m, problem.Mate(mateIn))
		if !ok {
			return nil, errTreeLimit
		}
		n.MainLine = line[1:]
		return n, nil
	}
	var l board.MoveList
	child.LegalMoves(&l)
	for _, d := range l.Slice() {
		dn, err := b.defence(child, d, mateIn-1, level)
		if err != nil {
			return nil, err
		}
		n.Defences = append(n.Defences, dn)
	}
	return n, nil
}

// defence builds the node of defence d in pos, after which the attacker
// mates within left moves: its answers are the moves that mate soonest.
func (b *treeBuilder) defence(pos board.Position, d board.Move, left, level int) (*DefenceNode, error) {
	n := &DefenceNode{Move: d}
	after := pos
	after.Play(d)
	soonest := 0
	for j := 1; j <= left && soonest == 0; j++ {
		mates, ok := b.s.matesWithin(&after, 2*j-1)
		if !ok {
			return nil, errTreeLimit
		}
		if mates {
			soonest = j
		}
	}
	if soonest == 0 {
		return n, nil // cannot happen in a proved tree: the defence would hold
	}
	answers, err := b.matingMoves(after, 2*soonest-2)
	if err != nil {
		return nil, err
	}
	for _, a := range answers {
		if len(n.Answers) > 0 {
			// A dual: named, not followed.
			n.Answers = append(n.Answers, &AttackerNode{Move: a, MateIn: soonest})
			continue
		}
		an, err := b.attacker(after, a, soonest, level+1)
		if err != nil {
			return nil, err
		}
		n.Answers = append(n.Answers, an)
	}
	return n, nil
}

// threat returns the mate the attacker would give after a quiet move if
// the defender, to move in pos, could pass: within most moves, or nil.
func (b *treeBuilder) threat(pos board.Position, most int) (*Threat, error) {
	null, ok := pos.Passed()
	if !ok {
		return nil, nil
	}
	for j := 1; j <= most; j++ {
		mates, ok := b.s.matesWithin(&null, 2*j-1)
		if !ok {
			return nil, errTreeLimit
		}
		if !mates {
			continue
		}
		moves, err := b.matingMoves(null, 2*j-2)
		if err != nil {
			return nil, err
		}
		th := &Threat{MateIn: j, Moves: moves}
		if len(th.Moves) > 0 {
			line, ok := b.s.line(null, th.Moves[0], problem.Mate(j))
			if !ok {
				return nil, errTreeLimit
			}
			th.Line = line
		}
		return th, nil
	}
	return nil, nil
}

// matingMoves returns the moves of the side to move in pos after which
// the opponent is mated within plies.
func (b *treeBuilder) matingMoves(pos board.Position, plies int) ([]board.Move, error) {
	var l board.MoveList
	pos.LegalMoves(&l)
	var moves []board.Move
	for _, m := range l.Slice() {
		child := pos
		child.Play(m)
		mated, ok := b.s.matedWithin(&child, plies)
		if !ok {
			return nil, errTreeLimit
		}
		if mated {
			moves = append(moves, m)
		}
	}
	return moves, nil
}
