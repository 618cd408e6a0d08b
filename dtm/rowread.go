package dtm

import (
	"math/bits"

	"mateline.dev/mateline/board"
)

// rowReader reads, in another table, the positions a conversion leads to
// from the positions of one row: they differ only in the square of one
// man (the free man, or the man that took it), so their indices differ
// only in that man's digit, under one symmetry. It is built from the
// first such position a row meets, and holds for the row.
type rowReader struct {
	ok     bool // false: the symmetry depends on the square; read one by one
	draw   bool // bare kings
	data   []byte
	base   int64
	weight int64
	tr     *[64]board.Square
	flip   board.Square // 56 when the table has the colours swapped
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
	js, count := -1, 0
	for i := 0; i < l.men; i++ {
		if l.pieces[i] == nd.pc[vary] {
			js, count = i, count+1
		}
	}
	if count != 1 || l.pieces[js].Type() == board.Pawn || len(l.pawns) == 0 && js < 2 {
		return rd
	}
	// exactly one symmetry must give a stored form, whatever the square
	var mask uint8 = 3
	if len(l.pawns) == 0 {
		mask = kkTransforms[sq[0]][sq[1]]
	}
	t, idx, found := 0, int64(0), 0
	for ; mask != 0; mask &= mask - 1 {
		u := bits.TrailingZeros8(mask)
		if i, ok := l.indexUnder(&transforms[u], &sq); ok {
			t, idx, found = u, i, found+1
		}
	}
	if found != 1 {
		return rd
	}
	rd.ok = true
	rd.tr = &transforms[t]
	rd.weight = l.weight[js]
	rd.base = idx - rd.weight*int64(rd.tr[sq[js]])
	rd.data = r.t.data[int64(nd.stm)*l.size : int64(nd.stm+1)*l.size]
	return rd
}

// at reads the position whose varying man stands on s (rd.ok).
func (rd *rowReader) at(s board.Square) Value {
	if rd.draw {
		return Draw
	}
	return Value(rd.data[rd.base+rd.weight*int64(rd.tr[s^rd.flip])])
}
