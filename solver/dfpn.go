package solver

import "mateline.dev/mateline/board"

// Depth-first proof-number search (df-pn) for "the attacker mates within
// k plies". It proves or disproves exactly what the alpha-beta search
// does: every node is a position with a number of plies left, a node whose
// plies run out is decided by the rules alone, and a proof covers every
// defence. Where alpha-beta spends its effort evenly, df-pn goes where the
// proof looks cheapest: first to attacking moves that leave the defender
// the fewest replies. It finds long forcing mates far sooner; it does not
// make the proof that no shorter mate exists any cheaper, which is why the
// solver uses it for the upper bound (and reads what its table decided when
// it lists keys and the line).
//
// The numbers are in the phi/delta form, from the point of view of the
// side to move: phi is the cost of proving that it wins (the attacker
// mates, or the defender holds out), delta the cost of proving that it
// loses. A decided node has one of them 0 and the other pnInf.
//
// Because the plies left are part of a node and fall by one each move, the
// graph has no cycles: a repetition is just a shallower node, and the
// table's results never depend on the path.

// pnWon is the pair of a node whose side to move wins.
func pnWon() (uint32, uint32) { return 0, pnInf }

// pnLost is the pair of a node whose side to move loses.
func pnLost() (uint32, uint32) { return pnInf, 0 }

// pnLeaf decides pos with plies left when the rules alone decide it, without
// a search: no legal move, plies run out, the attacker's last move (only a
// check can mate), material that cannot mate, the 50-move rule, and what the
// tablebases prove. decided is false for a node that needs a search.
//
// At a root whose moves are restricted the tables are not read: they know
// the position's value, not that of a choice of its moves.
//
// replies is the number of legal moves in pos when the caller has counted
// them, else -1.
func (s *searcher) pnLeaf(q *query, pos *board.Position, plies int, root bool, replies int) (phi, delta uint32, decided bool) {
	attacking := pos.Side() == q.attacker
	decide := func(phi, delta uint32) (uint32, uint32, bool) { return phi, delta, true }
	// fail is the outcome when the attacker fails, from the side to move.
	fail := func() (uint32, uint32, bool) {
		if attacking {
			return decide(pnLost())
		}
		return decide(pnWon())
	}
	inCheck := pos.InCheck()
	if replies == 0 || replies < 0 && !pos.HasLegalMove() {
		if inCheck {
			return decide(pnLost()) // checkmated, whatever else holds
		}
		return fail() // stalemate
	}
	if plies <= 0 || (s.env.rule50 && pos.HalfmoveClock() >= 100) || !s.canMate(pos, q.attacker) {
		return fail()
	}
	if !(root && q.rootMoves != nil) && s.inTables(pos) && s.tablesRuleOutMate(pos, q.attacker, plies) {
		return fail()
	}
	if attacking && plies == 1 {
		if s.matesInOne(pos, inCheck) {
			return decide(pnWon())
		}
		return fail()
	}
	return 0, 0, false
}

// pnInit gives the starting numbers of pos with plies left that the table
// does not know: exact when the rules decide it, else a defender's node
// costs as many proofs as it has replies, and an attacker's node one.
func (s *searcher) pnInit(q *query, ply, plies int) (phi, delta uint32) {
	pos := &s.pos[ply]
	replies := -1
	if pos.Side() != q.attacker {
		// A defender's replies are counted once, for both the leaf test
		// and the starting numbers.
		var l board.MoveList
		pos.LegalMoves(&l)
		replies = l.N
	}
	if phi, delta, ok := s.pnLeaf(q, pos, plies, false, replies); ok {
		return phi, delta
	}
	if pos.Side() == q.attacker && plies <= pnLeafPlies {
		// Short problems are the alpha-beta search's: exact, and cheaper
		// per node than growing the proof-number tree.
		if s.matesAt(q, ply, plies) {
			return pnWon()
		}
		return pnLost()
	}
	if pos.Side() == q.attacker {
		return 1, 1
	}
	// The defender holds out by one good reply (phi); mating it needs a
	// proof after every reply (delta).
	return 1, uint32(replies)
}

// pnLeafPlies is the longest problem (in plies, the attacker to move) that
// the proof-number search hands to the alpha-beta search.
const pnLeafPlies = 3

// matesAt runs the alpha-beta search on s.pos[ply]: does the attacker, to
// move, mate within plies? The search sees no repetition above ply, so its
// answer does not depend on the proof-number search's path. It runs as a
// query of its own with q's budget; a stop of it stops q.
func (s *searcher) matesAt(q *query, ply, plies int) bool {
	leaf := *q
	leaf.floor = ply
	bound := mateScore - ply - plies
	v, _ := s.search(&leaf, ply, plies, bound-1, bound)
	q.stopped = leaf.stopped
	return v >= bound
}

// pnKey is the table key of pos with plies left.
func (s *searcher) pnKey(pos *board.Position, plies int) uint64 {
	return s.ttKey(pos) ^ pliesSalt(plies)
}

// pnProve reports whether q's attacker mates within plies of pos, and
// whether the search decided it before q stopped.
func (s *searcher) pnProve(q *query, pos board.Position, plies int) (mates, decided bool) {
	if q.stopped || !s.env.uses(cutProofNumbers) {
		return false, false
	}
	s.pos[0] = pos
	phi, delta, ok := s.pnLeaf(q, &s.pos[0], plies, true, -1)
	if !ok {
		phi, delta = s.mid(q, 0, plies, pnInf, pnInf)
	}
	if q.stopped || (phi != 0 && delta != 0) {
		return false, false
	}
	attackerWins := phi == 0
	if pos.Side() != q.attacker {
		attackerWins = delta == 0
	}
	return attackerWins, true
}

// pnKnown reports what the table already proves about "attacker mates
// within plies of pos", without searching.
func (s *searcher) pnKnown(attacker board.Color, pos *board.Position, plies int) (attackerWins, known bool) {
	if !s.env.uses(cutProofNumbers) {
		return false, false
	}
	if mutant == cutProofNumbers && plies > 2 {
		// The mutant reads a disproof of two plies fewer as one of plies.
		if wins, known := s.pnKnown(attacker, pos, plies-2); known && !wins {
			return false, true
		}
	}
	phi, delta, ok := s.env.pn.probe(s.pnKey(pos, plies))
	if !ok || (phi != 0 && delta != 0) {
		return false, false
	}
	if pos.Side() == attacker {
		return phi == 0, true
	}
	return delta == 0, true
}

// mid searches s.pos[ply], an undecided node with plies left, until its
// phi reaches thPhi or its delta reaches thDelta, and returns both.
func (s *searcher) mid(q *query, ply, plies int, thPhi, thDelta uint32) (uint32, uint32) {
	pos := &s.pos[ply]
	nodes0 := s.nodes
	if s.tick(q) {
		return 1, 1
	}
	if ply > s.selDepth {
		s.selDepth = ply
	}
	key := s.pnKey(pos, plies)
	l := &s.lists[ply]
	pos.LegalMoves(l)
	if ply == 0 && q.rootMoves != nil {
		key ^= q.rootSalt
		keepOnly(l, q.rootMoves)
	}
	phis, deltas := &s.pnPhi[ply], &s.pnDelta[ply]
	// The children's entries are fetched from memory together, not one
	// after the other.
	salt := pliesSalt(plies - 1)
	for _, m := range l.Moves[:l.N] {
		s.env.pn.prefetch(s.childKey(pos, m) ^ salt)
	}
	child := &s.pos[ply+1]
	for i, m := range l.Moves[:l.N] {
		*child = *pos
		child.Play(m)
		s.nodes++
		childKey := s.pnKey(child, plies-1)
		p, d, ok := s.env.pn.probe(childKey)
		if !ok {
			p, d = s.pnInit(q, ply+1, plies-1)
			if q.stopped {
				// An interrupted alpha-beta search proves nothing: store
				// nothing.
				return 1, 1
			}
			if attackerWon(child, q.attacker, p, d) {
				// Keep the proof's leaves, so that keys, lines and proof
				// certificates can read the whole proof back.
				s.env.pn.store(childKey, p, d, 1)
			}
		}
		phis[i], deltas[i] = p, d
		if d == 0 {
			// This move wins outright.
			s.env.pn.store(key, 0, pnInf, uint32(min(s.nodes-nodes0, 1<<32-1)))
			return pnWon()
		}
	}

	var phi, delta uint32
	for {
		// phi is the cheapest child's delta; delta sums the children's phi.
		best, second := -1, uint32(pnInf)
		phi, delta = pnInf, 0
		for i := 0; i < l.N; i++ {
			if deltas[i] < phi {
				if best >= 0 {
					second = phi
				}
				phi, best = deltas[i], i
			} else if deltas[i] < second {
				second = deltas[i]
			}
			switch {
			case phis[i] >= pnInf:
				delta = pnInf
			case delta < pnInf:
				delta = min(delta+phis[i], pnInf-1)
			}
		}
		if phi == 0 || delta == 0 || phi >= thPhi || delta >= thDelta {
			break
		}
		// The child may spend until our delta reaches its threshold, or
		// until it stops being the cheapest (with a little slack, so the
		// search does not flip between two children too often).
		childThPhi := uint32(pnInf)
		if thDelta < pnInf {
			childThPhi = thDelta - delta + phis[best]
		}
		childThDelta := min(thPhi, second+second/4+1)
		*child = *pos
		child.Play(l.Moves[best])
		phis[best], deltas[best] = s.mid(q, ply+1, plies-1, childThPhi, childThDelta)
		if q.stopped {
			return 1, 1
		}
	}
	s.env.pn.store(key, phi, delta, uint32(min(s.nodes-nodes0, 1<<32-1)))
	return phi, delta
}

// attackerWon reports whether the numbers of pos say that the attacker
// mates.
func attackerWon(pos *board.Position, attacker board.Color, phi, delta uint32) bool {
	if pos.Side() == attacker {
		return phi == 0
	}
	return delta == 0
}
