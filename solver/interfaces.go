package solver

import (
	"mateline.dev/mateline/board"
	"mateline.dev/mateline/tablebase/dtmline"
)

// Prober answers win/draw/loss questions about positions with few pieces
// (Syzygy tables, in package endgame). WDL is from the side to move: 2 win,
// 1 win that the 50-move rule turns into a draw (cursed), 0 draw, -1 loss
// saved by the 50-move rule (blessed), -2 loss. ok is false when the
// position is not in the tables. ProbeWDL and ProbeDTZ must be safe for
// concurrent use: the threads of a solve, and the workers of a batch,
// share one Prober.
//
// ProbeDTZ returns the distance to zeroing in plies (positive when the
// side to move wins; cursed and blessed values are beyond ±100). The
// solver uses it as a lower bound on the distance to mate: mate is itself
// a zeroing move, so DTZ <= DTM.
type Prober interface {
	ProbeWDL(pos *board.Position) (wdl int, ok bool)
	ProbeDTZ(pos *board.Position) (dtz int, ok bool)
	MaxPieces() int
}

// Book suggests root moves (an opening book). It only orders moves: a proof
// never depends on it.
type Book interface {
	BookMoves(pos *board.Position) []board.Move
}

// DTM gives exact distances to mate (package dtm's Prober), as package
// tablebase/dtmline defines it: one interface for every front end.
type DTM = dtmline.DTM
