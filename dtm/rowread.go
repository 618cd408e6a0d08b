package dtm

import (
	"math/bits"

	"mateline.dev/mateline/board"
)

// rowReader reads, in another table, the positions a conversion leads to
// from the positions of one row: they differ only in the square of one
// man (the free man, or the man that took it), so their indices differ
// only in that man's digit, under one symmetry, and in the order it takes
// among men identical to it. It is built from the first such position a
// row meets, and holds for the row.
type rowReader struct {
	ok   bool // false: the symmetry depends on the square; read one by one
	draw bool // bare kings
	data []byte
	tr   *[64]board.Square
	flip board.Square // 56 when the table has the colours swapped
	// the squares (after tr, in order) of the men identical to the varying
	// one, and the index's base and the varying man's weight by how many of
	// them stand below it
	n            int
	gs           [PlanMen]board.Square
	base, weight [PlanMen]int64
}

// newReader builds the reader of the positions like ch (another
// material) that differ in the square of its man vary.
func (g *rowGen) newReader(w *worker, ch *node, vary int) rowReader {
	var rd rowReader
	r, err := g.b.tableOf(w, ch)
	if err != nil {
		return rd // (childValue meets the error again)
	}
	if r.t == nil {
		rd.ok, rd.draw = true, true
		return rd
	}
	nd := *ch
	if r.flip {
		nd = ch.flipped()
		rd.flip = 56
	}
	l := r.t.l
	sq, ok := l.slotsOf(&nd)
	if !ok {
		return rd
	}
	// the slots of the varying man's kind: a run
	pc := nd.pc[vary]
	g0, g1 := -1, -1
	for i := 0; i < l.men; i++ {
		if l.pieces[i] == pc {
			if g0 < 0 {
				g0 = i
			}
			g1 = i + 1
		}
	}
	if pc.Type() == board.Pawn || len(l.pawns) == 0 && g0 < 2 {
		return rd
	}
	// exactly one symmetry must give a stored form, whatever the square
	var mask uint8 = 3
	if len(l.pawns) == 0 {
		mask = kkTransforms[sq[0]][sq[1]]
	}
	t, found := 0, 0
	for ; mask != 0; mask &= mask - 1 {
		u := bits.TrailingZeros8(mask)
		if _, ok := l.indexUnder(&transforms[u], &sq); ok {
			t, found = u, found+1
		}
	}
	if found != 1 {
		return rd
	}
	tr := &transforms[t]
	var ts squares
	for i := 0; i < l.men; i++ {
		ts[i] = tr[sq[i]]
	}
	// other identical men go in increasing order, as the layout stores them
	for _, gr := range l.groups {
		if gr[0] == g0 {
			continue
		}
		for i := gr[0] + 1; i < gr[1]; i++ {
			for j := i; j > gr[0] && ts[j] < ts[j-1]; j-- {
				ts[j], ts[j-1] = ts[j-1], ts[j]
			}
		}
	}
	// the identical men but the varying one, in order
	own, skipped := tr[nd.sq[vary]], false
	for i := g0; i < g1; i++ {
		if ts[i] == own && !skipped {
			skipped = true
			continue
		}
		rd.gs[rd.n] = ts[i]
		rd.n++
	}
	gs := rd.gs[:rd.n]
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && gs[j] < gs[j-1]; j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
	for k := 0; k <= rd.n; k++ {
		// the varying man on square 0 (its weight adds the rest) after k
		// of the others
		for i, j := g0, 0; i < g1; i++ {
			switch {
			case i-g0 == k:
				ts[i] = 0
			default:
				ts[i] = gs[j]
				j++
			}
		}
		idx, ok := l.digits(&transforms[0], &ts)
		if !ok {
			return rd
		}
		rd.base[k], rd.weight[k] = idx, l.weight[g0+k]
	}
	rd.ok, rd.tr = true, tr
	rd.data = r.t.rawData()[int64(nd.stm)*l.size : int64(nd.stm+1)*l.size]
	return rd
}

// at reads the position whose varying man stands on s (rd.ok).
func (rd *rowReader) at(s board.Square) Value {
	if rd.draw {
		return Draw
	}
	return Value(rd.data[rd.index(s)])
}

// index is the index, in the table read, of the position whose varying
// man stands on s.
func (rd *rowReader) index(s board.Square) int64 {
	t := rd.tr[s^rd.flip]
	k := 0
	for k < rd.n && rd.gs[k] < t {
		k++
	}
	return rd.base[k] + rd.weight[k]*int64(t)
}
