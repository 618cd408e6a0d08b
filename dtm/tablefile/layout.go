package tablefile

import (
	"fmt"
	"math/bits"
	"sort"

	"mateline.dev/mateline/board"
)

// A table's positions are numbered by an index that folds the board's
// symmetries away. Men occupy slots: 0 the white king, 1 the black king,
// then White's pieces and Black's, strongest first (pawns last).
//
// A pawnless table uses all eight symmetries of the board: the kings are
// mapped to one of 462 canonical pairs (the white king in the triangle
// a1-d1-d4, the black king on or below the a1-h8 diagonal when the white
// king is on it), and every other man adds a digit of 64. A table with
// pawns uses the left-right mirror only; it is cut into slices, one per
// placement of the pawns (each pawn a digit of 48, a2..h7), kept when the
// placement is not larger than its mirror image; inside a slice both kings
// and the other men are digits of 64.
//
// Identical men are stored with their squares in increasing order, and a
// position with more than one canonical form (a symmetric one) takes the
// smallest index. Slots that no canonical position reaches hold draws and
// are never read.

// Transforms maps each square under the eight symmetries: bit 0 mirrors
// the files, bit 1 the ranks, bit 2 swaps files and ranks.
var Transforms [8][64]board.Square

// kkIndex numbers the canonical king pairs (-1 for the others); KkPairs is
// its inverse.
var (
	kkIndex [64][64]int16
	KkPairs [][2]board.Square
)

// KkTransforms[w][b] has bit t set when symmetry t maps the kings on w
// and b to a canonical pair: one bit for most pairs, two when both kings
// end on the a1-h8 diagonal.
var KkTransforms [64][64]uint8

// KkPairCount is the number of canonical king pairs.
const KkPairCount = 462

func init() {
	for t := 0; t < 8; t++ {
		for s := 0; s < 64; s++ {
			f, r := s&7, s>>3
			if t&1 != 0 {
				f = 7 - f
			}
			if t&2 != 0 {
				r = 7 - r
			}
			if t&4 != 0 {
				f, r = r, f
			}
			Transforms[t][s] = board.Square(r*8 + f)
		}
	}
	for w := 0; w < 64; w++ {
		for b := 0; b < 64; b++ {
			kkIndex[w][b] = -1
			wf, wr, bf, br := w&7, w>>3, b&7, b>>3
			if !(wf <= 3 && wr <= wf) || w == b || abs(wf-bf) <= 1 && abs(wr-br) <= 1 {
				continue
			}
			if wf == wr && br > bf {
				continue
			}
			kkIndex[w][b] = int16(len(KkPairs))
			KkPairs = append(KkPairs, [2]board.Square{board.Square(w), board.Square(b)})
		}
	}
	for w := 0; w < 64; w++ {
		for b := 0; b < 64; b++ {
			for t := 0; t < 8; t++ {
				if kkIndex[Transforms[t][w]][Transforms[t][b]] >= 0 {
					KkTransforms[w][b] |= 1 << t
				}
			}
		}
	}
	if len(KkPairs) != KkPairCount {
		panic(fmt.Sprintf("dtm: %d canonical king pairs, want %d", len(KkPairs), KkPairCount))
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Layout is how one table's positions are numbered.
type Layout struct {
	Mat    Material
	Men    int
	Pieces [PlanMen]board.Piece // the man in each slot
	Pawns  []int                // slots of pawns
	others []int                // slots of non-king, non-pawn men
	Groups [][2]int             // runs [from, to) of identical men, longer than one
	// Weight of each slot's square in the index within a slice (0 for pawns)
	Weight     [PlanMen]int64
	inGroup    [PlanMen]bool // one of identical men
	KkWeight   int64         // weight of the king pair in a pawnless table
	PerSlice   int64         // positions in a slice
	Slices     [][]int8      // pawn squares (0..47, a2 = 0) of each slice, by pawn slot order
	SliceOf    []int32       // raw pawn placement -> slice, or -1
	transforms []int         // the symmetries used
	sliceShift uint          // log2 of perSlice, in a table with pawns
	Size       int64         // positions per side to move
	Advance    []int         // each slice's pawn advancement (build order key)
}

func NewLayout(m Material) *Layout {
	l := &Layout{Mat: m, Men: m.Men()}
	l.Pieces[0] = board.MakePiece(board.White, board.King)
	l.Pieces[1] = board.MakePiece(board.Black, board.King)
	n := 2
	for c := 0; c < 2; c++ {
		for _, t := range m.Pieces[c] {
			l.Pieces[n] = board.MakePiece(board.Color(c), t)
			if t == board.Pawn {
				l.Pawns = append(l.Pawns, n)
			} else {
				l.others = append(l.others, n)
			}
			n++
		}
	}
	for i := 2; i < n; {
		j := i + 1
		for j < n && l.Pieces[j] == l.Pieces[i] {
			j++
		}
		if j-i > 1 {
			l.Groups = append(l.Groups, [2]int{i, j})
			for k := i; k < j; k++ {
				l.inGroup[k] = true
			}
		}
		i = j
	}
	w := int64(1)
	for i := len(l.others) - 1; i >= 0; i-- {
		l.Weight[l.others[i]] = w
		w *= 64
	}
	if len(l.Pawns) == 0 {
		l.transforms = []int{0, 1, 2, 3, 4, 5, 6, 7}
		l.KkWeight = w
		l.PerSlice = w * KkPairCount
		l.Slices = [][]int8{nil}
		l.Advance = []int{0}
	} else {
		l.transforms = []int{0, 1}
		l.Weight[1] = w
		l.Weight[0] = w * 64
		l.PerSlice = w * 64 * 64
		l.sliceShift = uint(bits.TrailingZeros64(uint64(l.PerSlice)))
		l.enumerateSlices()
	}
	l.Size = l.PerSlice * int64(len(l.Slices))
	return l
}

// enumerateSlices lists the canonical pawn placements, most advanced
// first: a pawn move leads to a more advanced placement, so building the
// slices in this order finds every pawn move's result already built.
func (l *Layout) enumerateSlices() {
	np := len(l.Pawns)
	raw := 1
	for i := 0; i < np; i++ {
		raw *= 48
	}
	l.SliceOf = make([]int32, raw)
	type cand struct {
		sq  []int8
		adv int
		raw int
	}
	var cands []cand
	sq := make([]int8, np)
	for r := 0; r < raw; r++ {
		l.SliceOf[r] = -1
		x := r
		for i := np - 1; i >= 0; i-- {
			sq[i] = int8(x % 48)
			x /= 48
		}
		if !l.pawnsCanonical(sq) {
			continue
		}
		adv := 0
		for i, s := range sq {
			rank := int(s) / 8 // 0 = rank 2
			if l.Pieces[l.Pawns[i]].Color() == board.White {
				adv += rank
			} else {
				adv += 5 - rank
			}
		}
		cands = append(cands, cand{append([]int8(nil), sq...), adv, r})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].adv > cands[j].adv })
	for i, c := range cands {
		l.SliceOf[c.raw] = int32(i)
		l.Slices = append(l.Slices, c.sq)
		l.Advance = append(l.Advance, c.adv)
	}
}

// pawnsCanonical reports whether a placement is stored: pawns on distinct
// squares, identical pawns in increasing order, and not larger than its
// mirror image.
func (l *Layout) pawnsCanonical(sq []int8) bool {
	for i := range sq {
		for j := 0; j < i; j++ {
			if sq[i] == sq[j] {
				return false
			}
		}
	}
	if !l.sortedPawns(sq) {
		return false
	}
	m := make([]int8, len(sq))
	for i, s := range sq {
		m[i] = s ^ 7
	}
	l.SortPawnGroups(m)
	return RawOf(sq) <= RawOf(m)
}

func RawOf(sq []int8) int {
	r := 0
	for _, s := range sq {
		r = r*48 + int(s)
	}
	return r
}

func (l *Layout) sortedPawns(sq []int8) bool {
	for i := 1; i < len(sq); i++ {
		if l.Pieces[l.Pawns[i]] == l.Pieces[l.Pawns[i-1]] && sq[i] < sq[i-1] {
			return false
		}
	}
	return true
}

func (l *Layout) SortPawnGroups(sq []int8) {
	for i := 1; i < len(sq); i++ {
		for j := i; j > 0 && l.Pieces[l.Pawns[j]] == l.Pieces[l.Pawns[j-1]] && sq[j] < sq[j-1]; j-- {
			sq[j], sq[j-1] = sq[j-1], sq[j]
		}
	}
}

// Squares holds a square for each slot.
type Squares [PlanMen]board.Square

// Index returns the canonical Index of the men on sq (slot order). ok is
// false when no symmetry gives a stored form (which happens only for
// placements that are not positions: men on one square, pawns on the
// first or last rank).
func (l *Layout) Index(sq *Squares) (int64, bool) {
	var mask uint8
	if len(l.Pawns) == 0 {
		mask = KkTransforms[sq[0]][sq[1]]
	} else {
		mask = 3
	}
	best, found := int64(0), false
	for ; mask != 0; mask &= mask - 1 {
		idx, ok := l.IndexUnder(&Transforms[bits.TrailingZeros8(mask)], sq)
		if ok && (!found || idx < best) {
			best, found = idx, true
		}
	}
	return best, found
}

// IndexUnder indexes sq after the symmetry tr.
func (l *Layout) IndexUnder(tr *[64]board.Square, sq *Squares) (int64, bool) {
	if len(l.Groups) == 0 {
		return l.Digits(tr, sq)
	}
	// identical men go in increasing square order
	var ts Squares
	for i := 0; i < l.Men; i++ {
		ts[i] = tr[sq[i]]
	}
	for _, g := range l.Groups {
		for i := g[0] + 1; i < g[1]; i++ {
			for j := i; j > g[0] && ts[j] < ts[j-1]; j-- {
				ts[j], ts[j-1] = ts[j-1], ts[j]
			}
		}
	}
	return l.Digits(&Transforms[0], &ts)
}

// Digits indexes sq after the symmetry tr, its identical men in order
// once tr is applied.
func (l *Layout) Digits(tr *[64]board.Square, sq *Squares) (int64, bool) {
	var idx int64
	if len(l.Pawns) == 0 {
		kk := kkIndex[tr[sq[0]]][tr[sq[1]]]
		if kk < 0 {
			return 0, false
		}
		idx = int64(kk) * l.KkWeight
	} else {
		r := 0
		for _, s := range l.Pawns {
			p := int(tr[sq[s]]) - 8
			if p < 0 || p >= 48 {
				return 0, false
			}
			r = r*48 + p
		}
		slice := l.SliceOf[r]
		if slice < 0 {
			return 0, false
		}
		idx = int64(slice)*l.PerSlice + int64(tr[sq[0]])*l.Weight[0] + int64(tr[sq[1]])*l.Weight[1]
	}
	for _, s := range l.others {
		idx += int64(tr[sq[s]]) * l.Weight[s]
	}
	return idx, true
}

// Stored decodes idx and reports whether it is the index of a position:
// its men on distinct squares, and idx the index that position takes
// (not one of a symmetric form Stored elsewhere).
func (l *Layout) Stored(idx int64) (Squares, bool) {
	sq := l.Decode(idx)
	var occ board.Bitboard
	for k := 0; k < l.Men; k++ {
		if occ.Has(sq[k]) {
			return sq, false
		}
		occ |= board.SquareBB(sq[k])
	}
	return sq, l.Canonical(idx, &sq)
}

// RowStored returns which of the 64 indices idx..idx+63 of a pawnless
// layout are stored forms (bit j: l.stored(idx+j)), idx a multiple of 64
// whose kings admit only the identity: the last man's square is the
// row's digit, so a slot is stored when that square is free and, in a
// group of identical men, not below the man before it.
func (l *Layout) RowStored(idx int64) uint64 {
	sq := l.Decode(idx)
	last := l.Men - 1
	var occ board.Bitboard
	for k := 0; k < last; k++ {
		if occ.Has(sq[k]) {
			return 0
		}
		occ |= board.SquareBB(sq[k])
	}
	for _, g := range l.Groups {
		for i := g[0] + 1; i < g[1] && i < last; i++ {
			if sq[i] < sq[i-1] {
				return 0
			}
		}
	}
	mask := ^uint64(occ)
	if last > 2 && l.Pieces[last-1] == l.Pieces[last] {
		mask &^= uint64(2)<<uint(sq[last-1]) - 1
	}
	return mask
}

// Canonical reports whether sq, decoded from idx with its men on
// distinct squares, is the stored form of its position (so that idx is
// the index that position takes).
func (l *Layout) Canonical(idx int64, sq *Squares) bool {
	if !l.Unique(sq) {
		c, ok := l.Index(sq)
		return ok && c == idx
	}
	// the identity is the only symmetry giving a stored form: only the
	// order of identical men is left to check
	for _, g := range l.Groups {
		for i := g[0] + 1; i < g[1]; i++ {
			if sq[i] < sq[i-1] {
				return false
			}
		}
	}
	return true
}

// Unique reports whether the stored position sq (canonical) has a single
// symmetry giving a stored form, so that moving one man that is neither
// a king of a pawnless table nor one of identical men changes its index
// by that man's weight alone (see step).
func (l *Layout) Unique(sq *Squares) bool {
	if len(l.Pawns) == 0 {
		return KkTransforms[sq[0]][sq[1]]&(KkTransforms[sq[0]][sq[1]]-1) == 0
	}
	var raw, mirror [3]int8
	for i, s := range l.Pawns {
		raw[i] = int8(sq[s]) - 8
		mirror[i] = raw[i] ^ 7
	}
	m := mirror[:len(l.Pawns)]
	l.SortPawnGroups(m)
	return RawOf(raw[:len(l.Pawns)]) != RawOf(m)
}

// Step returns the index after the man in slot moves from one square to
// another, when a weight tells it: the position is unique, and the man is
// not alone in a group nor a king of a pawnless table.
func (l *Layout) Step(idx int64, slot int, from, to board.Square) (int64, bool) {
	if l.inGroup[slot] || (slot < 2 && len(l.Pawns) == 0) {
		return 0, false
	}
	return idx + (int64(to)-int64(from))*l.Weight[slot], true
}

// KingStep returns the index after a king of a pawnless table moves from
// the stored position sq (at idx) to the square to, when the kings' new
// pair is canonical under the identity alone: the other men keep their
// digits.
func (l *Layout) KingStep(idx int64, sq *Squares, slot int, to board.Square) (int64, bool) {
	if slot >= 2 || len(l.Pawns) > 0 {
		return 0, false
	}
	w, b := sq[0], sq[1]
	if slot == 0 {
		w = to
	} else {
		b = to
	}
	if KkTransforms[w][b] != 1 {
		return 0, false
	}
	return idx + int64(kkIndex[w][b]-kkIndex[sq[0]][sq[1]])*l.KkWeight, true
}

// Decode returns the men's squares at idx, as stored (the canonical form).
func (l *Layout) Decode(idx int64) Squares {
	var sq Squares
	// (shifts, not divisions: a table with pawns has slices of 64^k
	// positions, a pawnless one a single slice)
	if len(l.Pawns) == 0 {
		for i := len(l.others) - 1; i >= 0; i-- {
			sq[l.others[i]] = board.Square(idx & 63)
			idx >>= 6
		}
		kk := KkPairs[idx]
		sq[0], sq[1] = kk[0], kk[1]
		return sq
	}
	slice := idx >> l.sliceShift
	inner := idx & (l.PerSlice - 1)
	for i := len(l.others) - 1; i >= 0; i-- {
		sq[l.others[i]] = board.Square(inner & 63)
		inner >>= 6
	}
	sq[1] = board.Square(inner & 63)
	sq[0] = board.Square(inner >> 6)
	for i, s := range l.Pawns {
		sq[s] = board.Square(l.Slices[slice][i] + 8)
	}
	return sq
}

// FixedBySymmetry reports whether a symmetry other than the identity
// maps the men of side c onto themselves (each to a square held by a man
// of its kind). Only then can two moves of the other side lead to one
// stored position, or two moves backwards come from one, so only then
// must they be told apart: the two positions would differ only in the
// mover's men, so the symmetry fixes c's men, c's king among them, and
// the only symmetries that fix a square are the reflections in the two
// long diagonals (tables with pawns use the left-right mirror, which
// fixes none).
func (l *Layout) FixedBySymmetry(sq *Squares, c board.Color) bool {
	if len(l.Pawns) > 0 {
		return false
	}
	for _, t := range [2]int{4, 7} { // a1-h8 and a8-h1
		fixed := true
		for k := 0; k < l.Men && fixed; k++ {
			if l.Pieces[k].Color() != c {
				continue
			}
			img := Transforms[t][sq[k]]
			found := false
			for j := 0; j < l.Men; j++ {
				if l.Pieces[j] == l.Pieces[k] && sq[j] == img {
					found = true
					break
				}
			}
			fixed = found
		}
		if fixed {
			return true
		}
	}
	return false
}

// Symmetric reports whether a slice's pawn placement is its own mirror
// image: its positions come in mirror pairs, of which the smaller index
// is stored.
func (l *Layout) Symmetric(slice int) bool {
	sq := l.Slices[slice]
	m := make([]int8, len(sq))
	for i, s := range sq {
		m[i] = s ^ 7
	}
	l.SortPawnGroups(m)
	return RawOf(sq) == RawOf(m)
}

// GroupPositions is the most positions (per side to move) a group of
// slices solved together holds, unless one slice is larger.
const GroupPositions = 1 << 22

// SliceGroups cuts the slices into runs [from, to) solved together: slices
// of equal pawn advancement, which no pawn move joins (a pawn move
// advances), up to groupPositions positions. Solving small slices (a
// two-pawn four-man table has 1,128 of 4,096 positions) one by one would
// cost a barrier between the workers at every ply of each.
func (l *Layout) SliceGroups() [][2]int {
	per := max(1, int(GroupPositions/l.PerSlice))
	var groups [][2]int
	for from := 0; from < len(l.Slices); {
		to := from + 1
		for to < len(l.Slices) && to-from < per && l.Advance[to] == l.Advance[from] {
			to++
		}
		groups = append(groups, [2]int{from, to})
		from = to
	}
	return groups
}

// IndexOf is the index of a node of the layout's material.
func (l *Layout) IndexOf(nd *Node) (int64, error) {
	sq, ok := l.SlotsOf(nd)
	if !ok {
		return 0, fmt.Errorf("position does not fit %s", l.Mat)
	}
	idx, ok := l.Index(&sq)
	if !ok {
		return 0, fmt.Errorf("position has no index in %s", l.Mat)
	}
	return idx, nil
}

// SlotsOf places a node's men in the layout's slots.
func (l *Layout) SlotsOf(nd *Node) (Squares, bool) {
	var sq Squares
	var used [PlanMen]bool
	if nd.N != l.Men {
		return sq, false
	}
	for i := 0; i < l.Men; i++ {
		found := false
		for j := 0; j < nd.N; j++ {
			if !used[j] && nd.Pieces[j] == l.Pieces[i] {
				used[j], sq[i], found = true, nd.Sq[j], true
				break
			}
		}
		if !found {
			return sq, false
		}
	}
	return sq, true
}
