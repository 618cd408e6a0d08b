package puzzles

import (
	"cmp"
	"slices"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/stipulation"
)

// popeyeOrder sorts a helpmate's solutions from pos into the order Popeye
// prints them, as observed on Popeye 4.104 (tools/popeyecheck compares
// the orders). Lines are ordered move by move. Before the last move a
// move's rank is: the mover's square from a1 up; then its direction in
// the order SW, SE, NE, NW, S, W, N, E (a knight from (-2,-1) round to
// (-2,+1); a king's castlings first, 0-0-0 before 0-0), farther squares
// first; a pawn's double step, single step,
// capture towards the h-file, capture towards the a-file; promotions to
// Q, S, R, B. At the last move, when Popeye finds it with a generator of
// its own (lastByMate: the move that mates), the movers come from h8
// down; the rest is the same.
func popeyeOrder(pos board.Position, sols []stipulation.Line, lastByMate bool) {
	slices.SortStableFunc(sols, func(a, b stipulation.Line) int {
		p := pos
		for i := 0; i < len(a) && i < len(b); i++ {
			if a[i] != b[i] {
				last := lastByMate && i == len(a)-1 && i == len(b)-1
				return compareRanks(popeyeRank(&p, a[i], last), popeyeRank(&p, b[i], last))
			}
			p.Play(a[i])
		}
		return len(a) - len(b)
	})
}

// moveRank is a move's place in Popeye's order, compared field by field.
type moveRank [4]int

func compareRanks(a, b moveRank) int {
	for k := range a {
		if a[k] != b[k] {
			return a[k] - b[k]
		}
	}
	return 0
}

// directionOrder ranks the eight directions (file step, rank step).
var directionOrder = [][2]int{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {0, 1}, {1, 0}}

// knightOrder ranks the knight's eight jumps.
var knightOrder = [][2]int{{-2, -1}, {-1, -2}, {1, -2}, {2, -1}, {2, 1}, {1, 2}, {-1, 2}, {-2, 1}}

// promotionOrder ranks the promotion pieces: Q, S, R, B.
var promotionOrder = map[board.PieceType]int{board.Queen: 0, board.Knight: 1, board.Rook: 2, board.Bishop: 3}

// popeyeRank is m's rank in pos; last orders the movers from h8 down.
func popeyeRank(pos *board.Position, m board.Move, last bool) moveRank {
	from, to := m.From(), m.To()
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	var r moveRank
	r[0] = int(from)
	switch pos.PieceAt(from).Type() {
	case board.Pawn:
		switch {
		case df == 0 && (dr == 2 || dr == -2):
			r[1] = 0
		case df == 0:
			r[1] = 1
		case df > 0:
			r[1] = 2
		default:
			r[1] = 3
		}
	case board.Knight:
		r[1] = slices.Index(knightOrder, [2]int{df, dr})
	default:
		if m.IsCastling() {
			r[1] = -1 // before the king's steps, 0-0-0 first
			if df < 0 {
				r[1] = -2
			}
			break
		}
		step := [2]int{cmp.Compare(df, 0), cmp.Compare(dr, 0)}
		r[1] = slices.Index(directionOrder, step)
		r[2] = -max(abs(df), abs(dr)) // farther first
	}
	if last {
		r[0] = -r[0]
	}
	if promo := m.Promotion(); promo != board.NoPieceType {
		r[3] = promotionOrder[promo]
	}
	return r
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// sortPopeye sorts first moves from pos (keys, tries) into Popeye's order.
func sortPopeye(pos board.Position, moves []board.Move) {
	slices.SortStableFunc(moves, func(a, b board.Move) int {
		return compareRanks(popeyeRank(&pos, a, false), popeyeRank(&pos, b, false))
	})
}
