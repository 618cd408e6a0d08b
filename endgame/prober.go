package endgame

import "mateline.dev/mateline/board"

// Prober adapts a Tablebase to the mate solver's prober interface: a probe
// that fails for any reason (not in tables, missing or damaged file) is
// simply "not known", so the search goes on without the tables there.
type Prober struct{ TB *Tablebase }

// ProbeWDL returns the WDL of pos and whether the tables answered.
func (p Prober) ProbeWDL(pos *board.Position) (int, bool) {
	v, err := p.TB.ProbeWDL(pos)
	return v, err == nil
}

// ProbeDTZ returns the DTZ of pos and whether the tables answered.
func (p Prober) ProbeDTZ(pos *board.Position) (int, bool) {
	v, err := p.TB.ProbeDTZ(pos)
	return v, err == nil
}

// MaxPieces returns the largest piece count of the tables.
func (p Prober) MaxPieces() int { return p.TB.MaxPieces() }
