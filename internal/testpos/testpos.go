// Package testpos makes random positions for tests.
package testpos

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Placement puts the men (FEN letters, e.g. "KkQr") on distinct random
// squares, pawns off the first and last ranks, and returns the FEN
// placement field. The position may be illegal (a side not to move in
// check): the caller parses it and skips those.
func Placement(rng *rand.Rand, men string) string {
	var grid [64]byte
	return PlacementOn(rng, &grid, men)
}

// PlacementOn is Placement on a board that already holds men (grid[s]: a
// FEN letter, or 0 for an empty square; a1 is 0): the new men go on empty
// squares.
func PlacementOn(rng *rand.Rand, grid *[64]byte, men string) string {
	for i := 0; i < len(men); i++ {
		c := men[i]
		for {
			s := rng.IntN(64)
			if grid[s] == 0 && !((c == 'P' || c == 'p') && (s < 8 || s >= 56)) {
				grid[s] = c
				break
			}
		}
	}
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			c := grid[r*8+f]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// OpenPlacement is a random placement: up to three black pawns, the two
// kings, one to three white men and one to maxBlack black men, in the
// open or behind the pawns.
func OpenPlacement(rng *rand.Rand, maxBlack int) string {
	var grid [64]byte
	for n := rng.IntN(4); n > 0; n-- {
		grid[8+rng.IntN(40)] = 'p'
	}
	men := "Kk"
	for n := 1 + rng.IntN(3); n > 0; n-- {
		men += string("QRBNP"[rng.IntN(5)])
	}
	for n := 1 + rng.IntN(maxBlack); n > 0; n-- {
		men += string("bnrqp"[rng.IntN(5)])
	}
	return PlacementOn(rng, &grid, men)
}
