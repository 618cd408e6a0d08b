package solver

import (
	"slices"

	"mateline.dev/mateline/board"
)

// wdlMinDepth and dtzMinDepth are the least depths at which the tables are
// probed: below them the search is cheaper than the probe.
const (
	wdlMinDepth = 3
	dtzMinDepth = 3
)

// etcDepth is the least depth at which a defender looks its replies up in
// the table before searching any (an enhanced transposition cutoff):
// shallower, the lookups cost more than the searches they save.
const etcDepth = 4

// node is one node of the alpha-beta search as its steps see it: each step
// narrows it, or answers it.
type node struct {
	pos         *board.Position
	ply, depth  int
	alpha, beta int
	us          board.Color
	inCheck     bool
	key         uint64     // the table key, salted at a restricted root
	useTT       bool       // the node is worth a table access
	restricted  bool       // the root, with only some of its moves searched
	ttMove      board.Move // the table's move, NoMove if none
	childDepth  int        // the depth its children are searched to
}

// search is negamax alpha-beta on exact mate scores. It returns a fail-soft
// score for s.pos[ply] searched depth plies, and the ply of the highest
// ancestor whose repetition cut the search (noLoop if none); a result that
// depends on the path above the node is not stored in the table.
//
// A node goes through five steps, each of which may answer it: the window
// and the rules (frame), the table and the tablebases (probe), the moves
// worth searching (generate), the children the table already knows (etc),
// and the search of the moves (moves).
func (s *searcher) search(q *query, ply, depth, alpha, beta int) (int, int) {
	if s.tick(q) {
		return 0, noLoop
	}
	if ply > s.selDepth {
		s.selDepth = ply
	}
	// The node's record lives with the searcher, one per ply: each step
	// sets the fields it owns before the next step reads them.
	n := &s.frames[ply]
	n.pos, n.ply, n.depth, n.alpha, n.beta = &s.pos[ply], ply, depth, alpha, beta
	if v, loop, done := s.frame(q, n); done {
		return v, loop
	}
	if v, done := s.probe(q, n); done {
		return v, noLoop
	}
	l := &s.lists[ply]
	if v, done := s.generate(q, n, l); done {
		return v, noLoop
	}
	if v, done := s.etc(q, n, l); done {
		return v, noLoop
	}
	return s.moves(q, n, l)
}

// frame narrows the window to the mates that can still happen and answers
// the nodes the rules decide without a move: a repetition, material that
// cannot mate, the 50-move rule, the horizon. When it does not answer,
// alpha < beta, the depth is no more than the window needs, a side that
// can mate is on the board, and depth >= 1.
func (s *searcher) frame(q *query, n *node) (v, loop int, done bool) {
	pos, ply, depth, alpha, beta := n.pos, n.ply, n.depth, n.alpha, n.beta
	// Mate-distance bounds: nothing beats mating next ply, nothing is
	// worse than being mated now.
	if s.env.uses(cutMateDistance) {
		if a := -(mateScore - ply); alpha < a {
			alpha = a
		}
		b := mateScore - ply - 1
		if mutant == cutMateDistance {
			b-- // the mutant forgets the mate of its own next ply
		}
		if beta > b {
			beta = b
		}
		if alpha >= beta {
			return alpha, noLoop, true
		}
	}

	// Repetition of a position higher in the path: a mate that goes
	// through it has a shorter one that does not, so it counts as no mate.
	if s.env.uses(cutRepetition) {
		key := pos.Key()
		for i := ply - 4; i >= q.floor && i >= ply-pos.HalfmoveClock(); i -= 2 {
			if s.pos[i].Key() == key {
				return 0, i, true
			}
		}
	}

	us := pos.Side()
	canWin, canLose := s.canMate(pos, us), s.canMate(pos, us.Other())
	switch {
	case !canWin && !canLose:
		return 0, noLoop, true
	case !canWin && alpha >= 0:
		return alpha, noLoop, true // we cannot get above 0
	case !canLose && beta <= 0:
		return beta, noLoop, true // we cannot fall below 0
	}

	// The window limits how far we need to look: to beat alpha >= 0 we
	// must mate before ply mateScore-alpha; to stay below beta <= 0 the
	// opponent must mate before ply mateScore+beta.
	if s.env.uses(cutWindowDepth) {
		short := 0
		if mutant == cutWindowDepth {
			short = 1 // the mutant searches one ply less than the window needs
		}
		if alpha >= 0 && depth > mateScore-alpha-1-ply-short {
			depth = mateScore - alpha - 1 - ply - short
		}
		if beta <= 0 && depth > mateScore+beta-1-ply-short {
			depth = mateScore + beta - 1 - ply - short
		}
	}

	inCheck := pos.InCheck()
	if s.env.rule50 && pos.HalfmoveClock() >= 100 || depth <= 0 {
		if inCheck && !pos.HasLegalMove() {
			return -(mateScore - ply), noLoop, true
		}
		return 0, noLoop, true
	}
	n.depth, n.alpha, n.beta, n.us, n.inCheck = depth, alpha, beta, us, inCheck
	return 0, 0, false
}

// probe answers the node from the table, when an entry deep enough or a
// mate bound settles it, and from the tablebases, whose answers hold at
// every depth (and are stored as such). Either way it sets the node's
// table key and move.
func (s *searcher) probe(q *query, n *node) (int, bool) {
	pos, ply, depth := n.pos, n.ply, n.depth
	// Nodes at the last ply of the horizon are cheaper to search again
	// than a table access (a likely cache miss) costs.
	n.useTT = depth > 1
	n.key = s.ttKey(pos)
	n.restricted = ply == 0 && q.rootMoves != nil
	if n.restricted {
		// The root's value with some of its moves left out is not the
		// position's: keep it apart in the table.
		n.key ^= q.rootSalt
	}
	n.ttMove = board.NoMove
	if n.useTT {
		if e, found := s.probeTT(n.key); found {
			n.ttMove = e.move
			if depth > 2 && n.ttMove != board.NoMove {
				s.env.tt.prefetch(s.childKey(pos, n.ttMove)) // the child searched first
			}
			if v, cut := s.tableCut(n, e); cut {
				return v, true
			}
		}
	}

	if !n.restricted && s.env.dtm != nil && dtmCovers(pos) {
		if v, bound, ok := s.probeDTM(pos, ply, n.alpha, n.beta); ok {
			s.env.tt.store(n.key, n.ttMove, scoreToTT(v, ply), 255, bound)
			return v, true
		}
	}
	if depth >= wdlMinDepth && !n.restricted && s.inTables(pos) {
		if v, bound, cut := s.probeTables(pos, ply, depth, n.alpha, n.beta); cut {
			// What the tables prove holds at every depth: remember it.
			s.env.tt.store(n.key, n.ttMove, scoreToTT(v, ply), 255, bound)
			return v, true
		}
	}
	return 0, false
}

// tableCut answers n from its table entry e when the entry is deep
// enough, or a mate bound settles it.
func (s *searcher) tableCut(n *node, e ttEntry) (int, bool) {
	if !s.env.uses(cutTable) {
		return 0, false
	}
	sc := scoreFromTT(int(e.score), n.ply)
	deep := int(e.depth) >= n.depth
	if mutant == cutTable {
		deep = int(e.depth) >= n.depth-1 // the mutant takes an entry one ply short
	}
	switch bound := e.bound; {
	case bound&BoundLower != 0 && sc >= n.beta && (deep || isWin(sc)):
		return sc, true
	case bound&BoundUpper != 0 && sc <= n.alpha && (deep || isLoss(sc)):
		return sc, true
	case bound == BoundExact && (deep || sc != 0):
		return sc, true
	}
	return 0, false
}

// generate puts in l the moves worth searching: every legal move, or at
// the attacker's last move only the checks (nothing else can mate), and
// at a restricted root only its moves. It answers a node with no legal
// move (mate or stalemate), and sets the children's depth: a defender's
// only reply costs no depth.
func (s *searcher) generate(q *query, n *node, l *board.MoveList) (int, bool) {
	pos := n.pos
	checksLast := n.depth == 1 && s.env.uses(cutChecksLast)
	if checksLast && !n.inCheck {
		// Our last move: only a check can mate, and anything else is 0.
		pos.CheckingMoves(l)
		if mutant == cutChecksLast {
			dropPromotions(l) // the mutant forgets the promotions
		}
	} else {
		pos.LegalMoves(l)
		if l.N == 0 {
			if n.inCheck {
				return -(mateScore - n.ply), true
			}
			return 0, true
		}
		if checksLast {
			k := 0
			ci := pos.NewCheckInfo()
			for _, m := range l.Moves[:l.N] {
				if pos.GivesCheckWith(&ci, m) {
					l.Moves[k] = m
					k++
				}
			}
			l.N = k
		}
	}

	if n.restricted {
		keepOnly(l, q.rootMoves)
	}

	n.childDepth = n.depth - 1
	if l.N == 1 && n.us != q.attacker && n.depth > 1 && n.ply+n.depth < MaxPly-1 && s.env.uses(cutForcedReply) {
		n.childDepth = n.depth // a forced reply costs no depth
	}
	if mutant == cutForcedReply && l.N == 2 && n.us != q.attacker && n.depth > 2 {
		n.childDepth = n.depth - 2 // the mutant makes two replies cost two plies
	}
	return 0, false
}

// etc is the enhanced transposition cut-off of a defender node that the
// table had no move for: a defence whose position the table already
// knows to hold out answers the node without a search (and is stored as
// its move).
func (s *searcher) etc(q *query, n *node, l *board.MoveList) (int, bool) {
	if n.ttMove != board.NoMove || n.us == q.attacker || n.depth < etcDepth || !s.env.uses(cutTransposition) {
		return 0, false
	}
	deep := n.childDepth
	if mutant == cutTransposition {
		deep-- // the mutant takes a child's entry one ply short
	}
	pos, ply := n.pos, n.ply
	for _, m := range l.Moves[:l.N] {
		s.env.tt.prefetch(s.childKey(pos, m))
	}
	child := &s.pos[ply+1]
	for _, m := range l.Moves[:l.N] {
		*child = *pos
		child.Play(m)
		ce, ok := s.probeTT(s.ttKey(child))
		if !ok {
			continue
		}
		sc := scoreFromTT(int(ce.score), ply+1)
		bound := ce.bound
		if bound&BoundUpper != 0 && -sc >= n.beta && (int(ce.depth) >= deep || isLoss(sc)) {
			if n.useTT {
				s.env.tt.store(n.key, m, scoreToTT(-sc, ply), n.depth, BoundLower)
			}
			return -sc, true
		}
	}
	return 0, false
}

// moves searches the moves of l, the table's move first and the others in
// the order of orderMoves, until one reaches beta, and stores the result
// unless it depends on a repetition above the node. With several threads,
// a move whose position another thread is searching is deferred until the
// others are done (simplified ABDADA): the threads spread over the moves
// instead of all searching the same one, and the deferred move is then
// mostly in the table.
func (s *searcher) moves(q *query, n *node, l *board.MoveList) (int, int) {
	pos, ply, depth := n.pos, n.ply, n.depth
	alpha, beta := n.alpha, n.beta
	childDepth := n.childDepth
	if childDepth > 1 && n.us == q.attacker {
		// An attacker node of a "no mate" proof searches every move: its
		// children's table entries are fetched from memory together, while
		// the first ones are searched, not one after the other.
		for _, m := range l.Moves[:l.N] {
			s.env.tt.prefetch(s.childKey(pos, m))
		}
	}
	origAlpha := alpha
	best, bestMove, loop := -infinity, board.NoMove, noLoop
	if depth == 1 {
		best = 0 // a quiet move leaves nobody mated within the horizon
	}
	// The table's move goes first, before the others are scored: when it
	// cuts off, as it mostly does in a proof, scoring them is wasted.
	first := 0
	if n.ttMove != board.NoMove {
		for i, m := range l.Moves[:l.N] {
			if m == n.ttMove {
				l.Moves[0], l.Moves[i] = l.Moves[i], l.Moves[0]
				first = 1
				break
			}
		}
	}
	busy := s.env.busy
	share := busy != nil && depth >= busyMinDepth
	deferred := 0
	for i := 0; i < l.N+deferred; i++ {
		var m board.Move
		switch {
		case i >= l.N:
			m = s.deferred[ply][i-l.N]
		case i < first:
			m = l.Moves[i]
		default:
			if i == first {
				m = s.orderMoves(q, ply, pos, i)
			} else {
				m = s.pickMove(ply, i)
			}
		}
		child := &s.pos[ply+1]
		*child = *pos
		child.Play(m)
		var v, lp int
		if share {
			bk := s.ttKey(child) ^ pliesSalt(childDepth)
			if i > 0 && i < l.N && busy.has(bk) {
				s.deferred[ply][deferred] = m
				deferred++
				continue
			}
			marked := busy.enter(bk)
			v, lp = s.search(q, ply+1, childDepth, -beta, -alpha)
			if marked {
				busy.leave(bk)
			}
		} else {
			v, lp = s.search(q, ply+1, childDepth, -beta, -alpha)
		}
		v = -v
		if q.stopped {
			return 0, noLoop
		}
		if lp < loop {
			loop = lp
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				if v >= beta {
					s.rewardCutoff(ply, pos, m, depth)
					break
				}
			}
		}
	}

	if loop >= ply || mutant == cutRepetition && n.useTT {
		if n.useTT {
			bound := BoundExact
			switch {
			case best <= origAlpha:
				bound = BoundUpper
			case best >= beta:
				bound = BoundLower
			}
			s.env.tt.store(n.key, bestMove, scoreToTT(best, ply), depth, bound)
		}
		loop = noLoop
	}
	return best, loop
}

// keepOnly leaves in l the moves that are in allowed.
func keepOnly(l *board.MoveList, allowed []board.Move) {
	n := 0
	for _, m := range l.Moves[:l.N] {
		if slices.Contains(allowed, m) {
			l.Moves[n] = m
			n++
		}
	}
	l.N = n
}

// canMate is pos.CanMate(c) when the search makes the material shortcut,
// else true.
func (s *searcher) canMate(pos *board.Position, c board.Color) bool {
	switch {
	case !s.env.uses(cutMaterial):
		return true
	case mutant == cutMaterial:
		return mutantCanMate(pos, c)
	}
	return pos.CanMate(c)
}

// dropPromotions takes the promotions out of l (a mutant's).
func dropPromotions(l *board.MoveList) {
	k := 0
	for _, m := range l.Moves[:l.N] {
		if m.Promotion() == board.NoPieceType {
			l.Moves[k] = m
			k++
		}
	}
	l.N = k
}
