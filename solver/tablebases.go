package solver

import "mateline.dev/mateline/board"

// What the tablebases say about mates. Both searches read them through
// these two functions, so that the rules (cursed results, DTZ as a bound on
// the mate distance) live in one place.

// tableWinner reads the tables' win/draw/loss value of pos: +1 when the
// side to move can force mate, -1 when its opponent can, 0 when neither can.
// A cursed win is still a forced mate in a problem, unless the 50-move rule
// is honoured. ok is false when the tables do not answer.
func (s *searcher) tableWinner(pos *board.Position) (winner int, ok bool) {
	wdl, ok := s.env.prober.ProbeWDL(pos)
	if !ok {
		return 0, false
	}
	s.tbHits++
	switch {
	case wdl == 2 || wdl == 1 && !s.env.rule50:
		return 1, true
	case wdl == -2 || wdl == -1 && !s.env.rule50:
		return -1, true
	}
	return 0, true
}

// tableMinPlies returns a lower bound on the plies to the winner's mate in
// pos, whose winner (+1 the side to move, -1 its opponent) tableWinner
// gave. Mate is itself a zeroing move, so the distance to zeroing (DTZ) is
// at most the distance to mate.
func (s *searcher) tableMinPlies(pos *board.Position, winner int) (int, bool) {
	dtz, ok := s.env.prober.ProbeDTZ(pos)
	if !ok {
		return 0, false
	}
	lb := abs(dtz)
	if lb > 100 {
		lb -= 100 // cursed or blessed: the 100 marks the 50-move rule
	}
	if winner < 0 {
		lb-- // a checkmated side has DTZ -1 and DTM 0
	}
	return lb, true
}

// tablesRuleOutMate reports whether the tablebases prove that the attacker
// cannot mate within plies of pos: the attacker does not win, or needs more
// plies than that.
func (s *searcher) tablesRuleOutMate(pos *board.Position, attacker board.Color, plies int) bool {
	winner, ok := s.tableWinner(pos)
	if !ok {
		return false
	}
	toMove := pos.Side() == attacker
	if !(winner > 0 && toMove || winner < 0 && !toMove) {
		return true
	}
	lb, ok := s.tableMinPlies(pos, winner)
	return ok && lb > plies
}

// inTables reports whether the tablebases cover pos.
func (s *searcher) inTables(pos *board.Position) bool {
	p := s.env.prober
	return p != nil && pos.Castling() == 0 && pos.Occupied().Count() <= p.MaxPieces()
}

// probeTables consults the tablebases (see tableWinner and tableMinPlies).
// When the node is decided it returns a score, the kind of bound it is
// (valid at any depth), and true.
func (s *searcher) probeTables(pos *board.Position, ply, depth, alpha, beta int) (int, Bound, bool) {
	winner, ok := s.tableWinner(pos)
	if !ok {
		return 0, BoundNone, false
	}
	switch {
	case winner == 0:
		return 0, BoundExact, true // nobody can force mate
	case winner > 0 && beta <= 0:
		return 0, BoundLower, true // we cannot be mated: at least 0
	case winner < 0 && alpha >= 0:
		return 0, BoundUpper, true // we cannot mate: at most 0
	}
	if depth < dtzMinDepth {
		// A DTZ probe (a search of its own when the table is for the
		// other side to move) costs more than so short a search.
		return 0, BoundNone, false
	}
	lb, ok := s.tableMinPlies(pos, winner)
	if !ok {
		return 0, BoundNone, false
	}
	if mutant == cutTablebases {
		lb++ // the mutant takes the tables' shortest mate for one ply longer
	}
	// Keep the bound a mate score of the search's range (a smaller lower
	// bound is still true), so the table can move it between plies.
	lb = min(lb, MaxPly-ply-1)
	switch {
	case winner > 0 && mateScore-ply-lb <= alpha:
		return mateScore - ply - lb, BoundUpper, true // no mate in fewer than lb plies
	case winner < 0 && -(mateScore-ply-lb) >= beta:
		return -(mateScore - ply - lb), BoundLower, true // the opponent needs lb plies at least
	}
	return 0, BoundNone, false
}
