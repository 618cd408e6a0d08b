package prune

import (
	"math/bits"

	"mateline.dev/mateline/board"
)

// The movers test is made for a stalemate with one or two moves of the
// side to be stalemated (def) left. With so few moves, one or two of its
// men move again; every other man ends where it stands, or is taken, and
// must end unable to move there. A man that stays needs, by the end, one
// of:
//   - its squares filled: a piece's (the squares it steps to first) by
//     men of its side, a pawn's (the square before it) by any man, the
//     king's (its flights) by men of its side unless the other side can
//     attack them. Only the men that move fill squares, one each, and a
//     man that moves away from a square empties it;
//   - a move of the other side: taking it, or standing before it (a
//     pawn); each such move is a move of its own (they end on different
//     squares);
//   - a pin through its king, by a piece the other side can stand with
//     beyond it.
//
// A man that moves must end unable to move too, where it ends: filled by
// the other man that moves, or at the cost of a move of the other side,
// or pinned. The test tries each man moving alone (to each square it
// reaches) and, with two moves left, each two men moving once each.
// Everything else errs towards yes: the squares are those of an empty
// board, the other side's men may be everywhere at once (the budget test
// counts their moves round the king), and with two men moving each is
// taken to end stuck as if the square the other leaves stayed filled
// (for the men that stay both squares are empty, unless one of the two
// may end there). With castling rights on either side the test is not
// made (castling moves two men in one move).

// moverMan is a man of def's: what it needs to end unable to move.
type moverMan struct {
	sq    board.Square
	kind  board.PieceType
	steps board.Bitboard // the squares that must be filled to stop it
	need  board.Bitboard // those of steps not filled now
	other bool           // the other side can stop it: take it, or stand before it (a pawn)
	pin   bool           // it can be pinned with the king where it is
	pinAt pinAtState     // it can be pinned with the king on a square it reaches (movers.pinAt)
}

// moversTest is the movers test's working memory.
type moversTest struct {
	men   []moverMan // def's men but the king, and the king's flights (sq: the king)
	from  []board.Square
	kinds []board.PieceType // the kind of the man on each square of from
	king  board.Square
	d     int // def's moves left
	// collect: fitsPlaced gathers in moving the men of every configuration
	// that passes, instead of stopping at the first
	collect bool
	moving  board.Bitboard
	solo    board.Bitboard // (collect) the men that pass moving alone
	// failed (collect, d = 2): for the man of from[i], the men of from
	// it was tried with as a pair and failed, by index
	failed [16]uint16
	// takes: where the other side's men can stand within its moves;
	// orthPin, diagPin: where as a piece that pins along ranks and files,
	// along diagonals; hits: what they can attack
	takes, orthPin, diagPin, hits board.Bitboard
	own, occ                      board.Bitboard
	def                           board.Color
	cand                          board.Bitboard // the squares a man that moves may have to fill
	b                             *budgetTables
}

// pinnableOnLine reports whether a man on s can be pinned against the king on
// t along a rank or file (orth) or a diagonal (diag).
func (mv *moversTest) pinnableOnLine(t, s board.Square, orth, diag bool) bool {
	return orth && mv.b.pastOrth[t][s]&mv.orthPin != 0 || diag && mv.b.pastDiag[t][s]&mv.diagPin != 0
}

// pinLines gives the lines a man of kind can be pinned on to stay
// without a move: a knight and a pawn any, a bishop a rank or file, a
// rook a diagonal, a queen none.
func pinLines(kind board.PieceType) (orth, diag bool) {
	switch kind {
	case board.Pawn, board.Knight:
		return true, true
	case board.Bishop:
		return true, false
	case board.Rook:
		return false, true
	}
	return false, false
}

// ahead is the square before a pawn of colour c on s.
func ahead(c board.Color, s board.Square) board.Square {
	if c == board.Black {
		return s - 8
	}
	return s + 8
}

// stepsFor is the squares that must be filled to stop a man of kind on
// s (not a king).
func stepsFor(c board.Color, kind board.PieceType, s board.Square) board.Bitboard {
	switch kind {
	case board.Pawn:
		return board.SquareBB(ahead(c, s))
	}
	return stepsOf(kind, s) // (a queen's: every square round it)
}

// canStalemate reports whether def, with d (1 or 2) moves left, can still be
// stalemated by mater, which has m moves; true when the test does not
// apply.
func (mv *moversTest) canStalemate(pos *board.Position, b *budgetTables, mater board.Color, m, d int) bool {
	if d < 1 || d > moversMax || m > budgetMax || pos.Castling() != 0 {
		return true
	}
	mv.place(pos, b, mater.Other(), d)
	mv.reaches(pos, b, mater, m, board.NoSquare, 0)
	return mv.fitsPlaced(m, d)
}

// quietRefused is the squares of mater's men, mater to move with m
// moves (this one among them) and def d, no quiet move of which
// (quietMove) can leave a position the test allows. For the man on w it
// is the test with m-1 moves, that man reaching what it does in m from
// where it stands (all it can from any square it steps to, in m-1): the
// child's men of mater can do no more, and its men of def are the same
// with no fewer squares to fill, so when this refuses, the test refuses
// every such child.
func (mv *moversTest) quietRefused(pos *board.Position, b *budgetTables, mater board.Color, m, d int) board.Bitboard {
	if d < 1 || d > moversMax || m < 2 || m > budgetMax || pos.Castling() != 0 {
		return 0
	}
	mv.place(pos, b, mater.Other(), d)
	var refused board.Bitboard
	for men := pos.ColorBB(mater); men != 0; {
		w := men.PopFirst()
		mv.reaches(pos, b, mater, m-1, w, m)
		if !mv.fitsPlaced(m-1, d) {
			refused |= board.SquareBB(w)
		}
	}
	return refused
}

// quietMove reports whether mv, a move of mater's, is quiet for
// quietRefused: it takes nothing, promotes nothing, is no castling, and
// lands on no square of blocks (the squares before def's pawns and
// before the squares they reach: there it would fill a square).
func quietMove(pos *board.Position, m board.Move, blocks board.Bitboard) bool {
	return !m.IsCastling() && !m.IsEnPassant() && m.Promotion() == board.NoPieceType &&
		pos.PieceAt(m.To()) == board.NoPiece && !blocks.Has(m.To())
}

// pawnBlocks is the squares a man of the other side's standing on could
// stop one of def's pawns, now or after its next move: blocks for
// quietMove.
func pawnBlocks(pos *board.Position, b *budgetTables, def board.Color) board.Bitboard {
	var out board.Bitboard
	for ps := pos.Pieces(def, board.Pawn); ps != 0; {
		p := ps.PopFirst()
		out |= board.SquareBB(ahead(def, p))
		for fs := b.stands[def][board.Pawn][p][1] &^ board.SquareBB(p) &^ lastRanks; fs != 0; {
			out |= board.SquareBB(ahead(def, fs.PopFirst()))
		}
	}
	return out
}

// reaches works out what mater's men can do within m moves (the man on
// w, when a square, within mw): the squares they can stand on, attack,
// and pin from.
func (mv *moversTest) reaches(pos *board.Position, b *budgetTables, mater board.Color, m int, w board.Square, mw int) {
	mv.takes, mv.orthPin, mv.diagPin, mv.hits = 0, 0, 0, 0
	for men := pos.ColorBB(mater); men != 0; {
		s := men.PopFirst()
		kind := pos.PieceAt(s).Type()
		k := m
		if s == w {
			k = mw
		}
		st := b.stands[mater][kind][s][k]
		mv.takes |= st
		mv.hits |= b.attack[mater][kind][s][k]
		if kind == board.Pawn && st&lastRanks != 0 {
			kind = board.Queen
		}
		if kind == board.Queen || kind == board.Rook {
			mv.orthPin |= st
		}
		if kind == board.Queen || kind == board.Bishop {
			mv.diagPin |= st
		}
	}
}

// place lists def's men at pos, with d moves left: where each stands,
// its kind, and the squares that must be filled to stop it (the king's
// flights, men[0], are made by fitsPlaced: they hang on what mater reaches).
func (mv *moversTest) place(pos *board.Position, b *budgetTables, def board.Color, d int) {
	mv.b, mv.def, mv.d = b, def, d
	mv.own, mv.occ = pos.ColorBB(def), pos.Occupied()
	mv.king = pos.KingSquare(def)
	mv.men, mv.from, mv.kinds = mv.men[:0], mv.from[:0], mv.kinds[:0]
	mv.from, mv.kinds = append(mv.from, mv.king), append(mv.kinds, board.King)
	mv.men = append(mv.men, moverMan{sq: mv.king, kind: board.King})
	for men := mv.own &^ board.SquareBB(mv.king); men != 0; {
		s := men.PopFirst()
		kind := pos.PieceAt(s).Type()
		mv.from, mv.kinds = append(mv.from, s), append(mv.kinds, kind)
		n := moverMan{sq: s, kind: kind, steps: stepsFor(def, kind, s)}
		if kind == board.Pawn {
			n.need = n.steps &^ mv.occ
		} else {
			n.need = n.steps &^ mv.own
		}
		mv.men = append(mv.men, n)
	}
}

// fitsPlaced is the test once place and reaches have been made, m the moves
// mater's side has to spend.
func (mv *moversTest) fitsPlaced(m, d int) bool {
	mv.moving, mv.cand, mv.solo, mv.failed = 0, 0, 0, [16]uint16{}
	// the king's flights the other side cannot attack must be filled
	ring := board.KingAttacks(mv.king) &^ mv.hits
	mv.men[0].steps, mv.men[0].need, mv.men[0].pinAt = ring, ring&^mv.own, pinAtUnknown
	for i := 1; i < len(mv.men); i++ {
		n := &mv.men[i]
		n.other = mv.takes.Has(n.sq) || n.kind == board.Pawn && mv.takes&n.steps != 0
		orth, diag := pinLines(n.kind)
		n.pin = mv.pinnableOnLine(mv.king, n.sq, orth, diag)
		n.pinAt = pinAtUnknown
	}
	for i := range mv.men {
		if n := &mv.men[i]; bits.OnesCount64(uint64(n.need)) <= d {
			mv.cand |= n.need
		}
	}
	if !mv.fillBoundHolds(m, d) {
		return false
	}
	// one man moving all d moves (a man with two squares or more to fill
	// that only filling stops is that one, or, with the king moving,
	// pinned: soloCost says never otherwise)
	hard := mv.hardMen(1)
	for i, x := range mv.from {
		if mv.pairFree(hard, i, i) && mv.movesAlone(i, m, d) {
			if !mv.collect {
				return true
			}
			mv.moving |= board.SquareBB(x)
			mv.solo |= board.SquareBB(x)
		}
	}
	if d == 1 {
		return mv.moving != 0
	}
	// two men moving once each: each ends stuck too, on its own or on a
	// square the other may fill (the fewest each costs alone, and the men
	// that stay, add up to a bound from below: the moves of the other
	// side each needs are distinct)
	// (a man with three squares or more to fill that only filling stops
	// is one of the two, or, with the king one of them, pinned: stayCost
	// says never otherwise)
	hard = mv.hardMen(2)
	var ps [moversMax]pick
	for i, x := range mv.from {
		ps[0] = mv.singleMove(i)
		for j := i + 1; j < len(mv.from); j++ {
			both := board.SquareBB(x) | board.SquareBB(mv.from[j])
			if mv.moving&both == both {
				continue
			}
			ps[1] = mv.singleMove(j)
			if mv.pairFree(hard, i, j) && mv.stalemateTogether(ps[:2], m) {
				if !mv.collect {
					return true
				}
				mv.moving |= both
			} else if mv.collect && j < len(mv.failed) {
				mv.failed[i] |= 1 << j
				mv.failed[j] |= 1 << i
			}
		}
	}
	return mv.moving != 0
}

// hardMen is the men, by index, with more than k squares to fill that
// only filling stops (not the other side, not a pin through the king
// where it stands).
func (mv *moversTest) hardMen(k int) uint32 {
	var hard uint32
	for i := range mv.men {
		if n := &mv.men[i]; !n.other && !n.pin && bits.OnesCount64(uint64(n.need)) > k && i < 32 {
			hard |= 1 << i
		}
	}
	return hard
}

// pairFree reports whether every man of hard (by index) is one of the
// men i and j that move (i = j: one man), or, with the king one of them
// (i = 0), can be pinned with the king moving.
func (mv *moversTest) pairFree(hard uint32, i, j int) bool {
	miss := hard &^ (1<<i | 1<<j)
	if miss == 0 {
		return true
	}
	if i != 0 {
		return false
	}
	for ; miss != 0; miss &= miss - 1 {
		if !mv.pinAt(&mv.men[bits.TrailingZeros32(miss)]) {
			return false
		}
	}
	return true
}

// movesAlone reports whether the man of from[i] can make all d moves, to a
// square f it reaches (back to its own with two).
func (mv *moversTest) movesAlone(i, m, d int) bool {
	x, kind := mv.from[i], mv.kinds[i]
	fs := mv.b.stands[mv.def][kind][x][d] &^ board.SquareBB(x)
	sc := mv.soloCosts(x)
	if c0 := sc.cost(board.NoSquare); c0 <= m {
		for gs := fs; gs != 0; {
			if c := mv.moverCost(kind, x, gs.PopFirst(), 0, 0, false); c >= 0 && c <= m-c0 {
				return true
			}
		}
	}
	for gs := fs & mv.cand; gs != 0; {
		f := gs.PopFirst()
		if c := mv.moverCost(kind, x, f, 0, 0, false); c >= 0 && c+sc.cost(f) <= m {
			return true
		}
	}
	if d == 2 {
		if c := mv.moverCost(kind, x, x, 0, 0, false); c >= 0 && c+sc.back <= m {
			return true
		}
	}
	return false
}

// soloCost is stayCost for one man moving alone, from x, worked out once
// for every square f it may fill: with it the men that stay each need
// one square (at most one man moving fills it) or more.
type soloCost struct {
	hard   bool           // a man with two squares or more to fill that only filling stops: never
	base   board.Bitboard // the squares the men that only filling stops need, one each
	forced int            // the men the other side must stop, two squares or more to fill
	flex   [16]board.Square
	nflex  int // the men the other side may stop, or filling their one square
	back   int // stayCost with the man back on x (d = 2): none filled, x filled
}

// soloCosts is the soloCost of the man on x: the same as stayCost with
// one pick from x (reach f, vac x) for each f, and with reach and vac
// empty for back.
func (mv *moversTest) soloCosts(x board.Square) soloCost {
	var sc soloCost
	kingMoves := x == mv.king
	backNever := false
	for i := range mv.men {
		n := &mv.men[i]
		if n.sq == x || n.pin {
			continue
		}
		need := n.need | n.steps&board.SquareBB(x)
		if need == 0 || kingMoves && mv.pinAt(n) {
			continue
		}
		if n.need != 0 {
			if n.other {
				sc.back++
			} else {
				backNever = true
			}
		}
		one := need&(need-1) == 0
		switch {
		case one && n.other:
			if sc.nflex < len(sc.flex) {
				sc.flex[sc.nflex] = need.First()
				sc.nflex++
			} // (more are left out: towards yes, as stayCost)
		case one:
			sc.base |= need
		case n.other:
			sc.forced++
		default:
			sc.hard = true
		}
	}
	if backNever {
		sc.back = never
	}
	return sc
}

// cost is the fewest moves of the other side for the men that stay, the
// man that moves filling f (none: NoSquare).
func (sc *soloCost) cost(f board.Square) int {
	if sc.hard || sc.base != 0 && (f == board.NoSquare || sc.base != board.SquareBB(f)) {
		return never
	}
	c := sc.forced + sc.nflex
	if f != board.NoSquare {
		for _, q := range sc.flex[:sc.nflex] {
			if q == f {
				c--
			}
		}
	}
	return c
}

// movable is the squares of def's men, def to move with d moves (this
// one among them) and mater m, that can be among the men that move in
// a stalemate the test allows: in every solution the man that moves
// now is one of them. Every square when the test does not apply; none
// when it refuses the position.
func (mv *moversTest) movable(pos *board.Position, b *budgetTables, mater board.Color, m, d int) board.Bitboard {
	if d < 1 || d > moversMax || m > budgetMax || pos.Castling() != 0 {
		return Everywhere
	}
	mv.place(pos, b, mater.Other(), d)
	mv.reaches(pos, b, mater, m, board.NoSquare, 0)
	mv.collect = true
	mv.fitsPlaced(m, d)
	mv.collect = false
	return mv.moving
}

// endsOn reports, right after movable with d = 2 at the same position,
// whether the man on a moving to x can be among the men that move in a
// stalemate the test allows: it passes moving alone (both moves), or
// with another man moving once, itself ending on x. In a solution where
// it moves once, x is where it ends, so the pair's test with its reach
// cut to x lets that solution through.
func (mv *moversTest) endsOn(a, x board.Square, m int) bool {
	if mv.solo.Has(a) || mv.d != 2 {
		return true
	}
	i := -1
	for k, s := range mv.from {
		if s == a {
			i = k
		}
	}
	if i < 0 {
		return true
	}
	var ps [moversMax]pick
	ps[0] = mv.singleMove(i)
	ps[0].reach = board.SquareBB(x)
	for j := range mv.from {
		if j == i || i < len(mv.failed) && mv.failed[i]&(1<<j) != 0 {
			continue // (a pair that failed with every square fails with x)
		}
		if ps[1] = mv.singleMove(j); mv.stalemateTogether(ps[:2], m) {
			return true
		}
	}
	return false
}

// fillBoundHolds is a quick bound made before the men that move are chosen. A
// man with more squares to fill than def has moves cannot be filled: it
// moves (at most d men do), or the other side stops it (a move of that
// side each), or it is pinned with the king moving. It reports false when no
// choice of movers gets round that within m moves; it errs towards
// true (what the movers need themselves is left out).
func (mv *moversTest) fillBoundHolds(m, d int) bool {
	if hard, forced := mv.unfilled(d, false); hard <= d && forced-(d-hard) <= m && mv.fillable(m, d, false) {
		return true
	}
	hard, forced := mv.unfilled(d, true)
	return hard <= d-1 && forced-(d-1-hard) <= m && mv.fillable(m, d, true)
}

// fillable is a second bound: every man with a square to fill that no
// pin stops (the king's flights too) moves, or is filled by the men
// that move (d squares at most, one each), or is stopped by the other
// side, a move each. With d = 1 the one square filled serves the men
// that need that square alone; with two, the men that need one of two
// squares alone, and all that need two, are taken to be served. With
// kingMoves the king is one of the men that move, its flights are left
// out, and so are the men it may pin by moving. The configurations the
// test tries count no fewer moves, so this refuses nothing they let
// through: it only refuses sooner.
func (mv *moversTest) fillable(m, d int, kingMoves bool) bool {
	var ones [16]board.Square
	men, one, two := 0, 0, 0
	for i := range mv.men {
		n := &mv.men[i]
		if n.need == 0 || n.pin || kingMoves && (n.sq == mv.king || mv.pinAt(n)) {
			continue
		}
		men++
		switch bits.OnesCount64(uint64(n.need)) {
		case 1:
			if one < len(ones) {
				ones[one] = n.need.First()
				one++
			} else {
				two++ // (towards yes)
			}
		case 2:
			two++
		}
	}
	// the most men one square serves (a second square serves as many
	// at most, of the others)
	top := 0
	for i := 0; i < one; i++ {
		c := 0
		for j := 0; j < one; j++ {
			if ones[j] == ones[i] {
				c++
			}
		}
		top = max(top, c)
	}
	served, moving := top, d
	if d >= 2 {
		served = top + min(top, one-top) + two
	}
	if kingMoves {
		moving--
	}
	return men-moving-served <= m
}

// unfilled counts the men (the king's flights too) with more squares to
// fill than d that no pin stops: those the other side cannot stop
// (hard) and those it can. With kingMoves the king's flights are left
// out, and so are the men it may pin by moving.
func (mv *moversTest) unfilled(d int, kingMoves bool) (hard, forced int) {
	for i := range mv.men {
		n := &mv.men[i]
		if n.need == 0 || n.pin || bits.OnesCount64(uint64(n.need)) <= d || kingMoves && (n.sq == mv.king || mv.pinAt(n)) {
			continue
		}
		if n.other {
			forced++
		} else {
			hard++
		}
	}
	return hard, forced
}

// singleMove is the man of from[i] moving once.
func (mv *moversTest) singleMove(i int) pick {
	x := mv.from[i]
	return pick{sq: x, kind: mv.kinds[i], reach: mv.b.stands[mv.def][mv.kinds[i]][x][1] &^ board.SquareBB(x)}
}

// stalemateTogether reports whether the men of ps, moving and ending on squares
// of their reach, can leave def stalemated within m moves of the other
// side's.
func (mv *moversTest) stalemateTogether(ps []pick, m int) bool {
	var vac board.Bitboard // the squares they leave (refilled only by a move in reach)
	for _, p := range ps {
		vac |= board.SquareBB(p.sq)
	}
	c := mv.stayCost(ps, vac)
	kingMoves := vac.Has(mv.king)
	for i := range ps {
		if c > m {
			return false
		}
		var others board.Bitboard
		for j := range ps {
			if j != i {
				others |= ps[j].reach
			}
		}
		c += mv.leastCost(ps[i].kind, ps[i].sq, ps[i].reach, others, len(ps)-1, kingMoves)
	}
	return c <= m
}

// never is a cost beyond any moves left.
const never = 1 << 10

// moversMax is the most moves of def's the test is made with.
const moversMax = 2

// pick is a man of def's that moves: its square, its kind, and the
// squares it may end on (each fills one of them, or none).
type pick struct {
	sq    board.Square
	kind  board.PieceType
	reach board.Bitboard
}

// stayCost is the fewest moves of the other side with which, the men of
// ps moving and filling a square of their reach each, every other man
// can end stuck: filled, stopped by the other side (a move each), or
// pinned (with the king moving, on a square it reaches); never when some
// man cannot. The squares of vac are emptied by the men that move: a
// man that needs one is filled there only by a man that moves with it in
// its reach (one man alone never has its own square in reach; of two,
// each may end where the other stood).
func (mv *moversTest) stayCost(ps []pick, vac board.Bitboard) int {
	var reach, moved board.Bitboard
	for _, p := range ps {
		reach |= p.reach
		moved |= board.SquareBB(p.sq)
	}
	kingMoves := moved.Has(mv.king)
	forced := 0             // the men only the other side can stop
	var base board.Bitboard // the squares that must be filled
	var fl fills
	fl.ps = ps
	fl.best = never
	for i := range mv.men {
		n := &mv.men[i]
		if moved.Has(n.sq) {
			continue // (the king's flights too, when it moves)
		}
		need := n.need | n.steps&vac
		if need == 0 || n.pin || kingMoves && mv.pinAt(n) {
			continue
		}
		canFill := bits.OnesCount64(uint64(need)) <= len(ps) && need&^reach == 0
		switch {
		case canFill && n.other:
			if fl.flex < len(fl.flexQ) {
				fl.flexQ[fl.flex] = need
				fl.flex++
			} // (more are left out: towards yes)
		case canFill:
			base |= need
		case n.other:
			forced++
		default:
			return never
		}
	}
	fl.base, fl.forced = base, forced
	// the squares the men that move fill: none, or one each
	fl.try(0)
	if fl.flex == 0 && base == 0 {
		return fl.best
	}
	fl.cand = base
	for _, q := range fl.flexQ[:fl.flex] {
		fl.cand |= q
	}
	fl.fill(0, 0)
	return fl.best
}

// fills chooses the squares the men that move fill, for stayCost.
type fills struct {
	ps           []pick
	base, cand   board.Bitboard
	flexQ        [16]board.Bitboard
	flex, forced int
	best         int
}

// try counts the cost with the squares of q filled.
func (fl *fills) try(q board.Bitboard) {
	if fl.base&^q != 0 {
		return
	}
	c := fl.forced
	for _, o := range fl.flexQ[:fl.flex] {
		if o&^q != 0 {
			c++
		}
	}
	fl.best = min(fl.best, c)
}

// fill tries every choice of the men from i on, q filled by those
// before: each fills a square of cand it reaches, or none.
func (fl *fills) fill(i int, q board.Bitboard) {
	if fl.best == fl.forced {
		return // (none can do better)
	}
	if i == len(fl.ps) {
		if q != 0 {
			fl.try(q)
		}
		return
	}
	fl.fill(i+1, q)
	for qs := fl.cand & fl.ps[i].reach &^ q; qs != 0; {
		fl.fill(i+1, q|board.SquareBB(qs.PopFirst()))
	}
}

// pinAtState is whether a man can be pinned with the king moving: not
// yet worked out, or the answer.
type pinAtState uint8

const (
	pinAtUnknown pinAtState = iota
	pinAtNo
	pinAtYes
)

// pinAt reports whether the man n can be pinned with the king on a
// square it reaches in def's moves (worked out once a position, when
// first asked).
func (mv *moversTest) pinAt(n *moverMan) bool {
	if n.pinAt == pinAtUnknown {
		n.pinAt = pinAtNo
		orth, diag := pinLines(n.kind)
		if n.pin {
			n.pinAt = pinAtYes
		} else if n.sq != mv.king && (orth || diag) && mv.pinnableFrom(mv.b.ball[mv.king][mv.d], n.sq, orth, diag) {
			n.pinAt = pinAtYes
		}
	}
	return n.pinAt == pinAtYes
}

// moverCost is what the man of kind moving from x to f asks of the
// other side to end stuck there: 0 (filled, or pinnable), 1 (a move: to
// take it, or stand before it), -1 (it cannot). A need of at most
// others squares the other men that move reach (other) counts as filled.
// A king must be left no flight the other side cannot attack; a pawn
// that promotes ends stuck as a knight, a bishop or a rook there. With
// kingMoves the king moves once too, and a pin may be against the square
// it goes to.
func (mv *moversTest) moverCost(kind board.PieceType, x, f board.Square, other board.Bitboard, others int, kingMoves bool) int {
	if kind == board.Pawn && f != x && (lastRanks.Has(f) || lastRanks.Has(ahead(mv.def, x))) {
		// it ends there as the piece it became (its first move from the
		// rank before the last promotes it): a knight, a bishop or a rook
		// (a queen needs all a rook does, and is never pinned)
		best := -1
		for _, k := range [...]board.PieceType{board.Knight, board.Bishop, board.Rook} {
			if c := mv.moverCost(k, x, f, other, others, kingMoves); c == 0 {
				return 0
			} else if c > 0 && (best < 0 || c < best) {
				best = c
			}
		}
		return best
	}
	own := mv.own&^board.SquareBB(x) | board.SquareBB(f)
	var need board.Bitboard
	switch kind {
	case board.King:
		need = board.KingAttacks(f) &^ own &^ mv.hits
	case board.Pawn:
		need = stepsFor(mv.def, kind, f) &^ (mv.occ&^board.SquareBB(x) | board.SquareBB(f))
	default:
		need = stepsFor(mv.def, kind, f) &^ own
	}
	if need == 0 || need&^other == 0 && bits.OnesCount64(uint64(need)) <= others {
		return 0
	}
	if kind == board.King {
		return -1
	}
	orth, diag := pinLines(kind)
	if mv.pinnableOnLine(mv.king, f, orth, diag) || kingMoves && mv.pinnableFrom(board.KingAttacks(mv.king), f, orth, diag) {
		return 0
	}
	if mv.takes.Has(f) || kind == board.Pawn && mv.takes&need != 0 {
		return 1
	}
	return -1
}

// pinnableFrom reports whether a man on s can be pinned against the king
// on some square of ks (pinnableOnLine).
func (mv *moversTest) pinnableFrom(ks board.Bitboard, s board.Square, orth, diag bool) bool {
	for ks != 0 {
		if mv.pinnableOnLine(ks.PopFirst(), s, orth, diag) {
			return true
		}
	}
	return false
}

// leastCost is the least moverCost of the man of kind on x moving to a
// square of fs, at most others squares the other men that move reach
// (other) counting as filled (kingMoves: as for moverCost).
func (mv *moversTest) leastCost(kind board.PieceType, x board.Square, fs, other board.Bitboard, others int, kingMoves bool) int {
	best := never
	for fs != 0 {
		c := mv.moverCost(kind, x, fs.PopFirst(), other, others, kingMoves)
		if c == 0 {
			return 0
		}
		if c > 0 {
			best = min(best, c)
		}
	}
	return best
}
