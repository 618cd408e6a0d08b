package board

// Play makes the legal move m on p. Positions are small values, so the
// search keeps the parent by copying it first (copy-make):
//
//	child := *pos
//	child.Play(m)
//
// Play does not check legality; pass only moves from LegalMoves,
// CheckingMoves or the parsers.
func (p *Position) Play(m Move) {
	us, them := p.side, p.side.Other()
	from, to := m.From(), m.To()
	pc := p.squares[from]
	if p.epCapturable() {
		p.key ^= zobristEP[p.ep.File()]
	}
	p.key ^= zobristCastling[p.castling]
	p.halfmove++
	if p.squares[to] != NoPiece {
		p.remove(to)
		p.halfmove = 0
	}
	p.remove(from)
	switch m & kindMask {
	case kindCastling:
		c := &castlings[2*int(us)]
		if to.File() == 2 { // queenside
			c = &castlings[2*int(us)+1]
		}
		p.put(pc, to)
		rook := p.squares[c.rookFrom]
		p.remove(c.rookFrom)
		p.put(rook, c.rookTo)
	case kindEnPassant:
		p.remove(to ^ 8)
		p.put(pc, to)
	case kindPromotion:
		p.put(MakePiece(us, m.Promotion()), to)
	default:
		p.put(pc, to)
	}
	p.ep = NoSquare
	if pc.Type() == Pawn {
		p.halfmove = 0
		if d := to - from; d == 16 || d == -16 {
			p.ep = (from + to) / 2
		}
	}
	p.castling &^= castlingRightsLost[from] | castlingRightsLost[to]
	p.key ^= zobristCastling[p.castling]
	if us == Black {
		p.fullmove++
	}
	p.side = them
	p.key ^= zobristSide
	if p.epCapturable() {
		p.key ^= zobristEP[p.ep.File()]
	}
}
