package board

// Attacks of a whole set of squares at once, by shifts and fills of
// bitboards (Kogge-Stone): about the cost of one square's lookup, where a
// loop over the set looks up each square in turn.

// direction is one step of a king: a shift of the board (positive: to
// higher squares) and the squares a step may land on without wrapping
// around the board's edge.
type direction struct {
	shift int
	to    Bitboard
}

var (
	rookDirections   = [4]direction{{8, ^Bitboard(0)}, {-8, ^Bitboard(0)}, {1, ^FileA}, {-1, ^FileH}}
	bishopDirections = [4]direction{{9, ^FileA}, {7, ^FileH}, {-7, ^FileA}, {-9, ^FileH}}
)

// shifted moves every square of b one step along d (off the board, or
// around its edge: gone).
func (d direction) shifted(b Bitboard, n int) Bitboard {
	if d.shift > 0 {
		return b << uint(n*d.shift)
	}
	return b >> uint(-n*d.shift)
}

// slide returns the squares attacked along d by sliders on the squares
// of b, through the empty squares.
func (d direction) slide(b, empty Bitboard) Bitboard {
	pro := empty & d.to
	b |= pro & d.shifted(b, 1)
	pro &= d.shifted(pro, 1)
	b |= pro & d.shifted(b, 2)
	pro &= d.shifted(pro, 2)
	b |= pro & d.shifted(b, 4)
	return d.shifted(b, 1) & d.to
}

// SetAttacks returns the squares attacked by a piece of type t (not a
// pawn) standing on any square of set, the men of occ blocking: the union
// of Attacks over set. As these pieces move alike both ways, it is also
// the set of squares from which such a piece attacks a square of set
// (when neither square is in occ: a man in the way blocks either way).
func SetAttacks(t PieceType, set, occ Bitboard) Bitboard {
	var a Bitboard
	switch t {
	case Knight:
		const fileAB, fileGH = FileA | FileA<<1, FileH | FileH>>1
		h1 := (set>>1)&^FileH | (set<<1)&^FileA
		h2 := (set>>2)&^fileGH | (set<<2)&^fileAB
		a = h1<<16 | h1>>16 | h2<<8 | h2>>8
	case King:
		for _, d := range rookDirections {
			a |= d.shifted(set, 1) & d.to
		}
		for _, d := range bishopDirections {
			a |= d.shifted(set, 1) & d.to
		}
	case Bishop:
		for _, d := range bishopDirections {
			a |= d.slide(set, ^occ)
		}
	case Rook:
		for _, d := range rookDirections {
			a |= d.slide(set, ^occ)
		}
	case Queen:
		for _, d := range rookDirections {
			a |= d.slide(set, ^occ)
		}
		for _, d := range bishopDirections {
			a |= d.slide(set, ^occ)
		}
	}
	return a
}
