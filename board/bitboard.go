package board

import "math/bits"

// Bitboard is a set of squares, bit i for square i.
type Bitboard uint64

// SquareBB returns the bitboard holding only s.
func SquareBB(s Square) Bitboard { return 1 << uint(s) }

// Has reports whether s is in the set.
func (b Bitboard) Has(s Square) bool { return b&(1<<uint(s)) != 0 }

// Count returns the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square of a non-empty set.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// PopFirst removes and returns the lowest square of a non-empty set.
func (b *Bitboard) PopFirst() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// More reports whether the set holds more than one square.
func (b Bitboard) More() bool { return b&(b-1) != 0 }

// Masks of files and ranks.
const (
	FileA Bitboard = 0x0101010101010101
	FileH Bitboard = FileA << 7
	Rank1 Bitboard = 0xff
	Rank2 Bitboard = Rank1 << 8
	Rank3 Bitboard = Rank1 << 16
	Rank4 Bitboard = Rank1 << 24
	Rank5 Bitboard = Rank1 << 32
	Rank6 Bitboard = Rank1 << 40
	Rank7 Bitboard = Rank1 << 48
	Rank8 Bitboard = Rank1 << 56
)

// pawnPush returns the squares one step forward for c's pawns.
func pawnPush(c Color, b Bitboard) Bitboard {
	if c == White {
		return b << 8
	}
	return b >> 8
}

// pawnAttacksBB returns every square attacked by c's pawns in b.
func pawnAttacksBB(c Color, b Bitboard) Bitboard {
	if c == White {
		return (b&^FileA)<<7 | (b&^FileH)<<9
	}
	return (b&^FileA)>>9 | (b&^FileH)>>7
}
