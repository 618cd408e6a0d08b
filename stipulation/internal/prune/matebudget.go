package prune

import (
	"math/bits"
	"sync"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// The budget test is the net test (matenet.go) with the moves counted
// per man, for mates and stalemates (docs/problems.md, "The budget
// test"): the net test lets every square round the mating square be
// served by whichever man reaches it soonest, as if each man could stand
// on several squares and every man could move at once. Here each man of
// the mating side ends on one square, of one kind, and the moves the men
// make add up to at most the m moves left; each flight the mating side
// does not attack is held by a distinct man of the other side, whose
// moves add up, with the king's walk, to at most its d. The estimates
// still err towards yes (an empty board, men neither pinned, blocked nor
// taken, pawns capturing at will and promoting to a queen or a knight),
// so a "no" is still a proof that no mate is left.

// budgetMax is the most moves per side the budget test is made for.
const budgetMax = 8

// budgetTables: per man (colour, kind, square), the states (square,
// kind) it reaches on an empty board, by the moves they take; what a
// state attacks round each square, as nine bits; and how many moves a
// man needs to stand on each square.
type budgetTables struct {
	reach [2][7][64][]budgetState
	// ring[c][kind][s][t]: bit i set when a man of that kind on s
	// attacks ringSquare(t, i) on an empty board (bit 4 is t itself).
	ring [2][7][64][64]uint16
	// stand[c][kind][s][r]: the moves a man needs to stand on r (255: not
	// within budgetMax).
	stand [2][7][64][64]uint8
	// attack[c][kind][s][k], stands[...][k]: the squares the man attacks,
	// and those it can stand on, after at most k moves.
	attack, stands [2][7][64][budgetMax + 1]board.Bitboard
	ball           [64][budgetMax + 1]board.Bitboard // the squares a king reaches in k steps
	ringSq         [64][9]board.Square               // the squares of t's ring, by bit
	ringOf         [64]uint16                        // the bits of t's ring on the board
	// pastOrth[t][u], pastDiag[t][u]: beyond(t, u) when t and u share a
	// rank or file, a diagonal; none otherwise
	pastOrth, pastDiag [64][64]board.Bitboard
	// menus[c][kind][s][t]: what the man can attack round t (options)
	menus   [2][7][64][]budgetMenu
	optOnce [2][7][64]sync.Once
}

// budgetState is a square and kind a man reaches, and the moves it takes.
type budgetState struct {
	sq    board.Square
	kind  board.PieceType
	moves uint8
}

var (
	budgetOnce sync.Once
	budgetTab  *budgetTables
)

// ringSquare is the square of bit i of a ring round t: i = 3*(dr+1) +
// (df+1); false when it is off the board.
func ringSquare(t board.Square, i int) (board.Square, bool) {
	f, r := t.File()+i%3-1, t.Rank()+i/3-1
	if f < 0 || f > 7 || r < 0 || r > 7 {
		return 0, false
	}
	return board.MakeSquare(f, r), true
}

const ringCentre = 1 << 4

// budget returns the tables, computed the first time.
func budget() *budgetTables {
	budgetOnce.Do(func() {
		b := new(budgetTables)
		for t := board.Square(0); t < 64; t++ {
			for u := board.Square(0); u < 64; u++ {
				for k := steps(t, u); k <= budgetMax; k++ {
					b.ball[t][k] |= board.SquareBB(u)
				}
				switch {
				case t == u:
				case t.File() == u.File() || t.Rank() == u.Rank():
					b.pastOrth[t][u] = beyond(t, u)
				default:
					b.pastDiag[t][u] = beyond(t, u)
				}
			}
			for i := 0; i < 9; i++ {
				if r, ok := ringSquare(t, i); ok {
					b.ringSq[t][i] = r
					b.ringOf[t] |= 1 << i
				}
			}
		}
		for c := board.White; c <= board.Black; c++ {
			for _, kind := range netKinds {
				for s := board.Square(0); s < 64; s++ {
					var a board.Bitboard
					if kind == board.Pawn {
						a = board.PawnAttacks(c, s)
					} else {
						a = board.Attacks(kind, c, s, 0)
					}
					for t := board.Square(0); t < 64; t++ {
						for i := 0; i < 9; i++ {
							if r, ok := ringSquare(t, i); ok && a.Has(r) {
								b.ring[c][kind][s][t] |= 1 << i
							}
						}
					}
					if kind == board.Pawn && (s.Rank() == 0 || s.Rank() == 7) {
						continue
					}
					b.fill(c, kind, s)
				}
			}
		}
		budgetTab = b
	})
	return budgetTab
}

// fill lists the states a man of colour c and kind kind on s reaches in
// at most budgetMax moves, nearest first, and the moves it needs to stand
// on each square.
func (b *budgetTables) fill(c board.Color, kind board.PieceType, s board.Square) {
	var seen [64][7]bool
	seen[s][kind] = true
	frontier := []netState{{s, kind}}
	for r := range b.stand[c][kind][s] {
		b.stand[c][kind][s][r] = 255
	}
	var attack, stands board.Bitboard
	for k := 0; k <= budgetMax; k++ {
		var next []netState
		for _, st := range frontier {
			b.reach[c][kind][s] = append(b.reach[c][kind][s], budgetState{st.sq, st.kind, uint8(k)})
			if st.kind == board.Pawn {
				attack |= board.PawnAttacks(c, st.sq)
			} else {
				attack |= board.Attacks(st.kind, c, st.sq, 0)
			}
			stands |= board.SquareBB(st.sq)
			if b.stand[c][kind][s][st.sq] == 255 {
				b.stand[c][kind][s][st.sq] = uint8(k)
			}
			for _, n := range netMoves(c, st.sq, st.kind) {
				if !seen[n.sq][n.kind] {
					seen[n.sq][n.kind] = true
					next = append(next, n)
				}
			}
		}
		b.attack[c][kind][s][k], b.stands[c][kind][s][k] = attack, stands
		frontier = next
	}
}

// budgetOption is what one man can do for a ring: the squares it
// attacks from one state, the flight it stands on then (on: a ring bit
// or none; the king takes the man unless another man attacks it), and
// the moves it takes; victim: a pawn that gets there in one move takes a
// man on that square (en passant: beside it), else noVictim.
type budgetOption struct {
	ring, on uint16
	moves    uint8
	victim   board.Square
}

// noVictim: the option takes no man, or its captures are not counted.
const noVictim board.Square = -1

// budgetMan is a man of the board: its square and kind.
type budgetMan struct {
	sq   board.Square
	kind board.PieceType
	alt  board.Square // a rook that may castle: the square it castles to; else sq
}

// budgetCastlings: for each castling right, where the king and the rook go.
var budgetCastlings = [...]struct {
	right                    board.CastlingRights
	kingTo, rookFrom, rookTo board.Square
}{
	{board.WhiteKingside, board.G1, board.H1, board.F1},
	{board.WhiteQueenside, board.C1, board.A1, board.D1},
	{board.BlackKingside, board.G8, board.H8, board.F8},
	{board.BlackQueenside, board.C8, board.A8, board.D8},
}

// steps is the number of king steps from a to b.
func steps(a, b board.Square) int {
	return max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank()))
}

// BudgetTest is the budget test of one search: its working memory, and
// the mating square that let the last position through, by the plies
// left, tried first.
type BudgetTest struct {
	maters, holders []budgetMan
	// cost[x]: the fewest moves that make the state x (255: none), x the
	// ring bits attacked and, shifted by 9, the flights stood on
	cost    []uint8
	live    []uint32 // the states with a cost
	updates []budgetUpdate
	lists   []*budgetMenu  // the men's options round the ring tested
	menus   [][]budgetMenu // mater's men's menus round every square
	rest    [][budgetMax + 1]uint16
	// endOK[x]: whether the ring bits x attacked end the test with a
	// mate, known when endStamp[x] is stamp
	endOK    [512]bool
	endStamp [512]uint32
	stamp    uint32
	hint     [2*budgetMax + 1]board.Square
	// stalemate: the test is made for a stalemate, not a mate
	stalemate bool
	costs     assignCosts // assign's, by flight and man
	steps     int         // search's, so far
	stuck     stuckTest   // the stuck test's, for a stalemate
	// stuckOn[kind]: for a stalemate, the ring bits of the square tested
	// on which a man of def's of that kind can end unable to move
	stuckOn [7]uint16
}

// anySquareLeft reports whether the budget test leaves a mate (aim Mate) or a
// stalemate of mater's opponent possible at pos with m moves of mater
// and d of the opponent left; true whenever the test does not apply.
// A stalemate asks the same of the king's ring as a mate, but for the
// check.
func (bt *BudgetTest) anySquareLeft(pos *board.Position, aim problem.Aim, mater board.Color, m, d int) bool {
	return bt.SquaresLeft(pos, aim, mater, m, d, Everywhere, false) != 0
}

// SquaresLeft is the budget test made for the squares in within only: with
// all, the squares of within on which the king may still be mated (or
// stalemated); without, within when one is found (the test stops at the
// first), else none; within itself when the test does not apply.
//
// A square the test refuses at a position is refused for every position
// the play can reach from it: a line from there that ends with the king
// on t would, with the moves before it, be a line from the first one
// within its budgets. So the squares alive at a position bound those of
// its children, and a child needs testing only on those.
func (bt *BudgetTest) SquaresLeft(pos *board.Position, aim problem.Aim, mater board.Color, m, d int, within board.Bitboard, all bool) board.Bitboard {
	bt.stalemate = aim == problem.Stalemate
	def := mater.Other()
	// Castling moves two men in one move. When the mating side may castle
	// the test is not made for a mate (a castling mate is a theme of its
	// own; made, it cost more than it pruned); for a stalemate its king
	// and rook also stand, as men of their own, on the squares they
	// castle to, at no cost (more men than there are: the test errs
	// towards yes). When the other side may castle, its king reaches the
	// square it castles to in one move and its rook the square it castles
	// to in none.
	cr := pos.Castling()
	if cr&castlingOf(mater) != 0 && !bt.stalemate || m > budgetMax || d > budgetMax {
		return within
	}
	b := budget()
	bt.maters, bt.holders = bt.maters[:0], bt.holders[:0]
	bt.menus = bt.menus[:0]
	for men := pos.ColorBB(mater); men != 0; {
		s := men.PopFirst()
		kind := pos.PieceAt(s).Type()
		bt.maters = append(bt.maters, budgetMan{sq: s, kind: kind})
		bt.menus = append(bt.menus, b.menusOf(mater, kind, s))
	}
	for _, c := range budgetCastlings {
		if cr&c.right&castlingOf(mater) != 0 {
			bt.maters = append(bt.maters, budgetMan{sq: c.kingTo, kind: board.King}, budgetMan{sq: c.rookTo, kind: board.Rook})
			bt.menus = append(bt.menus, b.menusOf(mater, board.King, c.kingTo), b.menusOf(mater, board.Rook, c.rookTo))
		}
	}
	for men := pos.ColorBB(def) &^ pos.Pieces(def, board.King); men != 0; {
		s := men.PopFirst()
		h := budgetMan{sq: s, kind: pos.PieceAt(s).Type(), alt: s}
		for _, c := range budgetCastlings {
			if cr != 0 && cr&c.right != 0 && s == c.rookFrom {
				h.alt = c.rookTo
			}
		}
		bt.holders = append(bt.holders, h)
	}
	// first the net test's own estimates, man by man: the squares that
	// can be checked, attacked, or held
	var check, cover board.Bitboard
	for _, man := range bt.maters {
		a := b.attack[mater][man.kind][man.sq][m]
		cover |= a
		if man.kind != board.King {
			check |= a
		}
	}
	var heldIn [budgetMax + 1]board.Bitboard
	for _, h := range bt.holders {
		for k := 0; k <= d; k++ {
			heldIn[k] |= b.stands[def][h.kind][h.sq][k] | b.stands[def][h.kind][h.alt][k]
		}
	}
	if bt.cost == nil { // the first test: every state is without a cost
		bt.cost = make([]uint8, 1<<18)
		for i := range bt.cost {
			bt.cost[i] = 255
		}
	}
	// walk[k]: the squares the king reaches in k moves
	ksq := pos.KingSquare(def)
	var walk [budgetMax + 1]board.Bitboard
	for k := 0; k <= d; k++ {
		walk[k] = b.ball[ksq][k]
		for _, c := range budgetCastlings {
			if cr&c.right != 0 && k > 0 && Mutant != Budget {
				walk[k] |= b.ball[c.kingTo][k-1]
			}
		}
	}
	if bt.stalemate && !bt.stuck.prepare(bt, b, mater, def, m, d, &walk) {
		return 0 // a man that cannot end stuck (stuck.go)
	}
	try := func(t board.Square) bool {
		w := 0
		for !walk[w].Has(t) {
			w++
		}
		// (in a stalemate the king's w moves come on top of the other
		// men's own: stuck.own)
		if board.KingAttacks(t)&^cover&^heldIn[d-w] != 0 || bt.stalemate && (bt.stuck.own+w > d || !bt.stuck.allowsAt(t, m)) {
			return false
		}
		return bt.ringAllows(b, mater, def, t, m, d-w, &heldIn)
	}
	hint := &bt.hint[m+d]
	ts := check & walk[d] & within
	if bt.stalemate {
		ts = walk[d] & within
	}
	var alive board.Bitboard
	if ts.Has(*hint) && try(*hint) {
		if !all {
			return within
		}
		alive |= board.SquareBB(*hint)
	}
	for ts &^= board.SquareBB(*hint); ts != 0; {
		if t := ts.PopFirst(); try(t) {
			*hint = t
			if !all {
				return within
			}
			alive |= board.SquareBB(t)
		}
	}
	return alive
}

// ringAllows reports whether the other side's king may be mated (or
// stalemated) on t: mater's men attack t (for a mate) and each of its
// flights, or a man of def's stands on the flight, within m moves of
// mater and dl of def (heldIn[k]: the squares some man of def can stand
// on in k moves).
func (bt *BudgetTest) ringAllows(b *budgetTables, mater, def board.Color, t board.Square, m, dl int, heldIn *[budgetMax + 1]board.Bitboard) bool {
	need := b.ringOf[t]
	if bt.stalemate {
		bt.stuckOn = bt.stuck.ring(b, t, heldIn[dl])
	}
	// hold[i]: the fewest moves a man of def needs to stand on flight i
	hold := [9]uint8{255, 255, 255, 255, 255, 255, 255, 255, 255}
	var seen board.Bitboard
	for k := 0; k <= dl; k++ {
		for fresh := heldIn[k] & board.KingAttacks(t) &^ seen; fresh != 0; {
			r := fresh.PopFirst()
			seen |= board.SquareBB(r)
			hold[3*(r.Rank()-t.Rank()+1)+r.File()-t.File()+1] = uint8(k)
		}
	}
	// the sets of ring bits mater's men can attack, at their fewest
	// moves, one man after the other (cost holds 255 but for live); the
	// men with the fewest options first, and the sets the last man makes
	// are tested, not kept
	bt.lists = bt.lists[:0]
	for _, menus := range bt.menus {
		if menu := &menus[t]; len(menu.opts) > 0 {
			bt.lists = append(bt.lists, menu)
		}
	}
	for i := 1; i < len(bt.lists); i++ { // (a few men: insertion)
		for j := i; j > 0 && len(bt.lists[j].opts) < len(bt.lists[j-1].opts); j-- {
			bt.lists[j], bt.lists[j-1] = bt.lists[j-1], bt.lists[j]
		}
	}
	// rest[k][c]: every ring bit the men from k on attack with c moves
	// each, a bound on what they can add to a set: a set that ends in no
	// mate even with all of it is dropped
	n := len(bt.lists)
	if cap(bt.rest) < n+1 {
		bt.rest = make([][budgetMax + 1]uint16, n+1)
	}
	rest := bt.rest[:n+1]
	rest[n] = [budgetMax + 1]uint16{}
	for k := n - 1; k >= 0; k-- {
		for c := 0; c <= m; c++ {
			rest[k][c] = rest[k+1][c] | bt.lists[k].upto[c]
		}
	}
	bt.stamp++
	// ends reports whether the state x can end in the aim: every flight a
	// man of the mating side stands on attacked, and holds
	ends := func(x uint32) bool {
		y, on := uint16(x&511), uint16(x>>9)
		if on&^y != 0 {
			return false
		}
		if bt.endStamp[y] != bt.stamp {
			bt.endStamp[y], bt.endOK[y] = bt.stamp, bt.holds(b, def, t, need, y, dl, &hold)
		}
		return bt.endOK[y]
	}
	bt.cost[0] = 0
	bt.live = append(bt.live[:0], 0)
	defer func() {
		for _, x := range bt.live {
			bt.cost[x] = 255
		}
	}()
	if !ends(uint32(rest[0][m])) {
		return false
	}
	if len(bt.lists) == 0 {
		return true
	}
	if m == 1 {
		// one man moves once at most: what the others attack where they
		// stand, and its option
		// (the others' flights stood on are not asked to be attacked:
		// that errs towards yes)
		for k, menu := range bt.lists {
			others := rest[k+1][0]
			if k > 0 {
				others |= bt.lists[0].upto[0]
				for _, l := range bt.lists[1:k] {
					others |= l.upto[0]
				}
			}
			for _, o := range menu.opts {
				if o.moves > 1 {
					break
				}
				y := uint32(others|o.ring) | uint32(o.on)<<9
				if o.victim == noVictim && ends(y) || o.victim != noVictim && bt.endsTaking(b, def, t, need, y, dl, o.victim) {
					return true
				}
			}
		}
		return false
	}
	for k, menu := range bt.lists {
		last := k == len(bt.lists)-1
		bt.updates = bt.updates[:0]
		for _, x := range bt.live {
			cx := bt.cost[x]
			if last && ends(x) {
				return true // the last man not needed
			}
			for _, o := range menu.opts {
				c := cx + o.moves
				if int(c) > m {
					break
				}
				y := x | uint32(o.ring) | uint32(o.on)<<9
				if last {
					if ends(y) {
						return true
					}
				} else if c < bt.cost[y] && ends(y|uint32(rest[k+1][m-int(c)])) {
					bt.updates = append(bt.updates, budgetUpdate{y, c})
				}
			}
		}
		for _, u := range bt.updates {
			if bt.cost[u.state] == 255 {
				bt.live = append(bt.live, u.state)
			}
			bt.cost[u.state] = min(bt.cost[u.state], u.moves)
		}
	}
	return false
}

// endsTaking is ends for the state x reached by a mating move that takes
// a man of def's on v (or en passant beside it): that man, gone, holds no
// flight.
func (bt *BudgetTest) endsTaking(b *budgetTables, def board.Color, t board.Square, need uint16, x uint32, dl int, v board.Square) bool {
	y, on := uint16(x&511), uint16(x>>9)
	if on&^y != 0 || y&ringCentre == 0 && !bt.stalemate {
		return false
	}
	return bt.assign(b, def, t, need&^y&^ringCentre, v, dl)
}

// holds reports whether, with the ring bits in x attacked by the mating
// side, t is checked (for a mate) and each of its other flights (in need) can be held
// by a distinct man of def's within dl moves (hold: the fewest moves any
// man of def's needs to stand on each flight).
func (bt *BudgetTest) holds(b *budgetTables, def board.Color, t board.Square, need, x uint16, dl int, hold *[9]uint8) bool {
	if x&ringCentre == 0 && !bt.stalemate {
		return false // no check
	}
	open := need &^ x &^ ringCentre
	moves, men := 0, 0
	for i := 0; i < 9 && moves <= dl; i++ {
		if open&(1<<i) != 0 {
			moves += int(hold[i])
			men++
		}
	}
	return moves <= dl && men <= len(bt.holders) && bt.assign(b, def, t, open, noVictim, dl)
}

// assignSteps bounds the first, depth-first search for an assignment,
// quick when one is found at once; past it the cheapest assignment is
// computed.
const assignSteps = 8

// assign reports whether the flights of t in open, and the square v of a
// man taken (unless noVictim: the man, or an en passant pawn beside it),
// can each be given a distinct man of def's, their moves adding up to at
// most dl.
func (bt *BudgetTest) assign(b *budgetTables, def board.Color, t board.Square, open uint16, v board.Square, dl int) bool {
	cols := len(bt.holders)
	if cols > maxCols {
		return true // (not counted: errs towards yes)
	}
	// In a stalemate each man's own moves to end stuck (stuck.cs, all
	// told stuck.own) are spent anyway: a man given a square here spends
	// what its way there costs beyond them, out of what the others leave.
	var own []int
	if bt.stalemate && len(bt.stuck.cs) == cols {
		own = bt.stuck.cs
		if dl -= bt.stuck.own; dl < 0 {
			return false
		}
	}
	st := &b.stand[def]
	cost := func(j int, h budgetMan, r board.Square) int32 {
		c := min(st[h.kind][h.sq][r], st[h.kind][h.alt][r])
		switch {
		case c == 255:
			return unreachable
		case own != nil:
			return int32(max(int(c)-own[j], 0))
		}
		return int32(c)
	}
	// lower: the sum of each row's cheapest man, a bound below the
	// assignment's cost. In a stalemate a man on a flight must end there
	// unable to move (stuckOn).
	rows := 0
	var lower int32
	for o := open; o != 0; o &= o - 1 {
		i := bits.TrailingZeros16(o)
		r := b.ringSq[t][i]
		least := int32(unreachable)
		for j, h := range bt.holders {
			c := cost(j, h, r)
			if bt.stalemate && bt.stuckOn[h.kind]&(1<<i) == 0 {
				c = unreachable
			}
			bt.costs[rows][j] = c
			least = min(least, c)
		}
		lower += least
		rows++
	}
	if v != noVictim {
		// en passant: a pawn taken on the sixth rank (White taking) or
		// the third (Black) may stand beside the square, a rank nearer
		// def
		beside := v
		if r := v.Rank(); def == board.Black && r == 5 {
			beside = v - 8
		} else if def == board.White && r == 2 {
			beside = v + 8
		}
		least := int32(unreachable)
		for j, h := range bt.holders {
			c := min(cost(j, h, v), cost(j, h, beside))
			bt.costs[rows][j] = c
			least = min(least, c)
		}
		lower += least
		rows++
	}
	if rows == 0 {
		return true
	}
	if rows > cols || lower > int32(dl) {
		return false
	}
	bt.steps = 0
	if ok := bt.search(rows, cols, 0, 0, int32(dl)); ok || bt.steps <= assignSteps {
		return ok
	}
	return cheapestAssignment(&bt.costs, rows, cols, int32(dl)) <= int32(dl)
}

// search is assign's depth-first search from row on, the men in used
// taken; it gives up (false) past assignSteps steps.
func (bt *BudgetTest) search(rows, cols, row int, used uint32, dl int32) bool {
	if row == rows {
		return true
	}
	if bt.steps++; bt.steps > assignSteps {
		return false
	}
	for j := 0; j < cols; j++ {
		if c := bt.costs[row][j]; used&(1<<j) == 0 && c <= dl && bt.search(rows, cols, row+1, used|1<<j, dl-c) {
			return true
		}
	}
	return false
}

// budgetUpdate is a state reached at a cost by one man.
type budgetUpdate struct {
	state uint32
	moves uint8
}

// budgetMenu is what a man can attack round a square t: its options,
// nearest first, one per set of ring bits, at its fewest moves, leaving
// out the sets another option attacks too at no more moves (so the
// options within m moves are a prefix); and upto[c], every ring bit its
// options of at most c moves attack.
type budgetMenu struct {
	opts []budgetOption
	upto [budgetMax + 1]uint16
}

// menusOf returns the menus of a man of mater's colour, of kind kind on
// sq, round each square t. A man never stands on t, a king never next
// to it, a king gives no check, nor does a knight or pawn that has not
// moved. The menus of a man are made the first time they are asked for.
func (b *budgetTables) menusOf(mater board.Color, kind board.PieceType, sq board.Square) []budgetMenu {
	b.optOnce[mater][kind][sq].Do(func() {
		menus := make([]budgetMenu, 64)
		for t := board.Square(0); t < 64; t++ {
			menu := &menus[t]
			var back *budgetOption // a knight's way back to where it stands
			for _, st := range b.reach[mater][kind][sq] {
				if back != nil && st.moves > back.moves {
					// (the options come by moves, fewest first: the
					// tests that read them stop at the first too dear)
					menu.opts = addOption(menu.opts, *back)
					menu.upto[back.moves] |= back.ring
					back = nil
				}
				ring := b.ring[mater][st.kind][st.sq][t]
				if st.moves == 0 && (st.kind == board.Knight || st.kind == board.Pawn) {
					// A knight or pawn that does not move gives no mate:
					// its check would be there before the last move,
					// when the other side has just moved. A knight that
					// goes and comes back (two moves) does: that is an
					// option of its own (2026-12-02: the h#3
					// 1k6/5b2/2n1K3/3n4/8/8/8/8 w, 1.Kxf7 Na5 2.Ke8 Nf6+
					// 3.Kd8 Nc6#, was lost).
					if st.kind == board.Knight && ring&ringCentre != 0 && st.sq != t {
						back = &budgetOption{ring, onRing(st.sq, t), 2, noVictim}
					}
					ring &^= ringCentre
				}
				if st.sq == t || ring == 0 || st.kind == board.King && ring&ringCentre != 0 {
					continue
				}
				victim := noVictim
				if kind == board.Pawn && st.moves == 1 && st.sq.File() != sq.File() {
					victim = st.sq // a pawn changes file by taking
				}
				menu.opts = addOption(menu.opts, budgetOption{ring, onRing(st.sq, t), st.moves, victim})
				menu.upto[st.moves] |= ring
			}
			if back != nil {
				menu.opts = addOption(menu.opts, *back)
				menu.upto[back.moves] |= back.ring
			}
			for c := 1; c <= budgetMax; c++ {
				menu.upto[c] |= menu.upto[c-1]
			}
		}
		b.menus[mater][kind][sq] = menus
	})
	return b.menus[mater][kind][sq]
}

// onRing is the ring bit of t's ring that s is on, or none.
func onRing(s, t board.Square) uint16 {
	if df, dr := s.File()-t.File(), s.Rank()-t.Rank(); abs(df) <= 1 && abs(dr) <= 1 {
		return 1 << (3*(dr+1) + df + 1)
	}
	return 0
}

// addOption puts o in opts unless an option there attacks all it does at
// no more moves, standing on no flight o does not, taking no man o does
// not; the options o beats go.
func addOption(opts []budgetOption, o budgetOption) []budgetOption {
	k := 0
	for _, p := range opts {
		if p.ring&o.ring == o.ring && p.moves <= o.moves && p.on&^o.on == 0 && (p.victim == noVictim || p.victim == o.victim) {
			return opts
		}
		if o.ring&p.ring == p.ring && o.moves <= p.moves && o.on&^p.on == 0 && (o.victim == noVictim || o.victim == p.victim) {
			continue
		}
		opts[k] = p
		k++
	}
	return append(opts[:k], o)
}

// castlingOf is c's castling rights.
func castlingOf(c board.Color) board.CastlingRights {
	if c == board.White {
		return board.WhiteKingside | board.WhiteQueenside
	}
	return board.BlackKingside | board.BlackQueenside
}

// lastBudget is the budget test of the positions after each move of the
// side about to be mated, one ply before the mate (m = 1, d = 0), made
// before the move is played. There the test depends only on the mating
// side's men, the king's square, which squares round it the king's own
// men stand on, and which of them stand where a pawn of the mating side
// can take them as it mates (a man that moves there can be taken, and a
// capture-promotion mates on a square no pawn attacked before: 2026-12-02,
// h#3 7n/8/1k4P1/b6P/4p3/1R3Q2/8/2K5 b, 1...Kc5 2.g7 Ng6 3.Qe4 Nf8
// gxf8=Q#): a move that changes none of them (most of them) shares the
// answer of the last move that did. A move that takes a man of the
// mating side, castles or takes en passant is left to the test after it,
// as are all moves while the side to move may castle.
type lastBudget struct {
	on      bool
	aim     problem.Aim
	occ     board.Bitboard // the men of the side to move but its king
	ksq     board.Square
	prey    board.Bitboard // where the mating side's pawns take as they mate
	answers []lastAnswer
}

// lastAnswer is the test's answer for a king square, the ring bits its
// own men stand on, and the men on prey.
type lastAnswer struct {
	t     board.Square
	occ   uint16
	prey  board.Bitboard
	allow bool
}

// pawnPrey is where a man of def's can stand to be taken by one move of
// a pawn of mater's: the squares its pawns attack, and for en passant the
// square beside a sixth-rank (White taking) or third-rank one.
func pawnPrey(pos *board.Position, mater board.Color) board.Bitboard {
	var prey board.Bitboard
	for pawns := pos.Pieces(mater, board.Pawn); pawns != 0; {
		for a := board.PawnAttacks(mater, pawns.PopFirst()); a != 0; {
			v := a.PopFirst()
			prey |= board.SquareBB(v)
			if mater == board.White && v.Rank() == 5 {
				prey |= board.SquareBB(v - 8)
			} else if mater == board.Black && v.Rank() == 2 {
				prey |= board.SquareBB(v + 8)
			}
		}
	}
	return prey
}

// newLastBudget prepares the test at pos, the side to move about to be
// mated after its move.
func newLastBudget(pos *board.Position, aim problem.Aim, answers []lastAnswer) lastBudget {
	def := pos.Side()
	if pos.Castling() != 0 {
		return lastBudget{}
	}
	return lastBudget{on: true, aim: aim, occ: pos.ColorBB(def) &^ pos.Pieces(def, board.King), ksq: pos.KingSquare(def),
		prey: pawnPrey(pos, def.Other()), answers: answers[:0]}
}

// keeps reports whether a mate in one may follow mv, the king mated on
// a square of within; bt makes the test when no move before had the same
// king square and ring.
func (l *lastBudget) keeps(bt *BudgetTest, pos *board.Position, mv board.Move, within board.Bitboard) bool {
	if !l.on || mv.IsCastling() || mv.IsEnPassant() || pos.Occupied().Has(mv.To()) {
		return true
	}
	t, occ := afterMove(l.ksq, l.occ, mv)
	if !within.Has(t) {
		return false
	}
	b := budget()
	var ring uint16
	for i := 0; i < 9; i++ {
		if b.ringOf[t]&(1<<i) != 0 && occ.Has(b.ringSq[t][i]) {
			ring |= 1 << i
		}
	}
	// A mate's test reads only the king's square and ring; a stalemate's
	// reads every man of the side (stuckAllows): it is not kept.
	prey := occ & l.prey
	if Mutant == LastMoveBudget {
		prey = 0
	}
	if l.aim == problem.Checkmate {
		for _, a := range l.answers {
			if a.t == t && a.occ == ring && a.prey == prey {
				return a.allow
			}
		}
	}
	child := *pos
	child.Play(mv)
	allow := bt.anySquareLeft(&child, l.aim, pos.Side().Other(), 1, 0)
	if l.aim == problem.Checkmate {
		l.answers = append(l.answers, lastAnswer{t, ring, prey, allow})
	}
	return allow
}
