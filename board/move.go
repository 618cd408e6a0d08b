package board

// Move is a move packed in 16 bits: from (6), to (6), promotion piece (2)
// and kind (2). Castling is stored as the king's move (e1g1). The zero value
// is NoMove.
type Move uint16

// NoMove is the zero Move.
const NoMove Move = 0

// Move kinds.
const (
	kindNormal    = 0
	kindPromotion = 1 << 14
	kindEnPassant = 2 << 14
	kindCastling  = 3 << 14
	kindMask      = 3 << 14
)

func newMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

func newPromotion(from, to Square, t PieceType) Move {
	return Move(from) | Move(to)<<6 | Move(t-Knight)<<12 | kindPromotion
}

// From returns the square the piece leaves.
func (m Move) From() Square { return Square(m & 63) }

// To returns the square the piece arrives on (the king's square for castling).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Promotion returns the piece type promoted to, or NoPieceType.
func (m Move) Promotion() PieceType {
	if m&kindMask != kindPromotion {
		return NoPieceType
	}
	return PieceType(m>>12&3) + Knight
}

// IsCastling reports whether the move is castling.
func (m Move) IsCastling() bool { return m&kindMask == kindCastling }

// IsEnPassant reports whether the move is an en-passant capture.
func (m Move) IsEnPassant() bool { return m&kindMask == kindEnPassant }

// UCI returns the move in UCI long algebraic form, such as "e2e4" or "e7e8q".
func (m Move) UCI() string {
	if m == NoMove {
		return "0000"
	}
	s := m.From().String() + m.To().String()
	if t := m.Promotion(); t != NoPieceType {
		s += string(" pnbrqk"[t])
	}
	return s
}

// String returns the UCI form.
func (m Move) String() string { return m.UCI() }

// MoveList is a fixed-capacity list of moves. No legal position has more
// than 218 moves.
type MoveList struct {
	Moves [256]Move
	N     int
}

func (l *MoveList) add(m Move) { l.Moves[l.N] = m; l.N++ }

// Slice returns the moves as a slice backed by the list.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// Contains reports whether m is in the list.
func (l *MoveList) Contains(m Move) bool {
	for _, x := range l.Moves[:l.N] {
		if x == m {
			return true
		}
	}
	return false
}
