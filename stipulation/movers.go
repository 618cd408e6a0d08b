package stipulation

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
// counts their moves round the king), a pawn that promotes is taken to
// end stuck, and with two men moving the squares they leave are taken to
// stay filled. With castling rights on either side the test is not made
// (castling moves two men in one move).

// moverMan is a man of def's: what it needs to end unable to move.
type moverMan struct {
	sq    board.Square
	steps board.Bitboard // the squares that must be filled to stop it
	need  board.Bitboard // those of steps not filled now
	other bool           // the other side can stop it: take it, or stand before it (a pawn)
	pin   bool           // it can be pinned with the king where it is
	pinAt bool           // it can be pinned with the king on a square it reaches
}

// movers is the movers test's working memory.
type movers struct {
	men  []moverMan // def's men but the king, and the king's flights (sq: the king)
	from []board.Square
	king board.Square
	// takes: where the other side's men can stand within its moves;
	// orthPin, diagPin: where as a piece that pins along ranks and files,
	// along diagonals; hits: what they can attack
	takes, orthPin, diagPin, hits board.Bitboard
	own, occ                      board.Bitboard
	def                           board.Color
	cand                          board.Bitboard // the squares a man that moves may have to fill
	b                             *budgetTables
}

// pinnable reports whether a man on s can be pinned against the king on
// t along a rank or file (orth) or a diagonal (diag).
func (mv *movers) pinnable(t, s board.Square, orth, diag bool) bool {
	past := mv.b.past[t][s]
	if past == 0 {
		return false
	}
	if t.File() == s.File() || t.Rank() == s.Rank() {
		return orth && past&mv.orthPin != 0
	}
	return diag && past&mv.diagPin != 0
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
	case board.Queen:
		return board.KingAttacks(s)
	}
	return stepsOf(kind, s)
}

// allows reports whether def, with d (1 or 2) moves left, can still be
// stalemated by mater, which has m moves; true when the test does not
// apply.
func (mv *movers) allows(pos *board.Position, b *budgetTables, mater board.Color, m, d int) bool {
	if d < 1 || d > 2 || m > budgetMax || pos.Castling() != 0 {
		return true
	}
	def := mater.Other()
	mv.b, mv.def = b, def
	mv.own, mv.occ = pos.ColorBB(def), pos.Occupied()
	mv.king = pos.KingSquare(def)
	mv.takes, mv.orthPin, mv.diagPin, mv.hits = 0, 0, 0, 0
	for men := pos.ColorBB(mater); men != 0; {
		s := men.PopFirst()
		kind := pos.PieceAt(s).Type()
		st := b.stands[mater][kind][s][m]
		mv.takes |= st
		mv.hits |= b.attack[mater][kind][s][m]
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
	walk := b.ball[mv.king][d]
	mv.men, mv.from, mv.cand = mv.men[:0], mv.from[:0], 0
	mv.from = append(mv.from, mv.king)
	// the king's flights the other side cannot attack must be filled
	ring := board.KingAttacks(mv.king) &^ mv.hits
	mv.men = append(mv.men, moverMan{sq: mv.king, steps: ring, need: ring &^ mv.own})
	for men := mv.own &^ board.SquareBB(mv.king); men != 0; {
		s := men.PopFirst()
		mv.from = append(mv.from, s)
		kind := pos.PieceAt(s).Type()
		n := moverMan{sq: s, steps: stepsFor(def, kind, s), other: mv.takes.Has(s)}
		if kind == board.Pawn {
			n.need = n.steps &^ mv.occ
			n.other = n.other || mv.takes&n.steps != 0
		} else {
			n.need = n.steps &^ mv.own
		}
		orth, diag := pinLines(kind)
		n.pin = mv.pinnable(mv.king, s, orth, diag)
		n.pinAt = n.pin
		for ts := walk; ts != 0 && !n.pinAt && (orth || diag); {
			n.pinAt = mv.pinnable(ts.PopFirst(), s, orth, diag)
		}
		mv.men = append(mv.men, n)
	}
	for i := range mv.men {
		if n := &mv.men[i]; bits.OnesCount64(uint64(n.need)) <= d {
			mv.cand |= n.need
		}
	}
	// one man moving all d moves, to each square f it reaches (back to
	// its own with two)
	for _, x := range mv.from {
		kind := pos.PieceAt(x).Type()
		fs := b.stands[def][kind][x][d] &^ board.SquareBB(x)
		here := board.SquareBB(x)
		if c0 := mv.stayCost(x, x, 0, 0, here); c0 <= m {
			for gs := fs; gs != 0; {
				if c := mv.moverCost(kind, x, gs.PopFirst(), 0); c >= 0 && c <= m-c0 {
					return true
				}
			}
		}
		for gs := fs & mv.cand; gs != 0; {
			f := gs.PopFirst()
			if c := mv.moverCost(kind, x, f, 0); c >= 0 && c+mv.stayCost(x, x, board.SquareBB(f), 0, here) <= m {
				return true
			}
		}
		if d == 2 {
			if c := mv.moverCost(kind, x, x, 0); c >= 0 && c+mv.stayCost(x, x, 0, 0, 0) <= m {
				return true
			}
		}
	}
	if d == 1 {
		return false
	}
	// two men moving once each: each ends stuck too, on its own or on a
	// square the other may fill (the fewest each costs alone, and the men
	// that stay, add up to a bound from below: the moves of the other
	// side each needs are distinct)
	for i, x := range mv.from {
		kx := pos.PieceAt(x).Type()
		rx := b.stands[def][kx][x][1] &^ board.SquareBB(x)
		for _, y := range mv.from[i+1:] {
			ky := pos.PieceAt(y).Type()
			ry := b.stands[def][ky][y][1] &^ board.SquareBB(y)
			c := mv.stayCost(x, y, rx, ry, 0)
			if c > m {
				continue
			}
			if c += mv.leastCost(kx, x, rx, ry); c > m {
				continue
			}
			if c+mv.leastCost(ky, y, ry, rx) <= m {
				return true
			}
		}
	}
	return false
}

// never is a cost beyond any moves left.
const never = 1 << 10

// stayCost is the fewest moves of the other side with which, the men on
// x and y moving (y == x: one man) and filling squares they reach (rx,
// ry: a square each), every other man can end stuck: filled, stopped by
// the other side (a move each), or pinned (with the king moving, on a
// square it reaches); never when some man cannot. The squares of vac
// are emptied by the men that move (not refilled by them: they are not
// in rx or ry).
func (mv *movers) stayCost(x, y board.Square, rx, ry, vac board.Bitboard) int {
	movers := 2
	if x == y {
		movers = 1
	}
	kingMoves := x == mv.king || y == mv.king
	forced := 0             // the men only the other side can stop
	var base board.Bitboard // the squares that must be filled
	var flexQ [16]board.Bitboard
	flex := 0 // the men the other side or a fill can stop
	for i := range mv.men {
		n := &mv.men[i]
		if n.sq == x || n.sq == y {
			continue // (the king's flights too, when it moves)
		}
		need := n.need | n.steps&vac
		if need == 0 || n.pin || kingMoves && n.pinAt {
			continue
		}
		canFill := bits.OnesCount64(uint64(need)) <= movers && need&^(rx|ry) == 0
		switch {
		case canFill && n.other:
			if flex < len(flexQ) {
				flexQ[flex] = need
				flex++
			} // (more are left out: towards yes)
		case canFill:
			base |= need
		case n.other:
			forced++
		default:
			return never
		}
	}
	// the squares the men that move fill: none, one, or (two men) one
	// each
	best := never
	try := func(q board.Bitboard) {
		if base&^q != 0 {
			return
		}
		c := forced
		for _, o := range flexQ[:flex] {
			if o&^q != 0 {
				c++
			}
		}
		best = min(best, c)
	}
	try(0)
	if flex == 0 && base == 0 {
		return best
	}
	cand := base
	for _, q := range flexQ[:flex] {
		cand |= q
	}
	for qs := cand & (rx | ry); qs != 0; {
		try(board.SquareBB(qs.PopFirst()))
	}
	if x != y {
		for qs := cand & rx; qs != 0; {
			s := qs.PopFirst()
			for ts := cand & ry &^ board.SquareBB(s); ts != 0; {
				try(board.SquareBB(s) | board.SquareBB(ts.PopFirst()))
			}
		}
	}
	return best
}

// moverCost is what the man of kind moving from x to f asks of the
// other side to end stuck there: 0 (filled, or pinnable), 1 (a move: to
// take it, or stand before it), -1 (it cannot). A need of one square the
// other man that moves reaches (other) counts as filled. A king must be
// left no flight the other side cannot attack; a pawn that promotes is
// taken to end stuck.
func (mv *movers) moverCost(kind board.PieceType, x, f board.Square, other board.Bitboard) int {
	if kind == board.Pawn && lastRanks.Has(f) {
		return 0
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
	if need == 0 || need&(need-1) == 0 && need&other != 0 {
		return 0
	}
	if kind == board.King {
		return -1
	}
	orth, diag := pinLines(kind)
	if mv.pinnable(mv.king, f, orth, diag) {
		return 0
	}
	if mv.takes.Has(f) || kind == board.Pawn && mv.takes&need != 0 {
		return 1
	}
	return -1
}

// leastCost is the least moverCost of the man of kind on x moving to a
// square of fs, a square the other man that moves reaches (other)
// counting as filled.
func (mv *movers) leastCost(kind board.PieceType, x board.Square, fs, other board.Bitboard) int {
	best := never
	for fs != 0 {
		c := mv.moverCost(kind, x, fs.PopFirst(), other)
		if c == 0 {
			return 0
		}
		if c > 0 {
			best = min(best, c)
		}
	}
	return best
}
