package generate

import (
	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// push is a pawn's step without capture: the positions where it is
// legal and, for a plain step, the row it leads to, and 7 when that row
// is stored mirrored (the free man's square is then f^7), else 0. A
// promotion, or a double step beside an enemy pawn (which gives an
// en-passant right), is played position by position instead (slot, to).
type push struct {
	legal   uint64
	row     int64
	flip    board.Square
	special bool
	slot    int8
	to      board.Square
	// a promotion read for the whole row: the readers of the queen, rook,
	// bishop and knight
	promote bool
	rd      [4]rowReader
}

// pushes lists the pawn steps of s in row sq (fixed men, occupancy occ).
func (g *rowGen) pushes(sq *tablefile.Squares, occ board.Bitboard, s board.Color, out []push) []push {
	l := g.l
	dir, start, last := board.Square(8), 1, 7
	if s == board.Black {
		dir, start, last = -8, 6, 0
	}
	for _, i := range l.Pawns {
		if l.Pieces[i].Color() != s {
			continue
		}
		a := sq[i]
		to := a + dir
		if occ.Has(to) {
			continue
		}
		child := *sq
		child[i] = to
		after := occ&^board.SquareBB(a) | board.SquareBB(to)
		legal := g.legalBits(&child, after, s.Other())
		if int(to)/8 == last {
			out = append(out, push{legal: legal, special: true, slot: int8(i), to: to})
			continue
		}
		row, mirror := g.pawnRow(&child)
		out = append(out, push{legal: legal, row: row, flip: flipOf(mirror)})
		to2 := to + dir
		if int(a)/8 != start || occ.Has(to2) {
			continue
		}
		child[i] = to2
		after = occ&^board.SquareBB(a) | board.SquareBB(to2)
		legal = g.legalBits(&child, after, s.Other()) &^ (1 << to)
		if g.enemyPawnBeside(sq, to2, s) {
			out = append(out, push{legal: legal, special: true, slot: int8(i), to: to2})
			continue
		}
		row, mirror = g.pawnRow(&child)
		out = append(out, push{legal: legal, row: row, flip: flipOf(mirror)})
	}
	return out
}

func flipOf(mirror bool) board.Square {
	if mirror {
		return 7
	}
	return 0
}

// enemyPawnBeside reports whether a pawn of the other side stands next to
// s's pawn arriving on to by a double step (it could take en passant).
func (g *rowGen) enemyPawnBeside(sq *tablefile.Squares, to board.Square, s board.Color) bool {
	for _, j := range g.l.Pawns {
		if g.l.Pieces[j].Color() != s {
			e := sq[j]
			if e/8 == to/8 && (e == to-1 && to%8 != 0 || e == to+1 && to%8 != 7) {
				return true
			}
		}
	}
	return false
}
