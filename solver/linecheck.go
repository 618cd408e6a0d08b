package solver

import (
	"fmt"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// CheckLine checks the main line of a mate as matetrack's matecheck.py
// does: every move legal, exactly the plies of the mate, checkmate at the
// end, and no draw that the losing side could claim on the way (the
// 50-move rule, or a position seen for the third time). It returns nil for
// a good line, else what is wrong with it.
func CheckLine(pos board.Position, mate problem.Mate, line []board.Move) error {
	if mate == 0 {
		return fmt.Errorf("no mate to check")
	}
	if want := mate.Plies(); len(line) != want {
		return fmt.Errorf("%d plies, want %d", len(line), want)
	}
	loser := mate.Winner(pos.Side()).Other()
	seen := map[uint64]int{pos.Key(): 1}
	for i, m := range line {
		if pos.Side() == loser && (pos.HalfmoveClock() >= 100 || seen[pos.Key()] >= 3) {
			return fmt.Errorf("ply %d: the losing side can claim a draw", i+1)
		}
		var l board.MoveList
		pos.LegalMoves(&l)
		if !l.Contains(m) {
			return fmt.Errorf("ply %d: %s is not legal in %s", i+1, m.UCI(), pos.FEN())
		}
		pos.Play(m)
		seen[pos.Key()]++
	}
	if !pos.IsCheckmate() {
		return fmt.Errorf("does not end in checkmate")
	}
	return nil
}
