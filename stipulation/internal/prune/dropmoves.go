package prune

import "mateline.dev/mateline/board"

// dropMoves takes out of l, before they are played, the moves the
// movers test refuses (helpstalemates): for def, the side to be
// stalemated, those of men that belong to no configuration the test
// lets through (movable; in a solution the man that moves now moves
// in the stalemate's last d moves) and, with two moves left, those
// whose man moves once in every such configuration but not to a square
// it may end on there (endsOn); for mater, with d of def's moves
// left, the quiet moves of men quietRefused names. Each counts as
// a node, the child's test made here: it returns how many it took out.
func (p *Pruner) dropMoves(pos *board.Position, l *board.MoveList, movable board.Bitboard, mater board.Color, m, d int) int {
	var drop func(board.Move) bool
	if pos.Side() != mater {
		if movable == Everywhere {
			return 0
		}
		drop = func(mv board.Move) bool {
			return !movable.Has(mv.From()) || d == 2 && !p.movers.endsOn(mv.From(), mv.To(), m) ||
				Mutant == StalemateDrops && mv.Promotion() != board.NoPieceType
		}
	} else {
		b := budget()
		quiet := p.movers.quietRefused(pos, b, mater, m, d)
		if quiet == 0 {
			return 0
		}
		blocks := pawnBlocks(pos, b, mater.Other())
		drop = func(mv board.Move) bool { return quiet.Has(mv.From()) && quietMove(pos, mv, blocks) }
	}
	kept := l.Moves[:0]
	for _, mv := range l.Slice() {
		if !drop(mv) {
			kept = append(kept, mv)
		}
	}
	dropped := l.N - len(kept)
	l.N = len(kept)
	return dropped
}
