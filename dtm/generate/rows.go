package generate

import (
	"math/bits"
	"sync/atomic"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// Tables are built 64 positions at a time: the positions that differ
// only in the square of one man, the free man, form a row, and a set of
// them is one 64-bit word, a bitboard of the free man's squares. The free
// man is the man whose square is the lowest digit of an index: the last
// piece, or the black king when the kings stand alone with pawns. The
// moves of the free man stay in its row; the moves of the other men map
// one row onto another, the free man masked where it would block a
// slider. No position keeps a count of its moves:
//
//   - a position wins at ply p when it has a quiet move into a position
//     lost at ply p-1 (the rows of the lost positions are scattered to
//     their predecessors) or a conversion wins then;
//   - a position is lost at ply p when the opponent just won one of its
//     successors (a scatter again) or its conversions lose then, and no
//     quiet move leads to a position the opponent has not won (the row's
//     successors are gathered and tested: a verification, not a count).
//
// Conversions (captures, pawn moves) are read once per position in the
// set-up, as before; a pawn's step without capture or promotion is read
// for a whole row at once, from the row it leads to.
//
// A table with pawns is numbered as its layout numbers it (slices of pawn
// placements, solved in groups, most advanced first). A pawnless table is
// numbered the generator's own way, without reducing the symmetries
// fully: the white king on one of the ten squares of the triangle
// a1-d1-d4 (a king move out of it is mapped back by a symmetry of the
// board, bitboard and all), every other man a digit of 64. With the white
// king on the diagonal a1-d4, the rows with the black king above the
// diagonal are not solved: a move into one goes to its transposed form
// (unsolved). Either way a position symmetric to another (both kings on
// the diagonal, or a symmetric pawn placement), or with identical men
// swapped, is solved twice, with the same result; the layout keeps one
// form, and the other slots are cleared at the end.

// Squares of the white king's triangle, and symmetries back into it.
var (
	triCode    [64]int8         // a square's place in the triangle, or -1
	triSquares [10]board.Square // the triangle's squares
	// canonT[s] is the first symmetry taking s into the triangle
	canonT [64]uint8
	// invTransform[t] undoes symmetry t
	invTransform [8]uint8
	// transposed[t] is symmetry t, then the swap of files and ranks
	transposed [8]uint8
	// kingPreds[c][u] holds, for a white king on the triangle's square c
	// after a move, the triangle squares from which a king move reaches
	// the image of c under symmetry u
	kingPreds [10][8]board.Bitboard
)

func init() {
	n := 0
	for s := 0; s < 64; s++ {
		triCode[s] = -1
		if f, r := s&7, s>>3; f <= 3 && r <= f {
			triCode[s] = int8(n)
			triSquares[n] = board.Square(s)
			n++
		}
	}
	for s := 0; s < 64; s++ {
		for t := 0; t < 8; t++ {
			if triCode[tablefile.Transforms[t][s]] >= 0 {
				canonT[s] = uint8(t)
				break
			}
		}
	}
	for t := 0; t < 8; t++ {
		for u := 0; u < 8; u++ {
			inverse := true
			for s := 0; s < 64; s++ {
				if tablefile.Transforms[u][tablefile.Transforms[t][s]] != board.Square(s) {
					inverse = false
					break
				}
			}
			if inverse {
				invTransform[t] = uint8(u)
			}
			same := true
			for s := 0; s < 64; s++ {
				if tablefile.Transforms[u][s] != tablefile.Transforms[transpose][tablefile.Transforms[t][s]] {
					same = false
					break
				}
			}
			if same {
				transposed[t] = uint8(u)
			}
		}
	}
	for c, b := range triSquares {
		for u := 0; u < 8; u++ {
			for to := board.KingAttacks(tablefile.Transforms[u][b]); to != 0; {
				if a := to.PopFirst(); triCode[a] >= 0 {
					kingPreds[c][u] |= board.SquareBB(a)
				}
			}
		}
	}
}

// transpose is the symmetry that swaps files and ranks: it keeps the
// squares of the a1-h8 diagonal.
const transpose = 4

// unsolved reports whether a pawnless table's rows with the white king
// on w (in the triangle) and the black king on b are left to their
// transposed form: w on the diagonal, b above it. The layout keeps only
// the form with the black king below or on the diagonal too; moves into
// such a row go to its transposed form, the bitboard transposed.
func unsolved(w, b board.Square) bool {
	return w&7 == w>>3 && b>>3 > b&7
}

// twinned reports whether both kings stand on the a1-h8 diagonal: each
// position is solved in both forms, itself and transposed. A king's move
// into such a position may come from a position whose transposed form is
// unsolved: scatter marks both forms of the predecessor.
func twinned(w, b board.Square) bool {
	return w&7 == w>>3 && b&7 == b>>3
}

// transposedRow is, in a pawnless table, the row (from lo) of the fixed
// men sq, the black king on b, when unsolved leaves it to its
// transposed form: that form's row.
func (g *rowGen) transposedRow(sq *tablefile.Squares, b board.Square) int64 {
	m := *sq
	m[1] = b
	rest, _ := g.restUnder(transpose, &m)
	return int64(triCode[sq[0]])*g.weight[0] + rest - g.lo
}

// bbTransform maps a set of squares by symmetry t (as transforms[t] maps
// one square).
func bbTransform(t uint8, x uint64) uint64 {
	if t&1 != 0 { // mirror the files
		x = bits.ReverseBytes64(bits.Reverse64(x))
	}
	if t&2 != 0 { // mirror the ranks
		x = bits.ReverseBytes64(x)
	}
	if t&4 != 0 { // swap files and ranks
		const k1, k2, k4 = 0x5500550055005500, 0x3333000033330000, 0x0f0f0f0f00000000
		y := k4 & (x ^ x<<28)
		x ^= y ^ y>>28
		y = k2 & (x ^ x<<14)
		x ^= y ^ y>>14
		y = k1 & (x ^ x<<7)
		x ^= y ^ y>>7
	}
	return x
}

// rowGen is the build of one table by rows.
type rowGen struct {
	b *builder
	l *tablefile.Layout
	rowNumbering
	tableBits
	rowGroup
}

// rowNumbering is how a table's positions are numbered in rows of 64.
type rowNumbering struct {
	pawnless bool
	free     int         // the free man's slot
	fpc      board.Piece // the free man
	rows     int64       // rows of the numbering
	// weight of each fixed non-pawn man's square in a row's number (in a
	// pawnless table slot 0, the white king, counts by its place in the
	// triangle)
	weight    [tablefile.PlanMen]int64
	sliceRows int64 // rows of a slice (tables with pawns)
}

// tableBits are what the build keeps of the whole table, by the
// generator's numbering (row*64 + square).
type tableBits struct {
	// the values (their low bytes), and the same memory as bytes
	val [2]tablefile.ByteArray
	vb  [2][]byte
	// the high bytes of the values that take two (rowwide.go)
	high *highBytes
	// decided: the positions whose value a capture or a promotion gives
	// (found at the end of each group): a probe that reads those moves
	// needs no stored value
	decided [2][]uint64
	// unused: the slots no probe reads (no legal position, or a form
	// the layout does not store)
	unused [2][]uint64
}

// rowGroup is the state of the group of rows being solved: [lo, hi);
// its arrays are indexed from lo.
type rowGroup struct {
	lo, hi int64
	// conv is the best value of a position's conversions: 0 none (nothing
	// holds a loss back), 1 a draw, else the value (no conversion gives
	// lossIn(0), so the codes do not clash)
	conv   [2][]byte
	inConv [2]codeSets
	// capc: the best value of a position's captures and promotions, coded
	// as conv, for every legal position of the group
	capc [2][]byte
	// per row, bit c&63 of each conv code c it holds
	convHash [2][]uint64
	// one word per row: the legal positions with that side to move, those
	// with a quiet move, those with a value, those won
	legal, quiet, done, won [2][]uint64
	// one word per row: positions lost once their conversions are (every
	// quiet move leads to a position the other side won, the conversions
	// lose later)
	waiting [2][]uint64
	// the positions that took their value at the last ply, and those
	// found at this one
	fresh, next [2]rowSet
	// zeroed: the group's arrays are still as make left them, all zero
	// (before the first group, which need not clear them)
	zeroed bool
	// one word per row: the positions the set-up valued (no quiet move)
	// whose ply has not come yet, and the plies at which it valued some:
	// at its ply a position's value is its ply's, so a bit set a row
	// and a scan of the rows at each ply find them (a list of indices
	// took 4 bytes a position, some 10 GB in a six-man slice)
	settledRows  [2][]uint64
	settledPlies [2]plySet
	// the positions whose best conversion's value takes two bytes (their
	// conv code a draw's), by side to move
	wideConv [2]wideConversions
	pending  int // the last ply a set-up value or a conversion reaches
	lastPly  int // the last ply at which a position took a value
}

// bitSets are the words per row of the group being solved.
func (g *rowGen) bitSets() []*[2][]uint64 {
	return []*[2][]uint64{&g.legal, &g.quiet, &g.done, &g.won, &g.convHash, &g.waiting, &g.settledRows}
}

// plySet is a set of plies, up to 2*MaxWideMoves+1.
type plySet [(2*tablefile.MaxWideMoves + 64) / 64]uint64

func (ps *plySet) add(p int)      { ps[p>>6] |= 1 << (p & 63) }
func (ps *plySet) has(p int) bool { return ps[p>>6]>>(p&63)&1 != 0 }
func (ps *plySet) merge(o *plySet) {
	for i := range ps {
		ps[i] |= o[i]
	}
}

// rowSet is a set of positions, one word per row, with a summary bit per
// block of 64 rows that may hold one: a row that holds one is in a
// marked block.
type rowSet struct {
	w   []uint64
	sum []uint64
}

func newRowSet(rows int64) rowSet {
	return rowSet{make([]uint64, rows), make([]uint64, (rows+4095)/4096)}
}

// or adds x to row r. Goroutines may add at once.
func (s rowSet) or(r int64, x uint64) {
	if x == 0 {
		return
	}
	if atomic.LoadUint64(&s.w[r])&x == x {
		return
	}
	// (the old value unused: one locked instruction, not a loop)
	atomic.OrUint64(&s.w[r], x)
	s.mark(r >> 6)
}

// mark flags block blk as possibly holding a position.
func (s rowSet) mark(blk int64) {
	w, bit := &s.sum[blk>>6], uint64(1)<<(blk&63)
	if atomic.LoadUint64(w)&bit == 0 {
		atomic.OrUint64(w, bit)
	}
}

// marked reports whether block blk is flagged. (An atomic load: in a
// step, workers flag their own blocks, whose bits share words.)
func (s rowSet) marked(blk int64) bool { return atomic.LoadUint64(&s.sum[blk>>6])>>(blk&63)&1 != 0 }

// reset empties the set, touching only the marked blocks.
func (s rowSet) reset() {
	for k, word := range s.sum {
		for ; word != 0; word &= word - 1 {
			blk := int64(k)*64 + int64(bits.TrailingZeros64(word))
			clear(s.w[blk*64 : min(blk*64+64, int64(len(s.w)))])
		}
		s.sum[k] = 0
	}
}

// decodeRow returns the squares of the fixed men of row r (the free
// man's square left as 0), their occupancy, and whether they stand on
// distinct squares.
func (g *rowGen) decodeRow(r int64) (tablefile.Squares, board.Bitboard, bool) {
	var sq tablefile.Squares
	if g.pawnless {
		for i := g.free - 1; i >= 1; i-- {
			sq[i] = board.Square(r & 63)
			r >>= 6
		}
		sq[0] = triSquares[r]
		if unsolved(sq[0], sq[1]) {
			return sq, 0, false
		}
	} else {
		sq = g.l.Decode(r * 64)
	}
	var occ board.Bitboard
	ok := true
	for i := 0; i < g.l.Men; i++ {
		if i == g.free {
			continue
		}
		if occ.Has(sq[i]) {
			ok = false
		}
		occ |= board.SquareBB(sq[i])
	}
	return sq, occ, ok
}

// pawnRow returns the row of the fixed men sq of a table with pawns, and
// whether it is their mirror image that is stored (the free man's square
// is then mirrored too).
func (g *rowGen) pawnRow(sq *tablefile.Squares) (int64, bool) {
	l := g.l
	var raw [tablefile.PlanMen]int8
	pr := raw[:len(l.Pawns)]
	for i, s := range l.Pawns {
		pr[i] = int8(sq[s]) - 8
	}
	l.SortPawnGroups(pr)
	slice, mirror := l.SliceOf[tablefile.RawOf(pr)], false
	if slice < 0 {
		for i, s := range l.Pawns {
			pr[i] = (int8(sq[s]) - 8) ^ 7
		}
		l.SortPawnGroups(pr)
		slice, mirror = l.SliceOf[tablefile.RawOf(pr)], true
	}
	r := int64(slice) * g.sliceRows
	for i := 0; i < l.Men; i++ {
		if g.weight[i] != 0 {
			s := sq[i]
			if mirror {
				s ^= 7
			}
			r += int64(s) * g.weight[i]
		}
	}
	return r, mirror
}

// restUnder numbers, in a pawnless table, the fixed men but the white
// king after symmetry u (the row less the white king's part), and
// returns their occupancy.
func (g *rowGen) restUnder(u uint8, sq *tablefile.Squares) (int64, board.Bitboard) {
	r, occ := int64(0), board.Bitboard(0)
	for j := 1; j < g.free; j++ {
		t := tablefile.Transforms[u][sq[j]]
		r += int64(t) * g.weight[j]
		occ |= board.SquareBB(t)
	}
	return r, occ
}

// legalBits returns the free man's squares on which the position with s
// to move is legal: the square empty, the other king not attacked.
func (g *rowGen) legalBits(sq *tablefile.Squares, occ board.Bitboard, s board.Color) uint64 {
	return g.safeBits(sq, occ, s, g.free, -1)
}

// safeBits returns the squares of the man in slot free (a piece or a
// king, not a pawn, when it is one of s's men) on which the other side's
// king is not attacked by s's men, the man in slot skip gone (-1: none).
// occ is the occupancy of the men but those two.
func (g *rowGen) safeBits(sq *tablefile.Squares, occ board.Bitboard, s board.Color, free, skip int) uint64 {
	king := 1 // the other side's king
	if s == board.Black {
		king = 0
	}
	att := uint64(0)
	if king == free { // the king is the free man: where is it attacked?
		for i := 0; i < g.l.Men; i++ {
			if pc := g.l.Pieces[i]; i != free && i != skip && pc.Color() == s {
				att |= uint64(board.Attacks(pc.Type(), s, sq[i], occ))
			}
		}
		return ^uint64(occ) &^ att
	}
	k := sq[king]
	for i := 0; i < g.l.Men; i++ {
		pc := g.l.Pieces[i]
		if i != free && i != skip && pc.Color() == s && board.Attacks(pc.Type(), s, sq[i], occ).Has(k) {
			att |= ^uint64(board.Between(sq[i], k)) // unless the free man blocks
		}
	}
	if fpc := g.l.Pieces[free]; fpc.Color() == s {
		att |= uint64(board.Attacks(fpc.Type(), s, k, occ))
	}
	return ^uint64(occ) &^ att
}

// gather returns the positions of want (in row r, s to move) with a
// quiet move into a position of inc and not of exc (exc may be nil), the
// other side to move.
func (g *rowGen) gather(r int64, sq *tablefile.Squares, occ board.Bitboard, s board.Color, inc, exc []uint64, want uint64) uint64 {
	set := func(r int64) uint64 {
		r -= g.lo
		if exc != nil {
			return inc[r] &^ exc[r]
		}
		return inc[r]
	}
	got := uint64(0)
	if g.fpc.Color() == s {
		if x := set(r); x != 0 {
			got = g.freeReach(x, occ, want)
		}
	}
	for i := 0; i < g.l.Men && got != want; i++ {
		pc := g.l.Pieces[i]
		if i == g.free || pc.Color() != s || pc.Type() == board.Pawn {
			continue
		}
		a := sq[i]
		for to := board.Attacks(pc.Type(), s, a, occ) &^ occ; to != 0 && got != want; {
			b := to.PopFirst()
			var x uint64
			switch {
			case i == 0 && g.pawnless:
				t := canonT[b]
				if unsolved(tablefile.Transforms[t][b], tablefile.Transforms[t][sq[1]]) {
					t = transposed[t]
				}
				rest, _ := g.restUnder(t, sq)
				x = bbTransform(invTransform[t], set(int64(triCode[tablefile.Transforms[t][b]])*g.weight[0]+rest))
			case i == 1 && g.pawnless && unsolved(sq[0], b):
				x = bbTransform(transpose, set(g.transposedRow(sq, b)+g.lo))
			default:
				x = set(r + (int64(b)-int64(a))*g.weight[i])
			}
			got |= x & want &^ uint64(board.Between(a, b)|board.SquareBB(b))
		}
	}
	return got
}

// freeReach returns, of the squares of want, those from which the free
// man (not a pawn) moves to a square of x, or, as its moves are the same
// both ways, to which it moves from one: the fixed men occ block, and
// none stands on a square of x or want. A slider's attacks are looked up
// square by square when one of the sets is small, else filled for the
// whole set.
func (g *rowGen) freeReach(x uint64, occ board.Bitboard, want uint64) uint64 {
	t := g.fpc.Type()
	if t == board.Knight || t == board.King {
		return want & uint64(board.SetAttacks(t, board.Bitboard(x), occ))
	}
	nx, nw := bits.OnesCount64(x), bits.OnesCount64(want)
	got := uint64(0)
	switch {
	case nw <= slideLookups && nw <= nx:
		for y := want; y != 0; y &= y - 1 {
			f := board.Square(bits.TrailingZeros64(y))
			if uint64(board.Attacks(t, board.White, f, occ))&x != 0 {
				got |= 1 << f
			}
		}
		return got
	case nx <= slideLookups:
		for y := x; y != 0; y &= y - 1 {
			got |= uint64(board.Attacks(t, board.White, board.Square(bits.TrailingZeros64(y)), occ))
		}
		return got & want
	}
	return want & uint64(board.SetAttacks(t, board.Bitboard(x), occ))
}

// slideLookups is the most squares whose slider attacks freeReach looks
// up one by one.
const slideLookups = 4

// scatter adds to out the predecessors (s to move) of the positions x of
// row r (the other side to move): the positions with a quiet move into
// one of them. Goroutines may scatter at once.
func (g *rowGen) scatter(r int64, x uint64, s board.Color, out rowSet) {
	sq, occ, _ := g.decodeRow(r)
	if g.fpc.Color() == s {
		out.or(r-g.lo, g.freeReach(x, occ, ^uint64(occ)))
	}
	for i := 0; i < g.l.Men; i++ {
		pc := g.l.Pieces[i]
		if i == g.free || pc.Color() != s || pc.Type() == board.Pawn {
			continue
		}
		b := sq[i]
		if i == 0 && g.pawnless {
			for u, from := range kingPreds[triCode[b]] {
				if from == 0 {
					continue
				}
				rest, occT := g.restUnder(uint8(u), &sq)
				xt := bbTransform(uint8(u), x)
				// the transposed form, for a king on the diagonal with the
				// black king on it or above it (transposing keeps the
				// king's square)
				bk := tablefile.Transforms[u][sq[1]]
				var restT int64
				var xtT uint64
				if bk>>3 >= bk&7 {
					restT, _ = g.restUnder(transposed[u], &sq)
					xtT = bbTransform(transposed[u], x)
				}
				for from &^= occT; from != 0; {
					a := from.PopFirst()
					if !unsolved(a, bk) {
						out.or(int64(triCode[a])*g.weight[0]+rest-g.lo, xt&^(1<<a))
					}
					if unsolved(a, bk) || twinned(a, bk) {
						out.or(int64(triCode[a])*g.weight[0]+restT-g.lo, xtT&^(1<<a))
					}
				}
			}
			continue
		}
		for from := board.Attacks(pc.Type(), s, b, occ) &^ occ; from != 0; {
			a := from.PopFirst()
			y := x &^ uint64(board.Between(a, b)|board.SquareBB(a))
			bkMoves := i == 1 && g.pawnless
			if !bkMoves || !unsolved(sq[0], a) {
				out.or(r-g.lo+(int64(a)-int64(b))*g.weight[i], y)
			}
			if bkMoves && (unsolved(sq[0], a) || twinned(sq[0], a)) {
				out.or(g.transposedRow(&sq, a), bbTransform(transpose, y))
			}
		}
	}
}
