package dtm

import (
	"math/bits"

	"mateline.dev/mateline/board"
)

// capture is a capture read for a whole row: the positions where it is
// legal, and its value there, read through one reader per piece a pawn
// may become (four when it promotes), or one value when every position
// leads to the same one (the free man takes a fixed man).
type capture struct {
	bits  uint64
	n     int
	rd    [4]rowReader
	fixed bool
	v     Value
}

// at adds the capture's values at square f to best.
func (c *capture) at(f board.Square, best *bestMove) {
	if c.fixed {
		best.add(c.v)
		return
	}
	for i := 0; i < c.n; i++ {
		best.add(c.rd[i].at(f))
	}
}

// rowCaptures lists the captures of s in row sq (the fixed men,
// occupancy occ) among the legal positions lg. slow holds the positions
// where a capture could not be read for the row (a reader whose symmetry
// depends on the square): they are generated one by one.
func (g *rowGen) rowCaptures(w *worker, sq *squares, occ board.Bitboard, s board.Color, lg uint64, out []capture) ([]capture, uint64, bool) {
	l := g.l
	nd := node{n: l.men, pc: l.pieces, sq: *sq, stm: s, ep: board.NoSquare}
	var enemy board.Bitboard // the other side's fixed men but the king
	for j := 2; j < l.men; j++ {
		if j != g.free && l.pieces[j].Color() != s {
			enemy |= board.SquareBB(sq[j])
		}
	}
	slow := uint64(0)
	last := board.Bitboard(0xff00000000000000)
	if s == board.Black {
		last = 0xff
	}
	for i := 0; i < l.men; i++ {
		pc := l.pieces[i]
		if pc.Color() != s {
			continue
		}
		if i == g.free {
			// the free man takes a fixed man: the same position after it
			// from every square
			for e := enemy; e != 0; {
				y := e.PopFirst()
				from := uint64(board.Attacks(pc.Type(), s, y, occ)) & lg
				if from == 0 {
					continue
				}
				nd.sq[g.free] = board.Square(bits.TrailingZeros64(from))
				w.child = nd.play(move{slot: int8(i), capture: nd.at(y), to: y})
				if !w.child.legal() {
					continue
				}
				v, err := g.b.childValue(w, &w.child)
				if err != nil {
					g.b.fail(err)
					return out, 0, false
				}
				out = append(out, capture{bits: from, fixed: true, v: v})
			}
			continue
		}
		att := board.Attacks(pc.Type(), s, sq[i], occ)
		promotes := pc.Type() == board.Pawn
		// a fixed man takes a fixed man: the free man stays where it is
		for e := att & enemy; e != 0; {
			y := e.PopFirst()
			j := int(nd.at(y))
			child := *sq
			child[i] = y
			b := lg &^ uint64(board.Between(sq[i], y)) & g.safeBits(&child, occ&^board.SquareBB(sq[i]), s.Other(), g.free, j)
			if b == 0 {
				continue
			}
			var ok bool
			if out, ok = g.addCapture(w, &nd, out, b, move{slot: int8(i), capture: int8(j), to: y}, promotes && last.Has(y)); !ok {
				slow |= b
			}
		}
		// a fixed man takes the free man
		if g.fpc.Color() == s || g.fpc.Type() == board.King {
			continue
		}
		targets := uint64(att) & lg &^ uint64(occ)
		if targets == 0 {
			continue
		}
		targets &= g.safeBits(sq, occ&^board.SquareBB(sq[i]), s.Other(), i, g.free)
		for _, part := range [2]uint64{targets &^ uint64(last), targets & uint64(last)} {
			if part == 0 {
				continue
			}
			to := board.Square(bits.TrailingZeros64(part))
			var ok bool
			if out, ok = g.addCapture(w, &nd, out, part, move{slot: int8(i), capture: int8(g.free), to: to}, promotes && last.Has(to)); !ok {
				slow |= part
			}
		}
	}
	return out, slow, true
}

// addCapture appends the capture m (its four promotions when promote),
// legal on the positions b, read for the row; false when a reader does
// not serve the row.
func (g *rowGen) addCapture(w *worker, nd *node, out []capture, b uint64, m move, promote bool) ([]capture, bool) {
	c := capture{bits: b}
	// the man whose square varies along the row: the free man, or the man
	// that took it; play moves the last man to the taken one's slot
	if m.capture != int8(g.free) {
		nd.sq[g.free] = board.Square(bits.TrailingZeros64(b))
	}
	vary := int8(g.free)
	if m.capture == vary {
		vary = m.slot
	}
	if vary == int8(nd.n-1) {
		vary = m.capture
	}
	promos := [4]board.PieceType{board.NoPieceType}
	c.n = 1
	if promote {
		promos, c.n = [4]board.PieceType{board.Queen, board.Rook, board.Bishop, board.Knight}, 4
	}
	for k := 0; k < c.n; k++ {
		m.promo = promos[k]
		w.child = nd.play(m)
		if c.rd[k] = g.newReader(w, &w.child, int(vary), 0); !c.rd[k].ok {
			return out, false
		}
	}
	return append(out, c), true
}
