package testpos

import (
	"math/rand/v2"

	"mateline.dev/mateline/board"
)

// FewMen yields count legal random positions of the kings and one to
// three other men, with either side to move and a legal move, drawn from
// seed.
func FewMen(seed uint64, count int, each func(pos board.Position)) {
	rng := rand.New(rand.NewPCG(seed, 1))
	const kinds = "QRRBNNPPqrbnp"
	for made := 0; made < count; {
		men := "Kk"
		for n := 1 + rng.IntN(3); n > 0; n-- {
			men += string(kinds[rng.IntN(len(kinds))])
		}
		side := " w"
		if rng.IntN(2) == 0 {
			side = " b"
		}
		pos, err := board.ParseFEN(Placement(rng, men) + side + " - - 0 1")
		if err != nil || !pos.HasLegalMove() {
			continue
		}
		made++
		each(pos)
	}
}
