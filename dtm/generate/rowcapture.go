package generate

import (
	"math/bits"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
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
	v     tablefile.Value
	// no reader serves the row (the symmetry of the table read depends on
	// the square): the capture is played in each position
	each bool
	m    tablefile.Move
}

// captureAt adds the values of capture c at square f to best (nd is the
// position, the free man on f); false when a table could not be read.
func (g *rowGen) captureAt(w *worker, c *capture, nd *tablefile.Node, f board.Square, best *tablefile.BestMove) bool {
	switch {
	case c.fixed:
		best.Add(c.v)
	case c.each:
		m := c.m
		if m.Capture == int8(g.free) {
			m.To = f
		}
		w.moves = w.moves[:0]
		for k := 0; k < c.n; k++ {
			if c.n == 4 {
				m.Promo = tablefile.Promotions[k]
			}
			w.moves = append(w.moves, m)
		}
		return g.addMoves(w, nd, best)
	default:
		for i := 0; i < c.n; i++ {
			v, err := c.rd[i].at(f)
			if err != nil {
				g.b.fail(err)
				return false
			}
			best.Add(v)
		}
	}
	return true
}

// rowCaptures lists the captures of s in row sq (the fixed men,
// occupancy occ) among the legal positions lg; false when a table could
// not be read.
func (g *rowGen) rowCaptures(w *worker, sq *tablefile.Squares, occ board.Bitboard, s board.Color, lg uint64, out []capture) ([]capture, bool) {
	l := g.l
	nd := tablefile.Node{N: l.Men, Pieces: l.Pieces, Sq: *sq, Stm: s, Ep: board.NoSquare}
	var enemy board.Bitboard // the other side's fixed men but the king
	for j := 2; j < l.Men; j++ {
		if j != g.free && l.Pieces[j].Color() != s {
			enemy |= board.SquareBB(sq[j])
		}
	}
	last := board.Bitboard(0xff00000000000000)
	if s == board.Black {
		last = 0xff
	}
	for i := 0; i < l.Men; i++ {
		pc := l.Pieces[i]
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
				nd.Sq[g.free] = board.Square(bits.TrailingZeros64(from))
				w.child = nd.Play(tablefile.Move{Slot: int8(i), Capture: nd.At(y), To: y})
				if !w.child.Legal() {
					continue
				}
				v, err := g.b.childValue(w, &w.child)
				if err != nil {
					g.b.fail(err)
					return out, false
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
			j := int(nd.At(y))
			child := *sq
			child[i] = y
			b := lg &^ uint64(board.Between(sq[i], y)) & g.safeBits(&child, occ&^board.SquareBB(sq[i]), s.Other(), g.free, j)
			if b == 0 {
				continue
			}
			out = g.addCapture(w, &nd, out, b, tablefile.Move{Slot: int8(i), Capture: int8(j), To: y}, promotes && last.Has(y))
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
			out = g.addCapture(w, &nd, out, part, tablefile.Move{Slot: int8(i), Capture: int8(g.free), To: to}, promotes && last.Has(to))
		}
	}
	return out, true
}

// addCapture appends the capture m (its four promotions when promote),
// legal on the positions b, read for the row when readers serve it.
func (g *rowGen) addCapture(w *worker, nd *tablefile.Node, out []capture, b uint64, m tablefile.Move, promote bool) []capture {
	c := capture{bits: b, m: m, n: 1}
	// the man whose square varies along the row: the free man, or the man
	// that took it; play moves the last man to the taken one's slot
	if m.Capture != int8(g.free) {
		nd.Sq[g.free] = board.Square(bits.TrailingZeros64(b))
	}
	vary := int8(g.free)
	if m.Capture == vary {
		vary = m.Slot
	}
	if vary == int8(nd.N-1) {
		vary = m.Capture
	}
	if promote {
		c.n = 4
	}
	for k := 0; k < c.n; k++ {
		if promote {
			m.Promo = tablefile.Promotions[k]
		}
		w.child = nd.Play(m)
		if c.rd[k] = g.newReader(w, &w.child, int(vary)); !c.rd[k].ok {
			c.each = true
			break
		}
	}
	return append(out, c)
}
