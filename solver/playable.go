package solver

import (
	"slices"

	"mateline.dev/mateline/board"
)

// PlayableMove is the move to play when a search proved no mate (UCI's
// bestmove): the book's first move (Book lists them most weighted first)
// among rootMoves when they are given, else the move a one-move look
// finds soundest. It is a courtesy to GUIs and game harnesses, not a
// proof: it mates in one when it can, does not stalemate, does not allow
// a mate in one, takes material a reply cannot win back, does not leave
// the moved piece to be taken for less, and otherwise develops pieces
// and central pawns. Ties go to the first move in UCI order. It returns
// NoMove when pos has no legal move.
func PlayableMove(pos *board.Position, book, rootMoves []board.Move) board.Move {
	var l board.MoveList
	pos.LegalMoves(&l)
	moves := l.Slice()
	if len(rootMoves) > 0 {
		var keep []board.Move
		for _, m := range moves {
			if slices.Contains(rootMoves, m) {
				keep = append(keep, m)
			}
		}
		if len(keep) > 0 {
			moves = keep
		}
	}
	for _, b := range book {
		if slices.Contains(moves, b) {
			return b
		}
	}
	best, bestScore := board.NoMove, 0
	for _, m := range moves {
		v := playScore(pos, m)
		if best == board.NoMove || v > bestScore || v == bestScore && compareUCI(m, best) < 0 {
			best, bestScore = m, v
		}
	}
	return best
}

// pieceValue is the usual material scale, in centipawns.
var pieceValue = [7]int{0, 100, 300, 320, 500, 900, 0}

// playScore rates m for PlayableMove.
func playScore(pos *board.Position, m board.Move) int {
	us := pos.Side()
	after := *pos
	after.Play(m)
	var replies board.MoveList
	after.LegalMoves(&replies)
	if replies.N == 0 {
		if after.InCheck() {
			return 1 << 20 // mate in one
		}
		return -(1 << 19) // stalemate
	}
	v := 0
	moved := pos.PieceAt(m.From()).Type()
	if victim := pos.PieceAt(m.To()); victim != board.NoPiece {
		v += pieceValue[victim.Type()]
	} else if m.IsEnPassant() {
		v += pieceValue[board.Pawn]
	}
	if p := m.Promotion(); p != board.NoPieceType {
		v += pieceValue[p] - pieceValue[board.Pawn]
		moved = p
	}
	// The replies: a mate in one, and the cheapest capture of the piece
	// just moved.
	cheapest := 0
	for _, r := range replies.Slice() {
		next := after
		next.Play(r)
		if next.IsCheckmate() {
			return -(1 << 18)
		}
		if r.To() == m.To() {
			if a := pieceValue[after.PieceAt(r.From()).Type()]; a > 0 && (cheapest == 0 || a < cheapest) {
				cheapest = a
			}
		}
	}
	if cheapest > 0 && moved != board.King {
		// Taken for less, or taken for nothing when undefended.
		loss := pieceValue[moved]
		if defended(&after, m.To(), us) {
			loss = max(pieceValue[moved]-cheapest, 0)
		}
		v -= loss
	}
	return v*8 + development(pos, m, moved)
}

// defended reports whether side has a piece other than the one on sq
// that attacks sq in pos.
func defended(pos *board.Position, sq board.Square, side board.Color) bool {
	occ := pos.Occupied()
	for t := board.Pawn; t <= board.King; t++ {
		from := pos.Pieces(side, t) &^ board.SquareBB(sq)
		for from != 0 {
			s := from.PopFirst()
			if board.Attacks(t, side, s, occ).Has(sq) {
				return true
			}
		}
	}
	return false
}

// development is a small positional score of a quiet move: central pawns
// forward, minor pieces off the back rank and towards the centre,
// castling, and no king walks.
func development(pos *board.Position, m board.Move, moved board.PieceType) int {
	from, to := m.From(), m.To()
	switch {
	case m.IsCastling():
		return 6
	case moved == board.King:
		return -4
	case moved == board.Pawn:
		advance := to.Rank() - from.Rank()
		if advance < 0 {
			advance = -advance
		}
		return advance * [8]int{0, 0, 1, 2, 2, 1, 0, 0}[to.File()]
	case moved == board.Knight || moved == board.Bishop:
		back := 0
		if home := [2]int{0, 7}[pos.Side()]; from.Rank() == home && to.Rank() != home {
			back = 1
		}
		return centrality(to) - centrality(from) + back
	}
	return (centrality(to) - centrality(from)) / 2
}

// centrality is 3 on the four centre squares, 0 on the edge.
func centrality(s board.Square) int {
	d := func(x int) int {
		if x < 4 {
			return 3 - x
		}
		return x - 4
	}
	return 3 - max(d(s.File()), d(s.Rank()))
}
