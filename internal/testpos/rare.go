package testpos

import (
	"math/rand/v2"
	"strings"
)

// Theme is what a rare position is drawn to hold.
type Theme uint8

const (
	// Promotion: pawns a step from promoting, men of the other side on
	// the squares they can take on as they promote.
	Promotion Theme = iota
	// EnPassant: a pawn just pushed two squares with a pawn of the other
	// side beside it, the en passant square set.
	EnPassant
	// Castling: kings and rooks at home with their rights.
	Castling
	// Pin: a man between its king and a line piece of the other side.
	Pin
	// SelfBlock: the king's own men on the squares round it.
	SelfBlock
	// Crowd: line pieces and knights round a king, where double checks
	// and discovered checks come.
	Crowd
	// Smother: a king on the edge hemmed in by its own men, the other
	// side with knights and pawns only, whose reach leaves flights no
	// man of theirs can attack: the mate needs a man of the king's own
	// side to block them (a smothered mate).
	Smother
	themeCount
)

var themeNames = [...]string{"promotion", "en-passant", "castling", "pin", "self-block", "crowd", "smother"}

func (t Theme) String() string { return themeNames[t] }

// Themes is every theme.
func Themes() []Theme {
	out := make([]Theme, themeCount)
	for i := range out {
		out[i] = Theme(i)
	}
	return out
}

// Rare returns the FEN of a random position of theme: its men, the side
// to move, castling rights and en passant square. The position may be
// illegal; the caller parses it and skips those.
func Rare(rng *rand.Rand, theme Theme) string {
	var grid [64]byte
	side := "w"
	if rng.IntN(2) == 0 {
		side = "b"
	}
	rights, ep := "-", "-"
	// which colour the theme's men are: up (White) or down (Black)
	white := rng.IntN(2) == 0
	letter := func(c byte, own bool) byte {
		if own == white {
			return c - 'a' + 'A'
		}
		return c
	}
	put := func(s int, c byte) bool {
		if s < 0 || s >= 64 || grid[s] != 0 {
			return false
		}
		grid[s] = c
		return true
	}
	extra := 1 + rng.IntN(3)
	others := "" // men of given kinds placed at random at the end
	switch theme {
	case Promotion:
		rank, dir := 6, 8
		if !white {
			rank, dir = 1, -8
		}
		for n := 1 + rng.IntN(2); n > 0; n-- {
			f := rng.IntN(8)
			s := rank*8 + f
			if put(s, letter('p', true)) {
				// a man to take on the promotion rank, often
				for _, df := range []int{-1, 1} {
					if f+df >= 0 && f+df < 8 && rng.IntN(3) == 0 {
						put(s+dir+df, letter("qrbn"[rng.IntN(4)], false))
					}
				}
			}
		}
		placeKings(rng, &grid)
	case EnPassant:
		// the pawn that pushed two stands on the fourth rank (White's) or
		// the fifth (Black's); the side to move takes
		f := rng.IntN(8)
		pushed, taker, epSq := 3*8+f, 'p', 2*8+f
		side = "b"
		if rng.IntN(2) == 0 {
			pushed, taker, epSq = 4*8+f, 'P', 5*8+f
			side = "w"
		}
		pawn := byte('P')
		if taker == 'P' {
			pawn = 'p'
		}
		put(pushed, pawn)
		df := 1
		if f == 7 || f > 0 && rng.IntN(2) == 0 {
			df = -1
		}
		put(pushed+df, byte(taker))
		ep = squareName(epSq)
		placeKings(rng, &grid)
	case Castling:
		put(4, 'K')
		put(60, 'k')
		var r strings.Builder
		for _, c := range []struct {
			sq     int
			letter byte
			right  string
		}{{7, 'R', "K"}, {0, 'R', "Q"}, {63, 'r', "k"}, {56, 'r', "q"}} {
			if rng.IntN(3) > 0 && put(c.sq, c.letter) {
				r.WriteString(c.right)
			}
		}
		if r.Len() > 0 {
			rights = r.String()
		}
	case Pin:
		placeKings(rng, &grid)
		king := findKing(&grid, letter('k', true))
		// a man of the king's, then a line piece of the other side, on
		// one line from the king
		dirs := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
		d := dirs[rng.IntN(len(dirs))]
		pinner := byte('r')
		if d[0] != 0 && d[1] != 0 {
			pinner = 'b'
		}
		if rng.IntN(2) == 0 {
			pinner = 'q'
		}
		f, r := king%8, king/8
		at := 1 + rng.IntN(2)
		for k := 1; k <= 7; k++ {
			f, r = f+d[0], r+d[1]
			if f < 0 || f > 7 || r < 0 || r > 7 {
				break
			}
			if k == at {
				put(r*8+f, letter("pnbrq"[rng.IntN(5)], true))
			} else if k > at && rng.IntN(3) == 0 {
				put(r*8+f, letter(pinner, false))
				break
			}
		}
	case SelfBlock:
		placeKings(rng, &grid)
		king := findKing(&grid, letter('k', true))
		for _, s := range Ring(king) {
			if rng.IntN(3) == 0 {
				put(s, letter("pnbrq"[rng.IntN(5)], true))
			}
		}
	case Crowd:
		placeKings(rng, &grid)
		king := findKing(&grid, letter('k', true))
		for n := 2 + rng.IntN(2); n > 0; n-- {
			s := king + (rng.IntN(5)-2)*8 + rng.IntN(5) - 2
			put(s, letter("qrbn"[rng.IntN(4)], false))
		}
		extra = rng.IntN(2)
	case Smother:
		// the king on an edge square, its own men on about half the
		// squares round it, the other side's king far off, one or two
		// knights near
		edge := []int{0, 7, 56, 63, 1, 6, 8, 15, 48, 55, 57, 62}
		king := edge[rng.IntN(len(edge))]
		put(king, letter('k', true))
		for _, sq := range Ring(king) {
			if rng.IntN(2) == 0 {
				put(sq, letter("pnbrq"[rng.IntN(5)], true))
			}
		}
		for n := 1 + rng.IntN(2); n > 0; n-- {
			f, r := king%8+rng.IntN(7)-3, king/8+rng.IntN(7)-3
			if f >= 0 && f < 8 && r >= 0 && r < 8 {
				put(r*8+f, letter('n', false))
			}
		}
		for {
			if sq := rng.IntN(64); grid[sq] == 0 && (sq%8-king%8)*(sq%8-king%8)+(sq/8-king/8)*(sq/8-king/8) > 8 {
				grid[sq] = letter('k', false)
				break
			}
		}
		// no men of other kinds; perhaps a pawn or knight of the other side
		extra = 0
		if rng.IntN(2) == 0 {
			others = string(letter("pn"[rng.IntN(2)], false))
		}
	}
	const kinds = "QRBNPqrbnp"
	men := others
	for ; extra > 0; extra-- {
		men += string(kinds[rng.IntN(len(kinds))])
	}
	// pawns of the theme stay off the first and last ranks
	for s := range grid {
		if (grid[s] == 'P' || grid[s] == 'p') && (s < 8 || s >= 56) {
			grid[s] = 0
		}
	}
	return PlacementOn(rng, &grid, men) + " " + side + " " + rights + " " + ep + " 0 1"
}

// placeKings puts both kings on random empty squares, unless there.
func placeKings(rng *rand.Rand, grid *[64]byte) {
	for _, k := range []byte{'K', 'k'} {
		if findKing(grid, k) >= 0 {
			continue
		}
		for {
			if s := rng.IntN(64); grid[s] == 0 {
				grid[s] = k
				break
			}
		}
	}
}

// findKing is the square of the king k, or -1.
func findKing(grid *[64]byte, k byte) int {
	for s, c := range grid {
		if c == k {
			return s
		}
	}
	return -1
}

// Ring is the squares round s (a1 is 0).
func Ring(s int) []int {
	var out []int
	for dr := -1; dr <= 1; dr++ {
		for df := -1; df <= 1; df++ {
			f, r := s%8+df, s/8+dr
			if (df != 0 || dr != 0) && f >= 0 && f < 8 && r >= 0 && r < 8 {
				out = append(out, r*8+f)
			}
		}
	}
	return out
}

func squareName(s int) string { return string([]byte{byte('a' + s%8), byte('1' + s/8)}) }
