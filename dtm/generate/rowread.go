package generate

import (
	"math/bits"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
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
	// the values of the side to move read, or, when the build does not
	// hold them whole (a six-man table a promotion leads to), nil and
	// the table read through its file
	data []byte
	src  Source
	side board.Color
	tr   *[64]board.Square
	flip board.Square // 56 when the table has the colours swapped
	// the squares (after tr, in order) of the men identical to the varying
	// one, and the index's base and the varying man's weight by how many of
	// them stand below it
	n            int
	gs           [tablefile.PlanMen]board.Square
	base, weight [tablefile.PlanMen]int64
}

// newReader builds the reader of the positions like ch (another
// material) that differ in the square of its man vary.
func (g *rowGen) newReader(w *worker, ch *tablefile.Node, vary int) rowReader {
	var rd rowReader
	r, err := g.b.tableOf(w, ch)
	if err != nil {
		return rd // (childValue meets the error again)
	}
	if r.Table == nil {
		rd.ok, rd.draw = true, true
		return rd
	}
	nd := *ch
	if r.Flip {
		nd = ch.Flipped()
		rd.flip = 56
	}
	l := r.Table.Layout()
	sq, ok := l.SlotsOf(&nd)
	if !ok {
		return rd
	}
	// the slots of the varying man's kind: a run
	pc := nd.Pieces[vary]
	g0, g1 := -1, -1
	for i := 0; i < l.Men; i++ {
		if l.Pieces[i] == pc {
			if g0 < 0 {
				g0 = i
			}
			g1 = i + 1
		}
	}
	if pc.Type() == board.Pawn || len(l.Pawns) == 0 && g0 < 2 {
		return rd
	}
	// exactly one symmetry must give a stored form, whatever the square
	var mask uint8 = 3
	if len(l.Pawns) == 0 {
		mask = tablefile.KkTransforms[sq[0]][sq[1]]
	}
	t, found := 0, 0
	for ; mask != 0; mask &= mask - 1 {
		u := bits.TrailingZeros8(mask)
		if _, ok := l.IndexUnder(&tablefile.Transforms[u], &sq); ok {
			t, found = u, found+1
		}
	}
	if found != 1 {
		return rd
	}
	tr := &tablefile.Transforms[t]
	var ts tablefile.Squares
	for i := 0; i < l.Men; i++ {
		ts[i] = tr[sq[i]]
	}
	// other identical men go in increasing order, as the layout stores them
	for _, gr := range l.Groups {
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
	own, skipped := tr[nd.Sq[vary]], false
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
		idx, ok := l.Digits(&tablefile.Transforms[0], &ts)
		if !ok {
			return rd
		}
		rd.base[k], rd.weight[k] = idx, l.Weight[g0+k]
	}
	rd.ok, rd.tr = true, tr
	if raw := r.Table.Values(); raw != nil {
		rd.data = raw[int64(nd.Stm)*l.Size : int64(nd.Stm+1)*l.Size]
	} else {
		rd.src, rd.side = r.Table, nd.Stm
	}
	return rd
}

// at reads the position whose varying man stands on s (rd.ok).
func (rd *rowReader) at(s board.Square) (tablefile.Value, error) {
	switch {
	case rd.draw:
		return tablefile.Draw, nil
	case rd.data == nil:
		return rd.src.ReadIndex(rd.side, rd.index(s))
	}
	return tablefile.Value(rd.data[rd.index(s)]), nil
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
