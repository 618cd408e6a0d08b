package record

// Problem is what a problem file (Popeye's language) says of a record
// besides its position and stipulation.
type Problem struct {
	Title  string `json:"title,omitempty"`
	Author string `json:"author,omitempty"`
	Origin string `json:"origin,omitempty"`
	// Twin names the twin as Popeye prints it ("b) wRd1-->d2"); empty
	// for a problem without twins.
	Twin string `json:"twin,omitempty"`
	// The options mateline acts on.
	Variation    bool `json:"-"` // Variation: the solution tree
	NoThreat     bool `json:"-"` // NoThreat: no threats in the tree
	MaxSolutions int  `json:"-"` // MaxSolutions N: stop after N solutions (0: all)
	SetPlay      bool `json:"-"` // SetPlay: the play if the other side moved first
	Try          bool `json:"-"` // Try: a selfmate's tries
	Defence      int  `json:"-"` // Defence N: a try fails to at most N defences (0: 1)
	MaxFlights   int  `json:"-"` // MaxFlightsquares N, as N+1: selfmates, a king with that many flights has defended
	Threat       int  `json:"-"` // Threat N: selfmates, a move must threaten within N-1 moves
}

// IsProblem reports whether rec is a helpmate or a selfmate, solved by
// SolveProblem rather than the mate prover.
func (rec *Record) IsProblem() bool { return !rec.Stip.IsDirectMate() }
