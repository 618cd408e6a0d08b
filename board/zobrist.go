package board

// Zobrist keys. They come from a fixed-seed generator, so a key is the same
// in every run and on every machine (the transposition table and resume
// files may rely on that). Only an en-passant square that a pawn of the side
// to move could capture on changes the key, so positions that differ only by
// a useless en-passant square share a key.

var (
	zobristPiece    [16][64]uint64
	zobristCastling [16]uint64
	zobristEP       [8]uint64
	zobristSide     uint64
)

// init draws the keys from the fixed-seed generator: 1,061 numbers in a few
// microseconds, the same on every machine. Generated code would hold the
// same numbers, without the one line that says where they come from.
func init() {
	rng := xorshift(0x5851f42d4c957f2d)
	for p := range zobristPiece {
		for s := range zobristPiece[p] {
			zobristPiece[p][s] = rng.next()
		}
	}
	var single [4]uint64
	for i := range single {
		single[i] = rng.next()
	}
	for cr := range zobristCastling {
		for i := range single {
			if cr&(1<<i) != 0 {
				zobristCastling[cr] ^= single[i]
			}
		}
	}
	for f := range zobristEP {
		zobristEP[f] = rng.next()
	}
	zobristSide = rng.next()
}

// ComputeKey computes the Zobrist key from scratch. Position keeps its key
// up to date incrementally; this is the reference it is tested against.
func (p *Position) ComputeKey() uint64 {
	var k uint64
	for s := Square(0); s < 64; s++ {
		if pc := p.squares[s]; pc != NoPiece {
			k ^= zobristPiece[pc][s]
		}
	}
	k ^= zobristCastling[p.castling]
	if p.epCapturable() {
		k ^= zobristEP[p.ep.File()]
	}
	if p.side == Black {
		k ^= zobristSide
	}
	return k
}

// epCapturable reports whether a pawn of the side to move stands beside the
// en-passant square's pawn, so that the square matters for the key.
func (p *Position) epCapturable() bool {
	if p.ep == NoSquare {
		return false
	}
	return pawnAttacks[p.side.Other()][p.ep]&p.pieces(p.side, Pawn) != 0
}
