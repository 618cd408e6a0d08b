package tablebase

import (
	"errors"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/endgame"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/tablebase/dtmline"
)

// Tables are the tables a front end answers from: Syzygy files,
// mateline's DTM tables, or both (either may be nil).
type Tables struct {
	Syzygy *endgame.Tablebase
	DTM    *dtm.Store
}

// Values is what the tables say of one position, without its moves: the
// figures of serve's /standard for it and for each move's position.
type Values struct {
	// DTM is the distance to mate in signed moves from the side to move
	// (+N it mates in N, -N it is mated in N, 0 neither can force mate);
	// nil when no DTM table answers, and for a checkmate (no distance).
	DTM *problem.Mate
	// DTZ is Syzygy's distance to zeroing in plies, signed from the side
	// to move; nil when no Syzygy file answers. PreciseDTZ: the files
	// give it exactly (else it may be one ply more than the true value).
	DTZ        *int
	PreciseDTZ bool
}

// Values probes pos in both kinds of table. The error, a *NotInTables,
// says why neither answered; a checkmate or a stalemate needs no table
// and never has one.
func (t Tables) Values(pos *board.Position) (Values, error) {
	var v Values
	dtzErr := errors.New("no Syzygy files")
	if t.Syzygy != nil && pos.Occupied().Count() <= t.Syzygy.MaxPieces() {
		if z, precise, err := t.Syzygy.ProbeDTZPrecise(pos); err == nil {
			v.DTZ, v.PreciseDTZ = &z, precise
			dtzErr = nil
		} else {
			dtzErr = err
		}
	}
	dtmErr := errors.New("no DTM tables")
	checkmate := pos.IsCheckmate()
	if t.DTM != nil && dtm.Covers(pos) {
		if checkmate {
			dtmErr = nil // known, and nil: a mated position has no distance
		} else if d, err := t.DTM.Probe(pos); err == nil {
			m := problem.Mate(d.Signed())
			v.DTM, dtmErr = &m, nil
		} else {
			dtmErr = err
		}
	}
	if dtmErr != nil && dtzErr != nil && !checkmate && !pos.IsStalemate() {
		return v, t.unanswered(pos, dtmErr, dtzErr)
	}
	return v, nil
}

// Answer is everything the tables say of a position and its moves:
// what probe prints.
type Answer struct {
	Position board.Position
	// Ending names a checkmate or a stalemate ("" otherwise).
	Ending string
	// DTM is the root's distance to mate in signed moves (nil: no DTM
	// table answers); DTMMoves every legal move with its value for the
	// mover, best first; DTMLine the DTM-optimal line.
	DTM      *problem.Mate
	DTMMoves []dtmline.Move
	DTMLine  []board.Move
	// WDL and DTZ are Syzygy's values of the root (nil: no file
	// answers); RootWDL the WDL at the position's half-move clock;
	// Syzygy every legal move ranked by the files, best first;
	// WinningLine the DTZ line of a won position.
	WDL, DTZ, RootWDL *int
	Syzygy            []endgame.RootMove
	WinningLine       []board.Move
	// Err says why the tables do not answer (a *NotInTables when the
	// position is not in them, or a table is not built), or what went
	// wrong reading them. A DTM answer stands when only Syzygy failed.
	Err error
}

// Answer probes pos and each of its moves in both kinds of table; dt is
// the DTM view to probe the moves through (a dtm.Prober of t.DTM), nil
// without DTM tables.
func (t Tables) Answer(pos board.Position, dt dtmline.DTM) Answer {
	a := Answer{Position: pos}
	switch {
	case pos.IsCheckmate():
		a.Ending = "checkmate: the side to move is mated"
	case pos.IsStalemate():
		a.Ending = "stalemate"
	}
	if a.Ending == "" {
		t.answerDTM(&a, dt)
	}
	if t.Syzygy == nil {
		if a.DTM == nil && a.Ending == "" {
			a.Err = &NotInTables{Why: "not in the DTM tables: " + t.dtmReason(&pos) + "; and no Syzygy directory was given"}
		}
		return a
	}
	err := t.answerSyzygy(&a)
	switch {
	case err == nil:
	case a.DTM != nil && (errors.Is(err, endgame.ErrNotInTables) || errors.Is(err, endgame.ErrMissing)):
		// the DTM answer stands
	case errors.Is(err, endgame.ErrNotInTables):
		a.Err = &NotInTables{Why: err.Error()}
	default:
		a.Err = err
	}
	return a
}

// answerDTM fills in the DTM part of a: the root, the moves, the line.
func (t Tables) answerDTM(a *Answer, dt dtmline.DTM) {
	if dt == nil || !dtm.Covers(&a.Position) {
		return
	}
	moves, ok := dtmline.Moves(dt, a.Position)
	if !ok || len(moves) == 0 {
		return
	}
	root := moves[0].Mate
	a.DTM, a.DTMMoves = &root, moves
	if line, ok := dtmline.Line(dt, a.Position); ok {
		a.DTMLine = line
	}
}

// answerSyzygy fills in the Syzygy part of a, all of it or none.
func (t Tables) answerSyzygy(a *Answer) error {
	pos := &a.Position
	wdl, err := t.Syzygy.ProbeWDL(pos)
	if err != nil {
		return err
	}
	dtz, err := t.Syzygy.ProbeDTZ(pos)
	if err != nil {
		return err
	}
	moves, rootWDL, err := t.Syzygy.ProbeRoot(pos)
	if err != nil {
		return err
	}
	a.WDL, a.DTZ, a.RootWDL, a.Syzygy = &wdl, &dtz, &rootWDL, moves
	if wdl > 0 {
		line, err := t.Syzygy.WinningLine(*pos)
		if err != nil {
			return err
		}
		a.WinningLine = line
	}
	return nil
}
