package board

// Legal move generation. The generator works from the king outwards: it
// finds the checkers and the pinned pieces first, so every move it emits is
// legal and no move is made and taken back to test it. The same code, with
// checksOnly set, emits only the moves that give check, which is all the
// mate search needs at the attacker's last move.

// LegalMoves fills l with every legal move.
func (p *Position) LegalMoves(l *MoveList) {
	l.N = 0
	p.generate(l, false, false)
}

// CheckingMoves fills l with the legal moves that give check: direct and
// discovered checks, checks by promotion, by castling and by en passant.
func (p *Position) CheckingMoves(l *MoveList) {
	l.N = 0
	p.generate(l, true, false)
}

// Captures fills l with the legal moves that take a piece, promotions that
// capture included, en passant excluded.
func (p *Position) Captures(l *MoveList) {
	l.N = 0
	p.generate(l, false, true)
}

// CheckInfo describes how the side to move can give check, so that many
// moves of one position can be tested cheaply (see GivesCheckWith).
type CheckInfo = checkInfo

// NewCheckInfo computes the check squares and discovered-check candidates
// of the side to move.
func (p *Position) NewCheckInfo() CheckInfo { return p.newCheckInfo() }

// GivesCheckWith is GivesCheck using precomputed check information ci.
func (p *Position) GivesCheckWith(ci *CheckInfo, m Move) bool {
	if m&kindMask != kindNormal {
		return p.GivesCheck(m)
	}
	from, to := m.From(), m.To()
	pt := p.squares[from].Type()
	if pt != King && ci.squares[pt].Has(to) {
		return true
	}
	return ci.discoverers.Has(from) && !line[from][ci.eksq].Has(to)
}

// checkInfo describes how the side to move can give check.
type checkInfo struct {
	eksq        Square
	squares     [7]Bitboard // where a piece of each type would give direct check
	discoverers Bitboard    // our pieces whose move off the line uncovers a check
}

func (p *Position) newCheckInfo() checkInfo {
	us, them := p.side, p.side.Other()
	occ := p.byType[0]
	var ci checkInfo
	ci.eksq = p.KingSquare(them)
	ci.squares[Pawn] = pawnAttacks[them][ci.eksq]
	ci.squares[Knight] = knightAttacks[ci.eksq]
	ci.squares[Bishop] = BishopAttacks(ci.eksq, occ)
	ci.squares[Rook] = RookAttacks(ci.eksq, occ)
	ci.squares[Queen] = ci.squares[Bishop] | ci.squares[Rook]
	disc, _ := p.blockers(ci.eksq, us)
	ci.discoverers = disc & p.byColor[us]
	return ci
}

// checkTargets narrows the targets t of a piece of type pt on from to those
// that give check.
func (ci *checkInfo) checkTargets(pt PieceType, from Square, t Bitboard) Bitboard {
	if ci.discoverers.Has(from) {
		ray := line[from][ci.eksq]
		return t&^ray | t&ray&ci.squares[pt]
	}
	return t & ci.squares[pt]
}

func (p *Position) generate(l *MoveList, checksOnly, capturesOnly bool) {
	us, them := p.side, p.side.Other()
	occ := p.byType[0]
	own, enemy := p.byColor[us], p.byColor[them]
	ksq := p.KingSquare(us)
	checkers := p.attackersTo(ksq, occ) & enemy

	var ci checkInfo
	if checksOnly {
		ci = p.newCheckInfo()
	}

	// King steps. A king can only give a discovered check.
	kingTargets := kingAttacks[ksq] &^ own
	if capturesOnly {
		kingTargets &= enemy
	}
	if checksOnly {
		if ci.discoverers.Has(ksq) {
			kingTargets &^= line[ksq][ci.eksq]
		} else {
			kingTargets = 0
		}
	}
	occNoKing := occ ^ SquareBB(ksq)
	for kingTargets != 0 {
		to := kingTargets.PopFirst()
		if !p.attacked(to, them, occNoKing) {
			l.add(newMove(ksq, to))
		}
	}
	if checkers.More() {
		return
	}

	// target: where a piece other than the king may go.
	var target Bitboard
	if checkers != 0 {
		target = between[ksq][checkers.First()] | checkers
	} else {
		target = ^own
		if !capturesOnly {
			p.genCastling(l, checksOnly)
		}
	}
	if capturesOnly {
		target &= enemy
	}
	pinned, _ := p.blockers(ksq, them)
	pinned &= own

	for b := p.pieces(us, Knight) &^ pinned; b != 0; {
		from := b.PopFirst()
		t := knightAttacks[from] & target
		if checksOnly {
			t = ci.checkTargets(Knight, from, t)
		}
		addMoves(l, from, t)
	}
	for b := own & (p.byType[Bishop] | p.byType[Rook] | p.byType[Queen]); b != 0; {
		from := b.PopFirst()
		pt := p.squares[from].Type()
		var t Bitboard
		switch pt {
		case Bishop:
			t = BishopAttacks(from, occ)
		case Rook:
			t = RookAttacks(from, occ)
		default:
			t = QueenAttacks(from, occ)
		}
		t &= target
		if pinned.Has(from) {
			t &= line[ksq][from]
		}
		if checksOnly {
			t = ci.checkTargets(pt, from, t)
		}
		addMoves(l, from, t)
	}
	p.genPawnMoves(l, target, pinned, ksq, checksOnly, capturesOnly, &ci)
}

func addMoves(l *MoveList, from Square, t Bitboard) {
	for t != 0 {
		l.add(newMove(from, t.PopFirst()))
	}
}

func (p *Position) genPawnMoves(l *MoveList, target, pinned Bitboard, ksq Square, checksOnly, capturesOnly bool, ci *checkInfo) {
	us := p.side
	occ := p.byType[0]
	enemy := p.byColor[us.Other()]
	pawns := p.pieces(us, Pawn)
	empty := ^occ
	third, last := Rank3, Rank8
	up := Square(8)
	if us == Black {
		third, last, up = Rank6, Rank1, -8
	}

	// Pawns that need care one by one: pinned ones, and in checks mode
	// the ones that can discover a check and every one about to promote.
	special := pinned & pawns
	if checksOnly {
		special |= pawns & (ci.discoverers | pawnPush(us.Other(), last))
	}
	free := pawns &^ special

	single := pawnPush(us, free) & empty
	double := pawnPush(us, single&third) & empty & target
	single &= target
	if capturesOnly {
		single, double = 0, 0
	}
	var capWest, capEast Bitboard // captures towards the a-file and the h-file
	var westDelta, eastDelta Square
	if us == White {
		capWest, westDelta = (free&^FileA)<<7&enemy&target, 7
		capEast, eastDelta = (free&^FileH)<<9&enemy&target, 9
	} else {
		capWest, westDelta = (free&^FileA)>>9&enemy&target, -9
		capEast, eastDelta = (free&^FileH)>>7&enemy&target, -7
	}
	if checksOnly {
		single &= ci.squares[Pawn]
		double &= ci.squares[Pawn]
		capWest &= ci.squares[Pawn]
		capEast &= ci.squares[Pawn]
	}
	for b := single & last; b != 0; {
		to := b.PopFirst()
		addPromotions(l, to-up, to)
	}
	for b := single &^ last; b != 0; {
		to := b.PopFirst()
		l.add(newMove(to-up, to))
	}
	for b := double; b != 0; {
		to := b.PopFirst()
		l.add(newMove(to-2*up, to))
	}
	for b := capWest; b != 0; {
		to := b.PopFirst()
		if last.Has(to) {
			addPromotions(l, to-westDelta, to)
		} else {
			l.add(newMove(to-westDelta, to))
		}
	}
	for b := capEast; b != 0; {
		to := b.PopFirst()
		if last.Has(to) {
			addPromotions(l, to-eastDelta, to)
		} else {
			l.add(newMove(to-eastDelta, to))
		}
	}

	for special != 0 {
		from := special.PopFirst()
		push := pawnPush(us, SquareBB(from)) & empty
		t := push | pawnPush(us, push&third)&empty
		if capturesOnly {
			t = 0
		}
		t = (t | pawnAttacks[us][from]&enemy) & target
		if pinned.Has(from) {
			t &= line[ksq][from]
		}
		for t != 0 {
			to := t.PopFirst()
			if !last.Has(to) {
				m := newMove(from, to)
				if !checksOnly || p.GivesCheck(m) {
					l.add(m)
				}
				continue
			}
			for pt := Queen; pt >= Knight; pt-- {
				m := newPromotion(from, to, pt)
				if !checksOnly || p.GivesCheck(m) {
					l.add(m)
				}
			}
		}
	}

	if p.ep != NoSquare && !capturesOnly {
		p.genEnPassant(l, target, ksq, checksOnly)
	}
}

func addPromotions(l *MoveList, from, to Square) {
	for pt := Queen; pt >= Knight; pt-- {
		l.add(newPromotion(from, to, pt))
	}
}

func (p *Position) genEnPassant(l *MoveList, target Bitboard, ksq Square, checksOnly bool) {
	us, them := p.side, p.side.Other()
	capsq := p.ep ^ 8 // the pawn that just moved two squares
	if !target.Has(p.ep) && !target.Has(capsq) {
		return
	}
	rooks := (p.byType[Rook] | p.byType[Queen]) & p.byColor[them]
	bishops := (p.byType[Bishop] | p.byType[Queen]) & p.byColor[them]
	for b := pawnAttacks[them][p.ep] & p.pieces(us, Pawn); b != 0; {
		from := b.PopFirst()
		// Two pawns leave their squares at once, so test the king directly;
		// this also catches the horizontal discovered check.
		occ := p.byType[0] ^ SquareBB(from) ^ SquareBB(capsq) | SquareBB(p.ep)
		if RookAttacks(ksq, occ)&rooks != 0 || BishopAttacks(ksq, occ)&bishops != 0 {
			continue
		}
		m := newMove(from, p.ep) | kindEnPassant
		if !checksOnly || p.GivesCheck(m) {
			l.add(m)
		}
	}
}

// castling describes one castling move: the king's and rook's squares, the
// squares that must be empty and the squares the king crosses.
type castling struct {
	right                  CastlingRights
	kingFrom, kingTo       Square
	rookFrom, rookTo       Square
	mustBeEmpty, kingCross Bitboard
}

var castlings = [4]castling{
	{WhiteKingside, E1, G1, H1, F1, SquareBB(F1) | SquareBB(G1), SquareBB(F1) | SquareBB(G1)},
	{WhiteQueenside, E1, C1, A1, D1, SquareBB(B1) | SquareBB(C1) | SquareBB(D1), SquareBB(C1) | SquareBB(D1)},
	{BlackKingside, E8, G8, H8, F8, SquareBB(F8) | SquareBB(G8), SquareBB(F8) | SquareBB(G8)},
	{BlackQueenside, E8, C8, A8, D8, SquareBB(B8) | SquareBB(C8) | SquareBB(D8), SquareBB(C8) | SquareBB(D8)},
}

// castlingRightsLost[s] holds the rights lost when a piece leaves or lands on s.
var castlingRightsLost = func() (t [64]CastlingRights) {
	t[E1] = WhiteKingside | WhiteQueenside
	t[H1] = WhiteKingside
	t[A1] = WhiteQueenside
	t[E8] = BlackKingside | BlackQueenside
	t[H8] = BlackKingside
	t[A8] = BlackQueenside
	return t
}()

// genCastling adds the legal castling moves; the caller knows the king is
// not in check.
func (p *Position) genCastling(l *MoveList, checksOnly bool) {
	if p.castling == 0 {
		return
	}
	them := p.side.Other()
	for i := 2 * int(p.side); i < 2*int(p.side)+2; i++ {
		c := &castlings[i]
		if p.castling&c.right == 0 || p.byType[0]&c.mustBeEmpty != 0 {
			continue
		}
		ok := true
		for b := c.kingCross; b != 0 && ok; {
			ok = !p.attacked(b.PopFirst(), them, p.byType[0])
		}
		if !ok {
			continue
		}
		m := newMove(c.kingFrom, c.kingTo) | kindCastling
		if !checksOnly || p.GivesCheck(m) {
			l.add(m)
		}
	}
}

// GivesCheck reports whether the legal move m gives check.
func (p *Position) GivesCheck(m Move) bool {
	us, them := p.side, p.side.Other()
	from, to := m.From(), m.To()
	eksq := p.KingSquare(them)
	if m&kindMask != kindNormal {
		// Promotions, en passant and castling are rare: play and look.
		after := *p
		after.Play(m)
		return after.InCheck()
	}
	occ := p.byType[0]&^SquareBB(from) | SquareBB(to)
	pc := p.squares[from]
	if pc.Type() != King && Attacks(pc.Type(), us, to, occ).Has(eksq) {
		return true
	}
	// Discovered check: leaving a line to the enemy king may open it.
	ray := line[from][eksq]
	if ray == 0 || ray.Has(to) {
		return false
	}
	own := p.byColor[us] &^ SquareBB(from)
	return RookAttacks(eksq, occ)&(p.byType[Rook]|p.byType[Queen])&own != 0 ||
		BishopAttacks(eksq, occ)&(p.byType[Bishop]|p.byType[Queen])&own != 0
}
