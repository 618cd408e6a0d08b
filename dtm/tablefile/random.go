package tablefile

import (
	"math/rand"

	"mateline.dev/mateline/board"
)

// RandomNode places the layout's men at random until the position is
// legal (pawns off the first and last ranks, no en-passant right).
func RandomNode(r *rand.Rand, l *Layout) Node {
	for {
		nd := Node{N: l.Men, Pieces: l.Pieces, Ep: board.NoSquare, Stm: board.Color(r.Intn(2))}
		var occ board.Bitboard
		ok := true
		for i := 0; i < l.Men; i++ {
			s := board.Square(r.Intn(64))
			if l.Pieces[i].Type() == board.Pawn && (s < 8 || s >= 56) || occ.Has(s) {
				ok = false
				break
			}
			occ |= board.SquareBB(s)
			nd.Sq[i] = s
		}
		if ok && nd.Legal() {
			return nd
		}
	}
}
