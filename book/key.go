package book

//go:generate go test -run ^TestGeneratedTables$ -generate

import "mateline.dev/mateline/board"

// Offsets into random64.
const (
	castleOffset = 768
	epOffset     = 772
	turnOffset   = 780
)

// Key returns the Polyglot key of pos. The en-passant file counts only when
// a pawn of the side to move stands beside the pawn that just moved two
// squares, as the format requires.
func Key(pos *board.Position) uint64 {
	var k uint64
	for b := pos.Occupied(); b != 0; {
		s := b.PopFirst()
		pc := pos.PieceAt(s)
		// Polyglot kinds: black pawn 0, white pawn 1, black knight 2, ...
		kind := 2*int(pc.Type()-board.Pawn) + 1 - int(pc.Color())
		k ^= random64[64*kind+8*s.Rank()+s.File()]
	}
	cr := pos.Castling()
	for i, right := range []board.CastlingRights{board.WhiteKingside, board.WhiteQueenside, board.BlackKingside, board.BlackQueenside} {
		if cr&right != 0 {
			k ^= random64[castleOffset+i]
		}
	}
	if ep := pos.EnPassant(); ep != board.NoSquare {
		if board.PawnAttacks(pos.Side().Other(), ep)&pos.Pieces(pos.Side(), board.Pawn) != 0 {
			k ^= random64[epOffset+ep.File()]
		}
	}
	if pos.Side() == board.White {
		k ^= random64[turnOffset]
	}
	return k
}
