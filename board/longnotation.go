package board

// LongNotation returns the legal move m as Popeye prints it in English:
// the piece letter (S for a knight, none for a pawn), the from-square, "-"
// or "*" for a capture, the to-square, "=Q" for a promotion, " ep." after
// an en-passant capture, "0-0" and "0-0-0" for castling, and " +" or " #"
// when the move checks or mates.
func (p *Position) LongNotation(m Move) string {
	var b []byte
	from, to := m.From(), m.To()
	const letters = " PSBRQK"
	switch pt := p.squares[from].Type(); {
	case m.IsCastling() && to.File() == 6:
		b = append(b, "0-0"...)
	case m.IsCastling():
		b = append(b, "0-0-0"...)
	default:
		if pt != Pawn {
			b = append(b, letters[pt])
		}
		b = append(b, from.String()...)
		if p.squares[to] != NoPiece || m.IsEnPassant() {
			b = append(b, '*')
		} else {
			b = append(b, '-')
		}
		b = append(b, to.String()...)
		if promo := m.Promotion(); promo != NoPieceType {
			b = append(b, '=', letters[promo])
		}
		if m.IsEnPassant() {
			b = append(b, " ep."...)
		}
	}
	after := *p
	after.Play(m)
	if after.InCheck() {
		if after.HasLegalMove() {
			b = append(b, " +"...)
		} else {
			b = append(b, " #"...)
		}
	}
	return string(b)
}
