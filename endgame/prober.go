package endgame

import (
	"errors"
	"sync"

	"mateline.dev/mateline/board"
)

// Prober adapts a Tablebase to the solver's Prober interface: a probe that
// fails is "not in the tables" to the search, and the search goes on.
type Prober struct {
	TB *Tablebase
	// Warn, when set, hears once of each table file that cannot be used
	// (corrupt, unreadable, or missing from a set that covers the
	// position): the search goes on without it. Use NewProber to get
	// each file reported once.
	Warn   func(error)
	warned *sync.Map
}

// NewProber returns a Prober over tb that reports each unusable table file
// once to warn.
func NewProber(tb *Tablebase, warn func(error)) Prober {
	return Prober{TB: tb, Warn: warn, warned: &sync.Map{}}
}

// report passes a table's failure to Warn, once per file.
func (p Prober) report(err error) {
	var te *TableError
	if p.Warn == nil || !errors.As(err, &te) {
		return
	}
	if p.warned != nil {
		if _, dup := p.warned.LoadOrStore(te.Path, true); dup {
			return
		}
	}
	p.Warn(err)
}

// ProbeWDL returns the WDL of pos and whether the tables answered.
func (p Prober) ProbeWDL(pos *board.Position) (int, bool) {
	v, err := p.TB.ProbeWDL(pos)
	if err != nil {
		p.report(err)
	}
	return v, err == nil
}

// ProbeDTZ returns the DTZ of pos and whether the tables answered.
func (p Prober) ProbeDTZ(pos *board.Position) (int, bool) {
	v, err := p.TB.ProbeDTZ(pos)
	if err != nil {
		p.report(err)
	}
	return v, err == nil
}

// MaxPieces returns the largest piece count of the tables.
func (p Prober) MaxPieces() int { return p.TB.MaxPieces() }
