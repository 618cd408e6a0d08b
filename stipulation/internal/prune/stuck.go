package prune

import (
	"math/bits"

	"mateline.dev/mateline/board"
)

// A stalemate leaves every man of the stalemated side unable to move,
// not only its king. A man with a move it may play is not stuck: so in
// the final position each man of that side but the king is taken, pinned
// (by a line piece of the other side's, on a line through the king), or
// blocked: a pawn by a man on the square before it, a piece by men of its
// own side on every square it could step to (a slider's next square
// along each of its lines). A pinned queen can always move along the
// pin, and so can a bishop pinned on a diagonal and a rook on a rank or
// file. The stuck test asks whether each man can still be one of these
// within the moves left, on an empty board, and whether the men only a
// capture can stop number no more than the captures left: a man that
// cannot rules the stalemate out.

// lastRanks are the squares a pawn promotes on.
const lastRanks = board.Rank1 | board.Rank8

// looseMan is a man of the stalemated side that cannot end blocked: it
// must be pinned or taken. stand: where it can stand; orth, diag: the
// lines it can be pinned on (through the king, with a piece of the
// other side beyond it); takeable: a man of the other side can stand
// where it can.
type looseMan struct {
	stand      board.Bitboard
	orth, diag bool
	takeable   bool
}

// stuckTest is the stuck test's state at one position: the loose men, and
// where mater's pieces that pin along ranks and files (orth) or
// diagonals (diag) can stand.
type stuckTest struct {
	loose            []looseMan
	orthPin, diagPin board.Bitboard
	// pinners: each of mater's men that can pin, where it can stand as
	// a rook's line (orth) and a bishop's (diag); a man pins one man at
	// most, so each man pinned needs a pinner of its own
	pinners   []pinner
	can       []uint16                                   // allowsAt's: the pinners each loose man may have
	mate      []int8                                     // allowsAt's: the loose man each pinner pins, or -1
	own       int                                        // the fewest moves the men but the king must make themselves to end stuck, all told
	cs        []int                                      // each holder's share of own, in the order of the holders
	in, after [maxCols + 1][budgetMax + 1]board.Bitboard // prepare's
}

// pinner is a man of mater's that can pin: where it can stand as a
// piece that moves along ranks and files, and along diagonals.
type pinner struct{ orth, diag board.Bitboard }

// prepare makes the test's state at pos, with m moves of mater's and d
// of def's left, def's king reaching the squares of kingWalk[k] in k
// moves; false when a man can end neither blocked, pinned nor taken on
// any square.
func (st *stuckTest) prepare(bt *BudgetTest, b *budgetTables, mater, def board.Color, m, d int, kingWalk *[budgetMax + 1]board.Bitboard) bool {
	st.loose, st.own, st.cs = st.loose[:0], 0, st.cs[:0]
	// where mater's men can stand (take a man), and where its line
	// pieces can (a pawn that may promote counts as both)
	var takes board.Bitboard
	st.orthPin, st.diagPin = 0, 0
	st.pinners = st.pinners[:0]
	for _, man := range bt.maters {
		s := b.stands[mater][man.kind][man.sq][m]
		takes |= s
		var p pinner
		switch man.kind {
		case board.Queen:
			p = pinner{s, s}
		case board.Rook:
			p.orth = s
		case board.Bishop:
			p.diag = s
		case board.Pawn:
			if s&lastRanks != 0 {
				p = pinner{s, s}
			}
		}
		if p.orth|p.diag != 0 {
			st.orthPin |= p.orth
			st.diagPin |= p.diag
			st.pinners = append(st.pinners, p)
		}
	}
	// in[i][k]: where holder i can stand within k moves; others[k]: where
	// any other man of def's can (the king too), from the unions before
	// i and after it
	n := len(bt.holders)
	if n > maxCols {
		return true // (not followed: errs towards yes)
	}
	for k := 0; k <= d; k++ {
		st.after[n][k] = 0
	}
	for i := n - 1; i >= 0; i-- {
		h := bt.holders[i]
		for k := 0; k <= d; k++ {
			st.in[i][k] = b.stands[def][h.kind][h.sq][k] | b.stands[def][h.kind][h.alt][k]
			st.after[i][k] = st.after[i+1][k] | st.in[i][k]
		}
	}
	// own: the fewest moves the men must make themselves to end stuck,
	// all told: each man's are its own, so they add up within d (with
	// the king's to the square tested: BudgetTest.SquaresLeft)
	before := *kingWalk
	for i, h := range bt.holders {
		var others [budgetMax + 1]board.Bitboard
		for k := 0; k <= d; k++ {
			others[k] = before[k] | st.after[i+1][k]
			before[k] |= st.in[i][k]
		}
		reach := st.in[i][d]
		l := looseMan{stand: reach, takeable: reach&takes != 0}
		// (a promoted pawn: pinned on any line, as a pawn or a knight)
		orth, diag := pinLines(h.kind)
		l.orth, l.diag = orth && st.orthPin != 0, diag && st.diagPin != 0
		// c: the fewest moves of its own after which it can be blocked,
		// pinned (anywhere, for all this test knows) or taken
		var c int
		if h.kind == board.Pawn && reach&lastRanks != 0 {
			c = promotedBlock(b, h, def, d, &others, takes)
		} else {
			c = blockAt(&st.in[i], h.kind, def, d, &others, takes)
		}
		blockable := c >= 0
		if l.orth || l.diag {
			c = 0
		}
		for k := 0; k <= d && (c < 0 || k < c); k++ {
			if st.in[i][k]&takes != 0 {
				c = k
			}
		}
		if c < 0 {
			return false // neither blocked, pinned nor taken
		}
		st.cs = append(st.cs, c)
		if st.own += c; st.own > d {
			return false
		}
		if !blockable {
			st.loose = append(st.loose, l)
		}
	}
	return true
}

// promotedBlock is blockAt for holder h, a pawn that may promote
// within d moves: blocked as a pawn, or as the piece it becomes (the
// fewest moves of the four). A rook or a bishop is taken to stand
// wherever a queen could (the squares a queen reaches include theirs,
// and more squares only make a block likelier), so the test errs towards
// fewer moves.
func promotedBlock(b *budgetTables, h budgetMan, def board.Color, d int, others *[budgetMax + 1]board.Bitboard, takes board.Bitboard) int {
	var pawn, queen, knight [budgetMax + 1]board.Bitboard
	for _, s := range b.reach[def][board.Pawn][h.sq] {
		if int(s.moves) > d {
			break // (nearest first)
		}
		switch s.kind {
		case board.Pawn:
			pawn[s.moves] |= board.SquareBB(s.sq)
		case board.Queen:
			queen[s.moves] |= board.SquareBB(s.sq)
		case board.Knight:
			knight[s.moves] |= board.SquareBB(s.sq)
		}
	}
	for k := 1; k <= d; k++ {
		pawn[k] |= pawn[k-1]
		queen[k] |= queen[k-1]
		knight[k] |= knight[k-1]
	}
	best := -1
	for _, c := range [...]int{
		blockAt(&pawn, board.Pawn, def, d, others, takes),
		blockAt(&knight, board.Knight, def, d, others, takes),
		blockAt(&queen, board.Bishop, def, d, others, takes),
		blockAt(&queen, board.Rook, def, d, others, takes),
	} {
		if c >= 0 && (best < 0 || c < best) {
			best = c
		}
	}
	return best
}

// blockAt gives the fewest moves c after which a man of kind kind,
// standing on the squares in[c] within c moves, can end blocked on a
// square q it reaches in c moves (-1: none): a pawn by any man before it
// (others[k]: where def's other men stand within k moves; takes: where
// mater's can) or taken there en passant; a piece by distinct men of its
// side on every square round it, their moves and its c within d. (A
// queen is never blocked where a rook and a bishop are not both.)
func blockAt(in *[budgetMax + 1]board.Bitboard, kind board.PieceType, def board.Color, d int, others *[budgetMax + 1]board.Bitboard, takes board.Bitboard) int {
	for c := 0; c <= d; c++ {
		left := d - c
		qs := in[c]
		if c > 0 {
			qs &^= in[c-1]
		}
		for qs != 0 {
			q := qs.PopFirst()
			if kind == board.Pawn {
				// the taker en passant stands behind it
				ahead, behind := q+8, q-8
				if def == board.Black {
					ahead, behind = q-8, q+8
				}
				if (others[left] | takes).Has(ahead) || (q.Rank() == 3 || q.Rank() == 4) && takes.Has(behind) {
					return c
				}
				continue
			}
			// the men's moves to the squares round it: each square
			// counts once for every k it is not reached within
			steps := stepsOf(kind, q)
			if steps&^others[left] != 0 {
				continue
			}
			need := 0
			for k := 0; k < left && need <= left; k++ {
				need += bits.OnesCount64(uint64(steps &^ others[k]))
			}
			if need <= left {
				return c
			}
		}
	}
	return -1
}

// allowsAt reports whether the loose men can each be pinned against the
// king on t, each by a pinner of its own, or taken, with no more of them
// taken than the m moves left.
func (st *stuckTest) allowsAt(t board.Square, m int) bool {
	st.can = st.can[:0]
	taken, firm := 0, 0 // firm: the men that can only be pinned, first in can
	for _, l := range st.loose {
		var can uint16
		for j, p := range st.pinners {
			if l.orth && pinnerBeyond(t, l.stand, board.Rook, p.orth) || l.diag && pinnerBeyond(t, l.stand, board.Bishop, p.diag) {
				can |= 1 << j
			}
		}
		switch {
		case can == 0:
			if taken++; !l.takeable || taken > m {
				return false
			}
		case !l.takeable:
			st.can = append(st.can, 0)
			copy(st.can[firm+1:], st.can[firm:])
			st.can[firm] = can
			firm++
		default:
			st.can = append(st.can, can)
		}
	}
	if len(st.can) == 0 {
		return true
	}
	// a pinner for each man that can only be pinned (one by one: when
	// no augmenting path is left for one, no matching covers them all),
	// then for as many of the others as can have one; the rest taken
	st.mate = st.mate[:0]
	for range st.pinners {
		st.mate = append(st.mate, -1)
	}
	for i := range st.can {
		if !st.augment(i, 0) {
			if i < firm {
				return false
			}
			if taken++; taken > m {
				return false
			}
		}
	}
	return true
}

// augment looks for a pinner for man i (of st.can) along an augmenting
// path, the pinners in seen already tried.
func (st *stuckTest) augment(i int, seen uint16) bool {
	for c := st.can[i] &^ seen; c != 0; c &= c - 1 {
		j := bits.TrailingZeros16(c)
		seen |= 1 << j
		if st.mate[j] < 0 || st.augment(int(st.mate[j]), seen) {
			st.mate[j] = int8(i)
			return true
		}
	}
	return false
}

// ring gives, for each kind of man, the bits of t's ring on whose
// square a man of def's of that kind can end unable to move with its
// king on t: pinned (a knight on any line, a bishop on a rank or file, a
// rook on a diagonal, a pinner able to stand beyond it), or blocked, men
// of its side able to stand (held) on every square it could step to but
// t, where the king is. A pawn is taken to be able to end stuck
// anywhere (errs towards yes).
func (st *stuckTest) ring(b *budgetTables, t board.Square, held board.Bitboard) [7]uint16 {
	var on [7]uint16
	on[board.Pawn] = 0x1ff
	for i := 0; i < 9; i++ {
		r, ok := ringSquare(t, i)
		if !ok || r == t {
			continue
		}
		bit := uint16(1) << i
		rook := r.File() == t.File() || r.Rank() == t.Rank()
		free := held | board.SquareBB(t)
		orthPinned := rook && beyond(t, r)&st.orthPin != 0
		diagPinned := !rook && beyond(t, r)&st.diagPin != 0
		if orthPinned || diagPinned || stepsOf(board.Knight, r)&^free == 0 {
			on[board.Knight] |= bit
		}
		if orthPinned || stepsOf(board.Bishop, r)&^free == 0 {
			on[board.Bishop] |= bit
		}
		if diagPinned || stepsOf(board.Rook, r)&^free == 0 {
			on[board.Rook] |= bit
		}
		if stepsOf(board.Queen, r)&^free == 0 {
			on[board.Queen] |= bit
		}
	}
	return on
}

// pinnerBeyond reports whether a man standing on a square of stand on one of
// t's lines of kind line (a rook's or a bishop's) can have a piece of
// pinners beyond it on that line.
func pinnerBeyond(t board.Square, stand board.Bitboard, line board.PieceType, pinners board.Bitboard) bool {
	for qs := stand & board.Attacks(line, board.White, t, 0); qs != 0; {
		if beyond(t, qs.PopFirst())&pinners != 0 {
			return true
		}
	}
	return false
}

// beyond is the squares on the line from t through q past q.
func beyond(t, q board.Square) board.Bitboard {
	return board.Line(t, q) & board.QueenAttacks(q, board.SquareBB(t)) &^ board.Between(t, q) &^ board.SquareBB(t)
}

// stepsOf is the squares a man of kind kind on q steps to first: a
// knight's jumps, a slider's next square along each of its lines (a
// king's and a queen's: every square round it).
func stepsOf(kind board.PieceType, q board.Square) board.Bitboard {
	return stepTable[kind][q]
}

// stepTable holds stepsOf, worked out once.
var stepTable = func() (t [7][64]board.Bitboard) {
	for q := board.Square(0); q < 64; q++ {
		round := board.KingAttacks(q)
		orth := round & board.Attacks(board.Rook, board.White, q, 0)
		for kind := range t {
			t[kind][q] = round
		}
		t[board.Knight][q] = board.KnightAttacks(q)
		t[board.Bishop][q] = round &^ orth
		t[board.Rook][q] = orth
	}
	return t
}()
