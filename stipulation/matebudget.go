package stipulation

import (
	"sync"

	"mateline.dev/mateline/board"
)

// The budget test is the net test (matenet.go) with the moves counted
// per man: the net test lets every square round the mating square be
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
	ringSq         [64][9]board.Square // the squares of t's ring, by bit
	ringOf         [64]uint16          // the bits of t's ring on the board
	// opts[c][kind][s][t]: what the man can attack round t (options)
	opts    [2][7][64][][]budgetOption
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
// attacks from one state, and the moves it takes.
type budgetOption struct {
	ring  uint16
	moves uint8
}

// budgetMan is a man of the board: its square and kind.
type budgetMan struct {
	sq   board.Square
	kind board.PieceType
}

// budgetTest is the budget test of one search: its working memory, and
// the mating square that let the last position through, by the plies
// left, tried first.
type budgetTest struct {
	maters, holders []budgetMan
	cost            [512]uint8 // the fewest moves that attack a set of ring bits (255: none)
	live            []uint16   // the sets with a cost
	updates         []budgetUpdate
	hint            [2*budgetMax + 1]board.Square
}

// allows reports whether the budget test leaves a mate of mater's
// opponent possible at pos with m moves of mater and d of the opponent
// left; true whenever the test does not apply.
func (bt *budgetTest) allows(pos *board.Position, mater board.Color, m, d int) bool {
	def := mater.Other()
	// Castling moves two men at once, the king two squares: counted man
	// by man and step by step it may take three moves, so a side that
	// may castle has two more.
	if cr := pos.Castling(); cr != 0 {
		if cr&castlingOf(mater) != 0 {
			m += 2
		}
		if cr&castlingOf(def) != 0 {
			d += 2
		}
	}
	if m > budgetMax || d > budgetMax {
		return true
	}
	b := budget()
	bt.maters, bt.holders = bt.maters[:0], bt.holders[:0]
	for men := pos.ColorBB(mater); men != 0; {
		s := men.PopFirst()
		bt.maters = append(bt.maters, budgetMan{s, pos.PieceAt(s).Type()})
	}
	for men := pos.ColorBB(def) &^ pos.Pieces(def, board.King); men != 0; {
		s := men.PopFirst()
		bt.holders = append(bt.holders, budgetMan{s, pos.PieceAt(s).Type()})
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
			heldIn[k] |= b.stands[def][h.kind][h.sq][k]
		}
	}
	if bt.cost[0] == 0 { // the first test: every set is without a cost
		for i := range bt.cost {
			bt.cost[i] = 255
		}
	}
	ksq := pos.KingSquare(def)
	hint := &bt.hint[m+d]
	try := func(t board.Square) bool {
		walk := max(abs(t.File()-ksq.File()), abs(t.Rank()-ksq.Rank()))
		if walk > d {
			return false
		}
		if board.KingAttacks(t)&^cover&^heldIn[d-walk] != 0 {
			return false
		}
		return bt.ringAllows(b, mater, t, m, d-walk, &heldIn)
	}
	if check.Has(*hint) && try(*hint) {
		return true
	}
	for ts := check &^ board.SquareBB(*hint); ts != 0; {
		if t := ts.PopFirst(); try(t) {
			*hint = t
			return true
		}
	}
	return false
}

// ringAllows reports whether the other side's king may be mated on t:
// mater's men attack t and each of its flights, or a man of def's stands
// on the flight, within m moves of mater and dl of def (heldIn[k]: the
// squares some man of def can stand on in k moves).
func (bt *budgetTest) ringAllows(b *budgetTables, mater board.Color, t board.Square, m, dl int, heldIn *[budgetMax + 1]board.Bitboard) bool {
	need := b.ringOf[t]
	// hold[i]: the fewest moves a man of def needs to stand on flight i
	var hold [9]uint8
	for i := range hold {
		hold[i] = 255
		if i == 4 || need&(1<<i) == 0 {
			continue
		}
		r := b.ringSq[t][i]
		for k := 0; k <= dl; k++ {
			if heldIn[k].Has(r) {
				hold[i] = uint8(k)
				break
			}
		}
	}
	// the sets of ring bits mater's men can attack, at their fewest
	// moves, one man after the other (cost holds 255 but for live)
	bt.cost[0] = 0
	bt.live = append(bt.live[:0], 0)
	defer func() {
		for _, x := range bt.live {
			bt.cost[x] = 255
		}
	}()
	full := need | ringCentre
	for _, man := range bt.maters {
		opts := b.options(mater, man.kind, man.sq, t)
		if len(opts) == 0 {
			continue
		}
		bt.updates = bt.updates[:0]
		for _, x := range bt.live {
			cx := bt.cost[x]
			for _, o := range opts {
				c := cx + o.moves
				if int(c) > m {
					break
				}
				y := x | o.ring
				if y == full {
					return true
				}
				if c < bt.cost[y] {
					bt.updates = append(bt.updates, budgetUpdate{y, c})
				}
			}
		}
		for _, u := range bt.updates {
			if bt.cost[u.ring] == 255 {
				bt.live = append(bt.live, u.ring)
			}
			bt.cost[u.ring] = min(bt.cost[u.ring], u.moves)
		}
	}
	for _, x := range bt.live {
		if x&ringCentre == 0 {
			continue // no check
		}
		open := need &^ x
		moves, men := 0, 0
		for i := 0; i < 9 && moves <= dl; i++ {
			if open&(1<<i) != 0 {
				moves += int(hold[i])
				men++
			}
		}
		if moves <= dl && men <= len(bt.holders) {
			return true
		}
	}
	return false
}

// budgetUpdate is a set of ring bits reached at a cost by one man.
type budgetUpdate struct {
	ring  uint16
	moves uint8
}

// options returns what a man of mater's colour, of kind kind on sq, can
// attack round t, nearest first: one option per set of ring bits, at its
// fewest moves, leaving out the sets another option attacks too at no
// more moves (so the options within m moves are a prefix). A man never
// stands on t, a king never next to it, and a king gives no check. The
// lists of a man are made the first time it is asked for.
func (b *budgetTables) options(mater board.Color, kind board.PieceType, sq board.Square, t board.Square) []budgetOption {
	b.optOnce[mater][kind][sq].Do(func() {
		lists := make([][]budgetOption, 64)
		for t := board.Square(0); t < 64; t++ {
			var opts []budgetOption
			for _, st := range b.reach[mater][kind][sq] {
				ring := b.ring[mater][st.kind][st.sq][t]
				if st.sq == t || ring == 0 || st.kind == board.King && ring&ringCentre != 0 {
					continue
				}
				opts = addOption(opts, budgetOption{ring, st.moves})
			}
			lists[t] = opts
		}
		b.opts[mater][kind][sq] = lists
	})
	return b.opts[mater][kind][sq][t]
}

// addOption puts o in opts unless an option there attacks all it does at
// no more moves; the options o beats go.
func addOption(opts []budgetOption, o budgetOption) []budgetOption {
	k := 0
	for _, p := range opts {
		if p.ring&o.ring == o.ring && p.moves <= o.moves {
			return opts
		}
		if o.ring&p.ring == p.ring && o.moves <= p.moves {
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
