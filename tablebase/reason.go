package tablebase

import (
	"errors"
	"fmt"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/dtm/tablefile"
	"mateline.dev/mateline/endgame"
)

// NotInTables says, in words, why no table answers a position: castling
// rights, more men than the tables hold, or a table not built (with the
// command that builds it). It is not a failure of the tables.
type NotInTables struct{ Why string }

func (e *NotInTables) Error() string { return e.Why }

// Covered returns a *NotInTables when no table of t could hold pos:
// castling rights, or more men than any of them holds.
func (t Tables) Covered(pos *board.Position) error {
	if pos.Castling() != 0 {
		return &NotInTables{"castling rights: no tablebase holds a position with castling rights"}
	}
	men := pos.Occupied().Count()
	most := 0
	if t.DTM != nil {
		most = tablefile.MaxMen
		if dtm.Covers(pos) {
			most = dtm.BoundedMen
		}
	}
	if t.Syzygy != nil {
		most = max(most, t.Syzygy.MaxPieces())
	}
	if men > most {
		return &NotInTables{fmt.Sprintf("%d men: the tables hold at most %d", men, most)}
	}
	return nil
}

// unanswered says why neither table answered pos, from the errors each
// gave: a DTM table not built first (it can be), then a Syzygy file
// missing.
func (t Tables) unanswered(pos *board.Position, dtmErr, dtzErr error) error {
	m, _ := tablefile.MaterialOf(pos).Canonical()
	switch {
	case errors.Is(dtmErr, dtm.ErrMissing):
		return &NotInTables{t.DTM.BuildHint(m)}
	case errors.Is(dtzErr, endgame.ErrMissing):
		return &NotInTables{fmt.Sprintf("no Syzygy table for %s: %v", m, dtzErr)}
	}
	return &NotInTables{fmt.Sprintf("no table answers %s: %v", m, dtmErr)}
}

// dtmReason says why the DTM tables do not answer pos.
func (t Tables) dtmReason(pos *board.Position) string {
	if t.DTM == nil {
		return "the DTM tables are off (--no-dtm)"
	}
	if why := t.DTM.Reason(pos); why != "" {
		return why
	}
	return "a table it needs could not be had (see the warnings above)"
}
