package solver

import (
	"errors"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/tablebase/dtmline"
)

// A proof tree shows that the attacker forces mate: at each attacker node
// one move, at each defender node every legal reply, every line ending in
// checkmate. It is read off what the searches already proved (the
// proof-number table first), and asked of the search where the tables have
// forgotten. Positions reached by several lines are proved once: the tree
// is a graph keyed by position and plies left.

// proofNode is what the tree knows of one position.
type proofNode struct {
	depth int16      // plies to mate within the tree, from this position
	move  board.Move // attacker positions: the move chosen
}

// errTreeTooBig stops a proof tree that outgrows its node budget.
var errTreeTooBig = errors.New("proof tree over its node budget")

// errNotProved says the search could not prove a node the tree needs
// within the limits.
var errNotProved = errors.New("a node of the proof could not be proved within the limits")

// proofTree builds proofs for one attacker. A position keeps the shallowest
// proof found for it, whatever plies were left when it was reached: a
// proof of depth d serves every node of that position with d plies or
// more. So the tree never goes through a position twice on one line (the
// depths of its moves fall strictly), and positions reached by several
// lines are proved once.
type proofTree struct {
	s        *searcher
	attacker board.Color
	nodes    map[uint64]proofNode
	maxNodes int
	// nodeEnd, when not 0, is the searcher's node count at which the
	// searches the tree asks for stop (the tree is then not proved).
	nodeEnd uint64
}

func newProofTree(s *searcher, attacker board.Color, maxNodes int) *proofTree {
	return &proofTree{s: s, attacker: attacker, nodes: map[uint64]proofNode{}, maxNodes: maxNodes}
}

// prove proves that the attacker mates within plies of pos and returns the
// position's node (its depth is at most plies). The attacker chooses, among
// the moves the tables know to mate in time, the one with the shallowest
// tree; the defender's depth is that of its longest reply.
func (t *proofTree) prove(pos *board.Position, plies int) (proofNode, error) {
	k := t.s.ttKey(pos)
	if n, ok := t.nodes[k]; ok && int(n.depth) <= plies {
		return n, nil
	}
	if len(t.nodes) >= t.maxNodes {
		return proofNode{}, errTreeTooBig
	}
	var n proofNode
	var err error
	if pos.Side() == t.attacker {
		n, err = t.attackerNode(pos, plies)
	} else {
		n, err = t.defenderNode(pos, plies)
	}
	if err != nil {
		return n, err
	}
	if old, ok := t.nodes[k]; ok && old.depth <= n.depth {
		return old, nil // a shallower proof was found further down meanwhile
	}
	t.nodes[k] = n
	return n, nil
}

func (t *proofTree) attackerNode(pos *board.Position, plies int) (proofNode, error) {
	if plies < 1 {
		return proofNode{}, errNotProved
	}
	var l board.MoveList
	pos.LegalMoves(&l)
	// A mate in one ends the line at once.
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		if child.IsCheckmate() {
			return proofNode{depth: 1, move: m}, nil
		}
	}
	if plies < 3 {
		return proofNode{}, errNotProved
	}
	if m, ok := t.dtmMove(pos, &l, plies); ok {
		child := *pos
		child.Play(m)
		d, err := t.prove(&child, plies-1)
		if err == nil {
			return proofNode{depth: d.depth + 1, move: m}, nil
		}
		if errors.Is(err, errTreeTooBig) {
			return proofNode{}, err
		}
	}
	best := proofNode{depth: -1}
	// Moves the proof-number search proved, then any move the search proves.
	for pass := 0; pass < 2 && best.depth < 0; pass++ {
		for _, m := range l.Slice() {
			child := *pos
			child.Play(m)
			if pass == 0 {
				if wins, known := t.s.pnKnown(t.attacker, &child, plies-1); !known || !wins {
					continue
				}
			} else {
				mated, ok := t.matedWithin(&child, plies-1)
				if !ok {
					return proofNode{}, errNotProved
				}
				if !mated {
					continue
				}
			}
			d, err := t.prove(&child, plies-1)
			if err != nil {
				return proofNode{}, err
			}
			if best.depth < 0 || d.depth+1 < best.depth {
				best = proofNode{depth: d.depth + 1, move: m}
			}
			if pass == 1 {
				break // the search's first proved move will do
			}
		}
	}
	if best.depth < 0 {
		return proofNode{}, errNotProved
	}
	return best, nil
}

// dtmMove is the move the DTM tables give for the attacker at pos: the
// first in UCI order of those that mate soonest, when that is within
// plies. The tree still proves it move by move.
func (t *proofTree) dtmMove(pos *board.Position, l *board.MoveList, plies int) (board.Move, bool) {
	if t.s.env.dtm == nil || !dtmCovers(pos) {
		return board.NoMove, false
	}
	best, found := board.NoMove, false
	bestPlies := plies
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		v, ok := dtmline.MoveValue(t.s.env.dtm, &child)
		if !ok || v <= 0 || v.Plies() > bestPlies {
			continue
		}
		if !found || v.Plies() < bestPlies || compareUCI(m, best) < 0 {
			best, bestPlies, found = m, v.Plies(), true
		}
	}
	return best, found
}

func (t *proofTree) defenderNode(pos *board.Position, plies int) (proofNode, error) {
	var l board.MoveList
	pos.LegalMoves(&l)
	if l.N == 0 {
		if pos.InCheck() {
			return proofNode{depth: 0}, nil
		}
		return proofNode{}, errNotProved // stalemate
	}
	deepest := int16(0)
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		d, err := t.prove(&child, plies-1)
		if err != nil {
			return proofNode{}, err
		}
		deepest = max(deepest, d.depth)
	}
	return proofNode{depth: deepest + 1}, nil
}

// finalDepths recomputes the depth of every position the tree reaches
// from pos over the moves it finally chose (proofs found later are
// shallower, so a stored depth can be more than the tree now needs).
func (t *proofTree) finalDepths(pos board.Position) map[uint64]int {
	depths := map[uint64]int{}
	var walk func(pos *board.Position) int
	walk = func(pos *board.Position) int {
		k := t.s.ttKey(pos)
		if d, ok := depths[k]; ok {
			return d
		}
		n, ok := t.nodes[k]
		if !ok || n.depth == 0 {
			depths[k] = 0 // checkmate
			return 0
		}
		d := 0
		if pos.Side() == t.attacker {
			child := *pos
			child.Play(n.move)
			if child.IsCheckmate() {
				d = 1
			} else {
				d = 1 + walk(&child)
			}
		} else {
			var l board.MoveList
			pos.LegalMoves(&l)
			for _, m := range l.Slice() {
				child := *pos
				child.Play(m)
				d = max(d, 1+walk(&child))
			}
		}
		depths[k] = d
		return d
	}
	walk(&pos)
	return depths
}

// line follows the tree from pos: the attacker's chosen moves, and the
// defender's reply that holds out longest in the tree. Its length is the
// tree's final depth at pos.
func (t *proofTree) line(pos board.Position) []board.Move {
	depths := t.finalDepths(pos)
	var line []board.Move
	for !pos.IsCheckmate() {
		n, ok := t.nodes[t.s.ttKey(&pos)]
		if !ok {
			break
		}
		m := n.move
		if pos.Side() != t.attacker {
			var l board.MoveList
			pos.LegalMoves(&l)
			deepest := -1
			for _, r := range l.Slice() {
				child := pos
				child.Play(r)
				if d := depths[t.s.ttKey(&child)]; d > deepest {
					deepest, m = d, r
				}
			}
		}
		line = append(line, m)
		pos.Play(m)
	}
	return line
}

// proofTreeNodes bounds the proof tree read for a line when a mate is
// proved but not yet its shortness.
const proofTreeNodes = 1 << 20

// matedWithin is the searcher's matedWithin within the tree's node budget.
func (t *proofTree) matedWithin(pos *board.Position, plies int) (mated, ok bool) {
	if t.nodeEnd == 0 || plies == 0 {
		return t.s.matedWithin(pos, plies)
	}
	if wins, known := t.s.pnKnown(pos.Side().Other(), pos, plies); known {
		return wins, true
	}
	if t.s.nodes >= t.nodeEnd {
		return false, false
	}
	q := t.s.newQuery(pos.Side().Other()).withNodes(t.s, t.nodeEnd-t.s.nodes)
	mated = t.s.rootTest(q, *pos, plies)
	return mated, !q.stopped
}

// provedLine reads a proved mate off the tables as a proof tree: mate is
// signed moves, +N the side to move mates within N, -N it is mated within
// N; rootMoves, when not nil, are the only root moves (UCI searchmoves).
// It returns the tree's mate (signed, no longer than mate) and its line:
// the attacker's shortest and the defender's longest within the tree, so
// that the line has exactly the plies of the mate it proves. budget, when
// not 0, bounds the nodes of the searches the tree asks for where the
// tables forgot.
//
// The root is handled here, not by the tree, so that a choice of root
// moves never stands for the position itself deeper in the tree; and the
// attacker's root move is the one whose tree is shallowest, so that a
// loose proof yields the tightest mate the tables can show.
func (s *searcher) provedLine(pos board.Position, mate problem.Mate, rootMoves []board.Move, budget uint64) (proved problem.Mate, line []board.Move, err error) {
	p, err := s.readTree(pos, mate, rootMoves, budget)
	return p.mate, p.line, err
}

// provedMate is a proof tree read off the tables by readTree: the mate it
// proves and the line of exactly its plies, whose first move is the root
// move the tree proves.
type provedMate struct {
	mate problem.Mate
	line []board.Move
	tree *proofTree
}

// readTree is provedLine, and keeps the tree, so that the keys and the
// main line of the mate can be read off it (proofLine).
func (s *searcher) readTree(pos board.Position, mate problem.Mate, rootMoves []board.Move, budget uint64) (provedMate, error) {
	var line []board.Move
	attacker, plies := mate.Winner(pos.Side()), mate.Plies()
	t := newProofTree(s, attacker, proofTreeNodes)
	if budget > 0 {
		t.nodeEnd = s.nodes + budget
	}
	var l board.MoveList
	pos.LegalMoves(&l)
	if rootMoves != nil {
		keepOnly(&l, rootMoves)
	}
	best := -1 // the root's depth within the tree
	// sub proves the position after root move m and returns its depth in
	// the tree and its line.
	sub := func(m board.Move) (int, []board.Move, error) {
		child := pos
		child.Play(m)
		if child.IsCheckmate() {
			if pos.Side() == attacker {
				return 0, nil, nil
			}
			return 0, nil, errNotProved // the defender mates
		}
		if _, err := t.prove(&child, plies-1); err != nil {
			return 0, nil, err
		}
		return t.finalDepths(child)[s.ttKey(&child)], t.line(child), nil
	}
	if pos.Side() == attacker {
		// Moves the proof-number search proved, every one, then the first
		// move a search proves.
		for pass := 0; pass < 2 && best < 0; pass++ {
			for _, m := range l.Slice() {
				child := pos
				child.Play(m)
				if !child.IsCheckmate() {
					if plies < 3 {
						continue
					}
					if pass == 0 {
						if wins, known := s.pnKnown(attacker, &child, plies-1); !known || !wins {
							continue
						}
					} else if mated, ok := t.matedWithin(&child, plies-1); !ok {
						return provedMate{}, errNotProved
					} else if !mated {
						continue
					}
				}
				d, tail, err := sub(m)
				if errors.Is(err, errTreeTooBig) {
					return provedMate{}, err
				}
				if err != nil {
					continue
				}
				if best < 0 || d+1 < best {
					best, line = d+1, append([]board.Move{m}, tail...)
				}
				if best == 1 || pass == 1 {
					break
				}
			}
		}
	} else {
		// Every defence must be mated in time; the line follows the one
		// that holds out longest.
		for _, m := range l.Slice() {
			d, tail, err := sub(m)
			if err != nil {
				return provedMate{}, err
			}
			if d+1 > best {
				best, line = d+1, append([]board.Move{m}, tail...)
			}
		}
	}
	if best < 0 || len(line) != best || best > plies || !checkmates(pos, line) {
		return provedMate{}, errNotProved
	}
	return provedMate{mate: problem.MateInPlies(best), line: line, tree: t}, nil
}

// firstMateLine is provedLine over every root move, without a budget.
func (s *searcher) firstMateLine(pos board.Position, mate problem.Mate) (proved problem.Mate, line []board.Move, err error) {
	return s.provedLine(pos, mate, nil, 0)
}

// checkmates reports whether line, played from pos, ends in checkmate.
func checkmates(pos board.Position, line []board.Move) bool {
	for _, m := range line {
		pos.Play(m)
	}
	return pos.IsCheckmate()
}

// proofLine is the main line of a mate the tree proves from root, after
// its first move key: the winner plays the tree's moves, and the loser, at
// each of its turns, a reply that the tree lets hold out the full length,
// checked (within the searcher's budget) to hold it out against any play.
// longest says every reply was so checked: the line is then the loser's
// longest resistance against the winner's quickest mate, since each
// position of it is exactly as far from mate as the plies left. Once a
// check is cut short, the rest of the line is the tree's, still of the
// full length and ending in mate. ok is false when the tree does not hold
// such a line.
func (s *searcher) proofLine(t *proofTree, root board.Position, key board.Move, mate problem.Mate) (line []board.Move, longest, ok bool) {
	pos := root
	pos.Play(key)
	left := mate.Plies() - 1
	depths := t.finalDepths(pos)
	if depths[s.ttKey(&pos)] != left {
		return nil, false, false
	}
	line, longest = []board.Move{key}, true
	for left > 0 {
		var next board.Move
		if pos.Side() == t.attacker {
			n, found := t.nodes[s.ttKey(&pos)]
			if !found {
				return nil, false, false
			}
			next = n.move
		} else {
			next, longest = s.fullReply(depths, &pos, left, longest)
			if next == board.NoMove {
				return nil, false, false
			}
		}
		line = append(line, next)
		pos.Play(next)
		left--
	}
	if len(line) != mate.Plies() || !checkmates(root, line) {
		return nil, false, false
	}
	return line, longest, true
}

// fullReply is the loser's reply in pos, with left plies to mate, that the
// tree (its final depths) lets hold out all of them; with check, one that the search shows
// holds them out against any play (the table's move first: the refutation
// of the shorter mates). checked is false once a check could not be
// finished, or found no such reply: the reply is then the tree's.
func (s *searcher) fullReply(depths map[uint64]int, pos *board.Position, left int, check bool) (reply board.Move, checked bool) {
	var l board.MoveList
	pos.LegalMoves(&l)
	var full []board.Move
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		if depths[s.ttKey(&child)] == left-1 {
			full = append(full, m)
		}
	}
	if len(full) == 0 {
		return board.NoMove, false
	}
	full = s.tableFirst(pos, full)
	if !check {
		return full[0], false
	}
	for _, m := range full {
		child := *pos
		child.Play(m)
		faster, ok := s.matesWithin(&child, left-3)
		if !ok {
			return full[0], false
		}
		if !faster {
			return m, true
		}
	}
	return full[0], false
}
