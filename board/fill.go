package board

// Attacks of a whole set of squares at once, by shifts and fills of
// bitboards (Kogge-Stone): about the cost of one square's lookup, where a
// loop over the set looks up each square in turn.

// up returns the squares attacked by sliders on the squares of b along a
// direction that raises the square by s, through the squares of pro (the
// empty squares a step may land on without wrapping around the board's
// edge); the caller masks the result with those squares too. The shifts
// are constants once inlined.
func up(b, pro Bitboard, s uint) Bitboard {
	b |= pro & (b << s)
	pro &= pro << s
	b |= pro & (b << (2 * s))
	pro &= pro << (2 * s)
	b |= pro & (b << (4 * s))
	return b << s
}

// down is up for a direction that lowers the square by s.
func down(b, pro Bitboard, s uint) Bitboard {
	b |= pro & (b >> s)
	pro &= pro >> s
	b |= pro & (b >> (2 * s))
	pro &= pro >> (2 * s)
	b |= pro & (b >> (4 * s))
	return b >> s
}

// rookSet and bishopSet are the attacks of rooks and bishops on the
// squares of b.
func rookSet(b, empty Bitboard) Bitboard {
	return up(b, empty, 8) | down(b, empty, 8) |
		up(b, empty&^FileA, 1)&^FileA | down(b, empty&^FileH, 1)&^FileH
}

func bishopSet(b, empty Bitboard) Bitboard {
	return up(b, empty&^FileA, 9)&^FileA | up(b, empty&^FileH, 7)&^FileH |
		down(b, empty&^FileA, 7)&^FileA | down(b, empty&^FileH, 9)&^FileH
}

// SetAttacks returns the squares attacked by a piece of type t (not a
// pawn) standing on any square of set, the men of occ blocking: the union
// of Attacks over set. As these pieces move alike both ways, it is also
// the set of squares from which such a piece attacks a square of set
// (when neither square is in occ: a man in the way blocks either way).
func SetAttacks(t PieceType, set, occ Bitboard) Bitboard {
	switch t {
	case Knight:
		const fileAB, fileGH = FileA | FileA<<1, FileH | FileH>>1
		h1 := (set>>1)&^FileH | (set<<1)&^FileA
		h2 := (set>>2)&^fileGH | (set<<2)&^fileAB
		return h1<<16 | h1>>16 | h2<<8 | h2>>8
	case King:
		side := (set<<1)&^FileA | (set>>1)&^FileH
		row := set | side
		return side | row<<8 | row>>8
	case Bishop:
		return bishopSet(set, ^occ)
	case Rook:
		return rookSet(set, ^occ)
	case Queen:
		return rookSet(set, ^occ) | bishopSet(set, ^occ)
	}
	return 0
}
