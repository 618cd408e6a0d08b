package board

import (
	"math/rand/v2"
	"testing"
)

// TestSetAttacks compares SetAttacks with the union of Attacks over the
// set, for random sets and occupancies, sparse and dense.
func TestSetAttacks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sparse := func() Bitboard { return Bitboard(rng.Uint64() & rng.Uint64() & rng.Uint64()) }
	for i := 0; i < 20000; i++ {
		set, occ := sparse(), sparse()
		switch i % 4 {
		case 1:
			set = Bitboard(rng.Uint64())
		case 2:
			occ = Bitboard(rng.Uint64())
		case 3:
			set = SquareBB(Square(rng.IntN(64)))
		}
		for _, pt := range []PieceType{Knight, Bishop, Rook, Queen, King} {
			want := Bitboard(0)
			for b := set; b != 0; {
				want |= Attacks(pt, White, b.PopFirst(), occ)
			}
			if got := SetAttacks(pt, set, occ); got != want {
				t.Fatalf("%v set %#x occ %#x: got %#x, want %#x", pt, uint64(set), uint64(occ), uint64(got), uint64(want))
			}
		}
	}
}

func BenchmarkSetAttacksQueen(b *testing.B) {
	set, occ := Bitboard(0x0000_1020_0400_8001), Bitboard(0x0010_0000_2000_0400)
	for i := 0; i < b.N; i++ {
		set ^= SetAttacks(Queen, set, occ) & 1
	}
}
