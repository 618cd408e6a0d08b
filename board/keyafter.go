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
