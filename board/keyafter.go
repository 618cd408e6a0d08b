package board

// KeyAfter returns the key of the position after the move m, for looking
// its table entry up ahead: exact for moves that change no castling right
// and make no en-passant square, which is most of a search; for the others
// it may differ, so it must not be used for anything but a hint.
func (p *Position) KeyAfter(m Move) uint64 {
	from, to := m.From(), m.To()
	pc := p.squares[from]
	k := p.key ^ zobristSide ^ zobristPiece[pc][from]
	if captured := p.squares[to]; captured != NoPiece {
		k ^= zobristPiece[captured][to]
	}
	if promo := m.Promotion(); promo != NoPieceType {
		pc = MakePiece(p.side, promo)
	}
	k ^= zobristPiece[pc][to]
	if p.epCapturable() {
		k ^= zobristEP[p.ep.File()]
	}
	return k
}

// rightsSquares are the squares of the kings and rooks that castling
// rights are about: a move from or to one of them may change a right.
const rightsSquares Bitboard = 1<<A1 | 1<<E1 | 1<<H1 | 1<<A8 | 1<<E8 | 1<<H8

// KeyAfterIsExact reports whether KeyAfter(m) is the key of the position
// after m for sure: m is no castling, no en-passant capture, no pawn's
// double step (which may make an en-passant square), and touches no
// square of a king or rook whose castling right still stands.
func (p *Position) KeyAfterIsExact(m Move) bool {
	from, to := m.From(), m.To()
	switch {
	case m.IsCastling() || m.IsEnPassant():
		return false
	case p.squares[from].Type() == Pawn && (to-from == 16 || from-to == 16):
		return false
	case p.castling != 0 && (rightsSquares>>from&1 != 0 || rightsSquares>>to&1 != 0):
		return false
	}
	return true
}
