package endgame

import (
	"errors"
	"fmt"

	"mateline.dev/mateline/board"
)

// WDL values, from the side to move.
const (
	Loss        = -2
	BlessedLoss = -1 // lost, but saved by the 50-move rule
	Draw        = 0
	CursedWin   = 1 // won, but drawn by the 50-move rule
	Win         = 2
)

// WDLName names a WDL value in words.
func WDLName(wdl int) string {
	switch wdl {
	case Loss:
		return "loss"
	case BlessedLoss:
		return "blessed loss"
	case Draw:
		return "draw"
	case CursedWin:
		return "cursed win"
	case Win:
		return "win"
	}
	return "?"
}

// probable checks that pos can be probed at all.
func (tb *Tablebase) probable(pos *board.Position) error {
	if pos.Castling() != board.NoCastling {
		return fmt.Errorf("%w: castling rights", ErrNotInTables)
	}
	if n := pos.Occupied().Count(); n > tb.maxPieces || n > 7 {
		return fmt.Errorf("%w: %d pieces", ErrNotInTables, n)
	}
	return nil
}

// isCapture reports whether m takes a piece (en passant included).
func isCapture(pos *board.Position, m board.Move) bool {
	return pos.PieceAt(m.To()) != board.NoPiece || m.IsEnPassant()
}

// wdlTable is the raw table WDL of pos, which may be below the truth where
// a capture is best.
func (tb *Tablebase) wdlTable(pos *board.Position) (int, error) {
	if pos.Occupied().Count() == 2 {
		return Draw, nil
	}
	_, _, raw, err := tb.lookup(pos, false)
	if err != nil {
		return 0, err
	}
	return raw - 2, nil
}

// search resolves captures (not en passant) by alpha-beta over capture
// moves, as the tables require.
func (tb *Tablebase) search(pos *board.Position, alpha, beta int) (int, error) {
	var l board.MoveList
	pos.Captures(&l)
	for _, m := range l.Slice() {
		c := *pos
		c.Play(m)
		v, err := tb.search(&c, -beta, -alpha)
		if err != nil {
			return 0, err
		}
		v = -v
		if v > alpha {
			if v >= beta {
				return v, nil
			}
			alpha = v
		}
	}
	t, err := tb.wdlTable(pos)
	if err != nil {
		return 0, err
	}
	return max(alpha, t), nil
}

// epResult returns the best WDL over legal en-passant captures, whether
// there is any, and whether every legal move is one.
func (tb *Tablebase) epResult(pos *board.Position) (best int, any, all bool, err error) {
	if pos.EnPassant() == board.NoSquare {
		return 0, false, false, nil
	}
	var l board.MoveList
	pos.LegalMoves(&l)
	best, all = -3, l.N > 0
	for _, m := range l.Slice() {
		if !m.IsEnPassant() {
			all = false
			continue
		}
		any = true
		c := *pos
		c.Play(m)
		v, err := tb.search(&c, -2, 2)
		if err != nil {
			return 0, false, false, err
		}
		best = max(best, -v)
	}
	return best, any, all, nil
}

// ProbeWDL returns the win/draw/loss value of pos from the side to move.
// The error wraps ErrNotInTables for positions with castling rights or too
// many pieces, or is a *TableError naming a missing or damaged file.
func (tb *Tablebase) ProbeWDL(pos *board.Position) (int, error) {
	if err := tb.probable(pos); err != nil {
		return 0, err
	}
	return tb.probeWDL(pos)
}

func (tb *Tablebase) probeWDL(pos *board.Position) (int, error) {
	v, err := tb.search(pos, -2, 2)
	if err != nil {
		return 0, err
	}
	e, any, all, err := tb.epResult(pos)
	if err != nil || !any {
		return v, err
	}
	if e >= v || v == 0 && all {
		v = e
	}
	return v, nil
}

// zeroingDTZ is the DTZ of a position whose best move zeroes the clock at
// once, by its WDL.
func zeroingDTZ(wdl int) int {
	return map[int]int{2: 1, 1: 101, 0: 0, -1: -101, -2: -1}[wdl]
}

// dtzTable reads the DTZ file for pos of the given WDL, or errOtherSide.
// precise is false when the file stores halved values: the truth may then
// be one ply more.
func (tb *Tablebase) dtzTable(pos *board.Position, wdl int) (dtz int, precise bool, err error) {
	t, s, raw, err := tb.lookup(pos, true)
	if err != nil {
		return 0, false, err
	}
	v, err := t.mapDTZ(s, raw, wdl)
	if err != nil {
		return 0, false, &TableError{t.path, err}
	}
	precise = wdl == 2 && s.flags&flagWinPlies != 0 || wdl == -2 && s.flags&flagLossPlies != 0
	if !precise {
		v *= 2
	}
	base := 1
	if wdl == 1 || wdl == -1 {
		base = 101
	}
	if wdl < 0 {
		return -(base + v), precise, nil
	}
	return base + v, precise, nil
}

const infinityDTZ = 1 << 20

// dtzNoEP computes the DTZ of pos ignoring its en-passant right, and
// whether it is precise (see dtzTable).
func (tb *Tablebase) dtzNoEP(pos *board.Position) (int, bool, error) {
	var l board.MoveList
	pos.LegalMoves(&l)
	c := -2
	for _, m := range l.Slice() {
		if pos.PieceAt(m.To()) == board.NoPiece || c == 2 {
			continue
		}
		child := *pos
		child.Play(m)
		v, err := tb.search(&child, -2, -c)
		if err != nil {
			return 0, false, err
		}
		c = max(c, -v)
	}
	t, err := tb.wdlTable(pos)
	if err != nil {
		return 0, false, err
	}
	wdl := max(c, t)
	if wdl == 0 {
		return 0, true, nil
	}
	if c >= t && c > 0 {
		return zeroingDTZ(wdl), true, nil
	}
	if wdl > 0 {
		for _, m := range l.Slice() {
			if isCapture(pos, m) || pos.PieceAt(m.From()).Type() != board.Pawn {
				continue
			}
			child := *pos
			child.Play(m)
			v, err := tb.probeWDL(&child)
			if err != nil {
				return 0, false, err
			}
			if -v == wdl {
				return zeroingDTZ(wdl), true, nil
			}
		}
	}
	r, precise, err := tb.dtzTable(pos, wdl)
	if !errors.Is(err, errOtherSide) {
		return r, precise, err
	}
	// The file holds the other side to move: one ply of search. The value
	// is as precise as the child's it comes from.
	best, precise := infinityDTZ, true
	if wdl < 0 {
		best = zeroingDTZ(wdl)
	}
	for _, m := range l.Slice() {
		if isCapture(pos, m) || pos.PieceAt(m.From()).Type() == board.Pawn {
			continue
		}
		child := *pos
		child.Play(m)
		v, p, err := tb.probeDTZ(&child)
		if err != nil {
			return 0, false, err
		}
		v = -v
		switch {
		case wdl < 0 && v-1 < best:
			best, precise = v-1, p
		case v == 1 && child.IsCheckmate():
			best, precise = 1, true
		case wdl > 0 && v > 0 && v+1 < best:
			best, precise = v+1, p
		}
	}
	return best, precise, nil
}

// ProbeDTZ returns the distance to zeroing of pos in plies: positive when
// the side to move wins, negative when it loses, 0 for a draw. Halved
// tables may give one ply less than the truth (see the format notes).
func (tb *Tablebase) ProbeDTZ(pos *board.Position) (int, error) {
	dtz, _, err := tb.ProbeDTZPrecise(pos)
	return dtz, err
}

// ProbeDTZPrecise is ProbeDTZ, and whether the value is precise: false
// when it comes from a table that stores halved values, where the truth
// may be one ply more (Lichess's dtz and precise_dtz).
func (tb *Tablebase) ProbeDTZPrecise(pos *board.Position) (int, bool, error) {
	if err := tb.probable(pos); err != nil {
		return 0, false, err
	}
	return tb.probeDTZ(pos)
}

func (tb *Tablebase) probeDTZ(pos *board.Position) (int, bool, error) {
	v, precise, err := tb.dtzNoEP(pos)
	if err != nil {
		return 0, false, err
	}
	e, any, all, err := tb.epResult(pos)
	if err != nil || !any {
		return v, precise, err
	}
	d := zeroingDTZ(e)
	before := v
	switch {
	case v < -100:
		if d >= 0 {
			v = d
		}
	case v < 0:
		if d >= 0 || d < -100 {
			v = d
		}
	case v > 100:
		if d > 0 {
			v = d
		}
	case v > 0:
		if d == 1 {
			v = d
		}
	case d >= 0:
		v = d
	case all:
		v = d
	}
	if v != before {
		precise = true // an en-passant capture zeroes at once
	}
	return v, precise, nil
}

// RootMove is one legal move ranked by the tables.
type RootMove struct {
	Move board.Move
	WDL  int // from the mover's side, honouring the half-move clock
	DTZ  int // DTZ of the position if this move is played, from the mover's side
}

// ProbeRoot ranks every legal move of pos, best first: quickest safe win,
// then wins, draws, and the longest losses. It also returns the WDL of pos
// honouring its half-move clock (cursed wins and blessed losses).
func (tb *Tablebase) ProbeRoot(pos *board.Position) ([]RootMove, int, error) {
	if err := tb.probable(pos); err != nil {
		return nil, 0, err
	}
	h := pos.HalfmoveClock()
	var l board.MoveList
	pos.LegalMoves(&l)
	moves := make([]RootMove, 0, l.N)
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		var dtz int
		switch {
		case child.IsCheckmate():
			dtz = 1
		case isCapture(pos, m) || pos.PieceAt(m.From()).Type() == board.Pawn:
			w, err := tb.probeWDL(&child)
			if err != nil {
				return nil, 0, err
			}
			dtz = zeroingDTZ(-w)
		default:
			v, _, err := tb.probeDTZ(&child)
			if err != nil {
				return nil, 0, err
			}
			v = -v
			switch {
			case v > 0:
				dtz = v + 1
			case v < 0:
				dtz = v - 1
			}
		}
		moves = append(moves, RootMove{Move: m, WDL: clockWDL(dtz, h), DTZ: dtz})
	}
	sortRootMoves(moves)
	dtz, _, err := tb.probeDTZ(pos)
	if err != nil {
		return nil, 0, err
	}
	return moves, clockWDL(dtz, h), nil
}

// clockWDL turns a DTZ into a WDL under the 50-move rule at clock h.
func clockWDL(dtz, h int) int {
	switch {
	case dtz > 0 && dtz+h <= 100:
		return Win
	case dtz > 0:
		return CursedWin
	case dtz < 0 && -dtz+h <= 100:
		return Loss
	case dtz < 0:
		return BlessedLoss
	}
	return Draw
}

// rank orders moves: wins by smallest DTZ, then draws, then losses by
// largest |DTZ|.
func rank(m RootMove) int {
	switch {
	case m.DTZ > 0:
		return 3000 - m.DTZ
	case m.DTZ < 0:
		return -3000 - m.DTZ
	}
	return 0
}

func sortRootMoves(ms []RootMove) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && rank(ms[j]) > rank(ms[j-1]); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}
