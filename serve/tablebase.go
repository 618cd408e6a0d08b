package serve

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/tablebase"
)

// PositionInfo is what the tables say of one position, field for field
// as Lichess's tablebase API gives it.
type PositionInfo struct {
	Checkmate            bool     `json:"checkmate"`
	Stalemate            bool     `json:"stalemate"`
	VariantWin           bool     `json:"variant_win"`
	VariantLoss          bool     `json:"variant_loss"`
	InsufficientMaterial bool     `json:"insufficient_material"`
	DTZ                  *int     `json:"dtz"`
	PreciseDTZ           *int     `json:"precise_dtz"`
	DTM                  *int     `json:"dtm"`
	DTW                  *int     `json:"dtw"`
	DTC                  *int     `json:"dtc"`
	Category             Category `json:"category"`
}

// MoveInfo is one legal move and the position it leads to.
type MoveInfo struct {
	UCI        string `json:"uci"`
	SAN        string `json:"san"`
	Zeroing    bool   `json:"zeroing"`
	Conversion bool   `json:"conversion"`
	PositionInfo

	capture, promotion board.PieceType // for the order
}

// Probe is the answer to GET /standard: the position and every legal
// move, best first.
type Probe struct {
	PositionInfo
	Moves []MoveInfo `json:"moves"`
}

// Tables are what the server answers from: Syzygy files, mateline's DTM
// tables, or both (either may be nil). What they say of a position is
// package tablebase's answer; this type turns it into Lichess's.
type Tables tablebase.Tables

// errNotInTables is a position no table answers (HTTP 404); moves are
// its legal moves, each unknown but for a mate or a draw it gives at
// once, when the answer lists them (GET /standard).
type errNotInTables struct {
	why   string
	moves []MoveInfo
}

func (e errNotInTables) Error() string { return e.why }

// notInTables turns tablebase's reason into the server's 404.
func notInTables(err error) error {
	var nt *tablebase.NotInTables
	if errors.As(err, &nt) {
		return errNotInTables{why: nt.Why}
	}
	return err
}

// info says what the tables know of pos; h is the half-move clock before
// the move that led to it (for a root, its own less one), which decides
// whether a mate came in time.
func (t Tables) info(pos *board.Position, hBefore int) (PositionInfo, error) {
	var pi PositionInfo
	pi.Checkmate, pi.Stalemate = pos.IsCheckmate(), pos.IsStalemate()
	pi.InsufficientMaterial = pos.InsufficientMaterial()
	v, err := tablebase.Tables(t).Values(pos)
	pi.DTZ = v.DTZ
	if v.DTZ != nil && v.PreciseDTZ {
		pz := *v.DTZ
		pi.PreciseDTZ = &pz
	}
	if v.DTM != nil {
		d := plies(int(*v.DTM))
		pi.DTM = &d
	}
	h := pos.HalfmoveClock()
	switch {
	case pi.Stalemate || pi.InsufficientMaterial || pi.DTZ != nil && *pi.DTZ == 0:
		pi.Category = Draw
	case pi.Checkmate && hBefore < 100:
		pi.Category = Loss
	case pi.Checkmate:
		pi.Category = BlessedLoss
	case pi.DTZ != nil && hBefore < 100:
		pi.Category = dtzCategory(*pi.DTZ, pi.PreciseDTZ != nil, h)
	case pi.DTZ != nil && *pi.DTZ < 0:
		pi.Category = BlessedLoss
	case pi.DTZ != nil:
		pi.Category = CursedWin
	case pi.DTM != nil && hBefore < 100:
		pi.Category = dtmCategory(*pi.DTM, h)
	case pi.DTM != nil && *pi.DTM < 0:
		pi.Category = BlessedLoss
	case pi.DTM != nil && *pi.DTM > 0:
		pi.Category = CursedWin
	case pi.DTM != nil:
		pi.Category = Draw
	default:
		pi.Category = Unknown
	}
	return pi, notInTables(err)
}

// plies turns signed moves (+N mate in N, -N mated in N) into Lichess's
// signed plies: 2N-1 to give mate, -2N to be mated.
func plies(m int) int {
	switch {
	case m > 0:
		return 2*m - 1
	case m < 0:
		return 2 * m
	}
	return 0
}

// Standard answers GET /standard for pos: what the tables say of it and
// of every legal move, best first; a checkmate or a stalemate is answered
// whatever the tables. An error is errNotInTables when no table covers
// the position, with the legal moves.
func (t Tables) Standard(pos *board.Position) (Probe, error) {
	var p Probe
	if !pos.HasLegalMove() {
		// a checkmate or a stalemate needs no table
		p.PositionInfo, _ = t.info(pos, max(pos.HalfmoveClock()-1, 0))
		p.Moves = []MoveInfo{}
		return p, nil
	}
	if err := tablebase.Tables(t).Covered(pos); err != nil {
		return p, withMoves(notInTables(err), pos)
	}
	root, err := t.info(pos, max(pos.HalfmoveClock()-1, 0))
	if err != nil {
		return p, withMoves(err, pos)
	}
	p.PositionInfo = root
	var l board.MoveList
	pos.LegalMoves(&l)
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		mi := moveInfo(pos, m)
		info, err := t.info(&child, pos.HalfmoveClock())
		if err != nil && !info.Checkmate {
			// A child no table answers (a missing one) is unknown.
			info.Category = Unknown
		}
		mi.PositionInfo = info
		p.Moves = append(p.Moves, mi)
	}
	slices.SortStableFunc(p.Moves, compareMoves)
	// A maybe-category after a sure one before the move is sure too.
	for _, fix := range [][3]Category{{Win, SyzygyLoss, Loss}, {CursedWin, SyzygyLoss, BlessedLoss},
		{BlessedLoss, SyzygyWin, CursedWin}, {Loss, SyzygyWin, Win}} {
		if p.Category != fix[0] {
			continue
		}
		for i := range p.Moves {
			if p.Moves[i].Category != fix[1] {
				break
			}
			p.Moves[i].Category = fix[2]
		}
	}
	if len(p.Moves) > 0 {
		p.Category = p.Moves[0].Category.Neg()
	}
	return p, nil
}

// withMoves adds pos's legal moves to an errNotInTables (a position no
// table answers still has them); other errors pass as they are.
func withMoves(err error, pos *board.Position) error {
	if e, ok := err.(errNotInTables); ok {
		e.moves = untabledMoves(pos)
		return e
	}
	return err
}

// moveInfo is move m of pos, with what it takes and promotes to, before
// the tables are asked of the position it leads to.
func moveInfo(pos *board.Position, m board.Move) MoveInfo {
	mi := MoveInfo{UCI: m.UCI(), SAN: pos.SAN(m), promotion: m.Promotion()}
	moved := pos.PieceAt(m.From()).Type()
	if victim := pos.PieceAt(m.To()); victim != board.NoPiece {
		mi.capture = victim.Type()
	} else if m.IsEnPassant() {
		mi.capture = board.Pawn
	}
	mi.Zeroing = mi.capture != board.NoPieceType || moved == board.Pawn
	mi.Conversion = mi.capture != board.NoPieceType || mi.promotion != board.NoPieceType
	return mi
}

// untabledMoves lists the legal moves of a position no table answers:
// a move that mates is a loss for the opponent (blessed when the 50-move
// rule came first), one that stalemates or leaves no mating material a
// draw, any other unknown; in the order /standard gives the categories
// (a mate before the 50-move rule first, then the unknown, then a mate
// after it, then the draws), else of the moves' generation.
func untabledMoves(pos *board.Position) []MoveInfo {
	var l board.MoveList
	pos.LegalMoves(&l)
	moves := []MoveInfo{}
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		mi := moveInfo(pos, m)
		mi.Checkmate, mi.Stalemate = child.IsCheckmate(), child.IsStalemate()
		mi.InsufficientMaterial = child.InsufficientMaterial()
		switch {
		case mi.Checkmate && pos.HalfmoveClock() < 100:
			mi.Category = Loss
		case mi.Checkmate:
			mi.Category = BlessedLoss
		case mi.Stalemate || mi.InsufficientMaterial:
			mi.Category = Draw
		default:
			mi.Category = Unknown
		}
		moves = append(moves, mi)
	}
	slices.SortStableFunc(moves, func(a, b MoveInfo) int { return cmp.Compare(a.Category, b.Category) })
	return moves
}

// compareMoves orders moves best first for the mover, as Lichess does:
// by the category left to the opponent, then mate at once, then
// stalemate or dead draws, then the distance to mate (the quickest mate,
// the slowest defeat), then for a win a conversion and a zeroing move
// first (for a loss last), then the distance to zeroing, then the bigger
// capture and promotion.
func compareMoves(a, b MoveInfo) int {
	return cmp.Or(
		cmp.Compare(a.Category, b.Category),
		boolFirst(a.Checkmate, b.Checkmate),
		boolFirst(a.Stalemate, b.Stalemate),
		boolFirst(a.InsufficientMaterial, b.InsufficientMaterial),
		compareTightening(a.DTM, b.DTM),
		boolFirst(a.Conversion != a.Category.positive(), b.Conversion != b.Category.positive()),
		boolFirst(a.Zeroing != a.Category.positive(), b.Zeroing != b.Category.positive()),
		compareDTZ(a.DTZ, b.DTZ),
		-cmp.Compare(a.capture, b.capture),
		-cmp.Compare(a.promotion, b.promotion),
	)
}

// boolFirst puts true before false.
func boolFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// compareTightening orders distances for the mover: the opponent mated
// soonest first (negative, nearest zero), then unknown and zero, then the
// opponent mating latest (positive, largest first).
func compareTightening(a, b *int) int {
	rank := func(p *int) (int, int) {
		switch {
		case p == nil || *p == 0:
			return 1, 0
		case *p < 0:
			return 0, -*p
		}
		return 2, -*p
	}
	ra, va := rank(a)
	rb, vb := rank(b)
	return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(va, vb))
}

// compareDTZ puts unknown first, then the larger distance to zeroing (for
// the opponent's loss, the one nearest zero).
func compareDTZ(a, b *int) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return -cmp.Compare(*a, *b)
}

// MainlineStep is one move of the DTZ main line, with the DTZ of the
// position it leads to.
type MainlineStep struct {
	UCI        string `json:"uci"`
	SAN        string `json:"san"`
	DTZ        int    `json:"dtz"`
	PreciseDTZ *int   `json:"precise_dtz"`
}

// Mainline is the answer to GET /standard/mainline.
type Mainline struct {
	DTZ        int            `json:"dtz"`
	PreciseDTZ *int           `json:"precise_dtz"`
	Mainline   []MainlineStep `json:"mainline"`
	Winner     *string        `json:"winner"`
}

// Mainline follows DTZ from pos: each side plays the Syzygy-best move
// until the 50-move rule can be claimed (the line stops there) or the
// game ends. The winner is the side that mates at its end.
func (t Tables) Mainline(pos board.Position) (Mainline, error) {
	var ml Mainline
	if t.Syzygy == nil {
		return ml, errNotInTables{why: "the main line follows DTZ: start serve with --syzygy DIR"}
	}
	if pos.Castling() != 0 || pos.Occupied().Count() > t.Syzygy.MaxPieces() {
		return ml, errNotInTables{why: fmt.Sprintf("not a Syzygy position (castling rights, or more than %d men)", t.Syzygy.MaxPieces())}
	}
	dtz, precise, err := t.Syzygy.ProbeDTZPrecise(&pos)
	if err != nil {
		return ml, errNotInTables{why: err.Error()}
	}
	ml.DTZ = dtz
	if precise {
		ml.PreciseDTZ = &dtz
	}
	ml.Mainline = []MainlineStep{}
	if dtz != 0 {
		for pos.HalfmoveClock() < 100 && len(ml.Mainline) < 1000 {
			moves, _, err := t.Syzygy.ProbeRoot(&pos)
			if err != nil {
				return ml, errNotInTables{why: err.Error()}
			}
			if len(moves) == 0 {
				break
			}
			m := moves[0].Move
			san := pos.SAN(m)
			pos.Play(m)
			z, p, err := t.Syzygy.ProbeDTZPrecise(&pos)
			if err != nil {
				return ml, errNotInTables{why: err.Error()}
			}
			step := MainlineStep{UCI: m.UCI(), SAN: san, DTZ: z}
			if p {
				step.PreciseDTZ = &step.DTZ
			}
			ml.Mainline = append(ml.Mainline, step)
			if !pos.HasLegalMove() {
				break
			}
		}
	}
	if pos.IsCheckmate() {
		w := "w"
		if pos.Side() == board.White {
			w = "b"
		}
		ml.Winner = &w
	}
	return ml, nil
}
