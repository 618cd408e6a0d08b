package prune

import "mateline.dev/mateline/board"

// A helpmate's last plies are pruned by a necessary condition on the
// mating net: with m moves of the mating side and d of the other side
// left, some square t that the other side's king can reach in d moves
// must be attackable by a man of the mating side in m moves (the check),
// and every square round t must be attackable too, or held by a man of
// the king's side: one already there, or one that moves there, a move
// each, within the d moves the king's walk leaves. Every estimate errs
// towards yes: men move as on an empty board, never pinned, blocked or
// taken; pawns capture at will and promote to a queen or a knight; any
// man of the mating side may serve any square, the checker too. So a
// "no" is a proof that no solution is left, and the search prunes only
// then (castling rights, which move two men or a king two squares, turn
// the test off).

// netMax is the most moves per side the test is made for: beyond it
// nearly every square is within reach and the test rarely prunes.
const netMax = 3

// netKinds are the kinds a man has on the way: the six types (pawns
// become a queen or a knight on the last rank; a rook or bishop would
// reach and attack no more than the queen).
var netKinds = [...]board.PieceType{board.King, board.Queen, board.Rook, board.Bishop, board.Knight, board.Pawn}

// netState is a man on the way: its square and its kind.
type netState struct {
	sq   board.Square
	kind board.PieceType
}

// The net test reads the budget test's tables (matebudget.go): for a man
// of colour c and type t on square s, the squares it can stand on
// (stands) and attack (attack) after at most k of its moves, and the
// squares a king reaches in k steps (ball).

// netMoves lists a man's moves on an empty board, a pawn's captures
// included and its promotions to a queen or a knight.
func netMoves(c board.Color, s board.Square, kind board.PieceType) []netState {
	type move = netState
	var out []move
	if kind != board.Pawn {
		for to := board.Attacks(kind, c, s, 0); to != 0; {
			out = append(out, move{to.PopFirst(), kind})
		}
		return out
	}
	dir, start, last := 1, 1, 7
	if c == board.Black {
		dir, start, last = -1, 6, 0
	}
	f, r := s.File(), s.Rank()
	var tos []board.Square
	for df := -1; df <= 1; df++ {
		if f+df >= 0 && f+df < 8 {
			tos = append(tos, board.MakeSquare(f+df, r+dir))
		}
	}
	if r == start {
		tos = append(tos, board.MakeSquare(f, r+2*dir))
	}
	for _, to := range tos {
		if to.Rank() == last {
			out = append(out, move{to, board.Queen}, move{to, board.Knight})
			continue
		}
		out = append(out, move{to, board.Pawn})
	}
	return out
}

// netAllows reports whether the net test leaves a mate of mater's opponent
// possible at pos with m moves of mater and d of the opponent left (see
// the comment at the top of this file); true whenever the test does not
// apply.
func netAllows(pos *board.Position, mater board.Color, m, d int) bool {
	if m > netMax || d > netMax || pos.Castling() != 0 {
		return true
	}
	t := budget()
	def := mater.Other()
	check, cover := netCover(pos, mater, m)
	var block board.Bitboard
	held := pos.ColorBB(def) &^ pos.Pieces(def, board.King)
	for men := held; men != 0; {
		s := men.PopFirst()
		block |= t.stands[def][pos.PieceAt(s).Type()][s][d]
	}
	// (the flights the king cannot use are, at best, the covered ones and
	// those the mating side stands on)
	return netSquare(pos.KingSquare(def), d, check, cover|pos.ColorBB(mater), held, block)
}

// netCover returns the squares mater's men can attack in m moves each:
// check by the men but the king, cover by all.
func netCover(pos *board.Position, mater board.Color, m int) (check, cover board.Bitboard) {
	t := budget()
	for _, kind := range netKinds {
		if kind == board.Pawn && Mutant == MateNet {
			continue
		}
		for men := pos.Pieces(mater, kind); men != 0; {
			a := t.attack[mater][kind][men.PopFirst()][m]
			cover |= a
			if kind != board.King {
				check |= a
			}
		}
	}
	return check, cover
}

// netSquare reports whether some square the king on ksq reaches in d
// steps and the mating side can check may be its mating square: each
// square round it is in free (the king cannot use it), or held by a man
// of the king's side (one in held, or one that can reach it, in block,
// a move each, within what the king's walk leaves of d), a man for each.
func netSquare(ksq board.Square, d int, check, free, held, block board.Bitboard) bool {
	men := held.Count()
	for ts := budget().ball[ksq][d] & check; ts != 0; {
		sq := ts.PopFirst()
		flights := board.KingAttacks(sq) &^ free
		if flights.Count() > men {
			continue // a man of its own on each flight
		}
		need := flights &^ held
		if need&^block != 0 {
			continue // a flight no man of its side can reach
		}
		walk := steps(ksq, sq)
		if walk+need.Count() <= d {
			return true
		}
	}
	return false
}

// lastMoveNet is the net test of the positions after each move of the
// side about to be mated, one ply before the mate (m = 1, d = 0), made
// from the position before that move: the mating side's reach does not
// depend on the other side's men, so only the king's square and the men
// that hold its flights change with the move. A move it refuses leads to
// a position whose own test fails (the mating side can only have lost a
// man), so the search need not play it.
type lastMoveNet struct {
	on          bool
	check, free board.Bitboard
	held        board.Bitboard
	ksq         board.Square
}

// newLastMoveNet prepares the test at pos, the side to move about to be
// mated after its move; off with castling rights.
func newLastMoveNet(pos *board.Position) lastMoveNet {
	if pos.Castling() != 0 {
		return lastMoveNet{}
	}
	def := pos.Side()
	mater := def.Other()
	check, cover := netCover(pos, mater, 1)
	return lastMoveNet{on: true, check: check, free: cover | pos.ColorBB(mater),
		held: pos.ColorBB(def) &^ pos.Pieces(def, board.King), ksq: pos.KingSquare(def)}
}

// keeps reports whether a mate in one may follow m.
func (n lastMoveNet) keeps(m board.Move) bool {
	if !n.on {
		return true
	}
	ksq, held := afterMove(n.ksq, n.held, m)
	if Mutant == LastMoveNet {
		held = n.held
	}
	return n.check.Has(ksq) && board.KingAttacks(ksq)&^n.free&^held == 0
}

// afterMove returns where a king on ksq and its other men (men) stand
// after their side plays m (a capture, castling or en passant changes
// more than this).
func afterMove(ksq board.Square, men board.Bitboard, m board.Move) (board.Square, board.Bitboard) {
	if m.From() == ksq {
		return m.To(), men
	}
	return ksq, men&^board.SquareBB(m.From()) | board.SquareBB(m.To())
}

// materMoveNet is the net test of the positions after each move of the
// mating side three plies before the mate (then m = 1, d = 1), made
// before the move is played: only the moving man's reach changes; the
// other side's men are taken as before the move (a man the move takes
// still counts as holding and reaching squares, which errs towards yes).
type materMoveNet struct {
	on                 bool
	mater              board.Color
	coverBut, checkBut [64]board.Bitboard // the others' cover and check, by the mover's square
	occ                board.Bitboard     // the mating side's men
	held, block        board.Bitboard
	men                int
	ksq                board.Square
}

// newMaterMoveNet prepares the test at pos, the mating side to move with
// two moves of its own left; off with castling rights.
func newMaterMoveNet(pos *board.Position) materMoveNet {
	if pos.Castling() != 0 {
		return materMoveNet{}
	}
	t := budget()
	mater := pos.Side()
	def := mater.Other()
	n := materMoveNet{on: true, mater: mater, occ: pos.ColorBB(mater), ksq: pos.KingSquare(def)}
	var cover, check [64]board.Bitboard
	var all, allCheck board.Bitboard
	for men := n.occ; men != 0; {
		s := men.PopFirst()
		kind := pos.PieceAt(s).Type()
		cover[s] = t.attack[mater][kind][s][1]
		all |= cover[s]
		if kind != board.King {
			check[s] = cover[s]
			allCheck |= check[s]
		}
	}
	for men := n.occ; men != 0; {
		s := men.PopFirst()
		// the others' union, the mover's own part left out
		var c, k board.Bitboard
		for others := n.occ &^ board.SquareBB(s); others != 0; {
			o := others.PopFirst()
			c |= cover[o]
			k |= check[o]
		}
		n.coverBut[s], n.checkBut[s] = c, k
	}
	n.held = pos.ColorBB(def) &^ pos.Pieces(def, board.King)
	for men := n.held; men != 0; {
		s := men.PopFirst()
		n.block |= t.stands[def][pos.PieceAt(s).Type()][s][1]
	}
	return n
}

// keeps reports whether a mate may still follow m (a move of piece, the
// mating side's man on m.From(), a promotion giving its new kind) within
// the mating side's one move and the other side's one move after it.
func (n *materMoveNet) keeps(pos *board.Position, m board.Move) bool {
	if !n.on {
		return true
	}
	t := budget()
	kind := pos.PieceAt(m.From()).Type()
	if p := m.Promotion(); p != board.NoPieceType && Mutant != MaterMoveNet {
		kind = p
	}
	a := t.attack[n.mater][kind][m.To()][1]
	cover, check := n.coverBut[m.From()]|a, n.checkBut[m.From()]
	if kind != board.King {
		check |= a
	}
	free := cover | n.occ&^board.SquareBB(m.From()) | board.SquareBB(m.To())
	return netSquare(n.ksq, 1, check, free, n.held, n.block)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
