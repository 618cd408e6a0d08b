package solver

import (
	"time"

	"mateline.dev/mateline/board"
)

// Status is the outcome of a solve.
type Status int

// The outcomes.
const (
	// StatusMate: a forced mate (or mated-in-N) was proved, and that no
	// shorter one exists.
	StatusMate Status = iota
	// StatusNoMate: proved that neither side forces mate within the limit.
	StatusNoMate
	// StatusLimit: a node or time limit, or cancellation, stopped the
	// proof. Nothing beyond Result.Depth is proved either way.
	StatusLimit
)

func (s Status) String() string {
	return [...]string{"mate", "no-mate", "limit"}[s]
}

// Result is what a solve proved.
type Result struct {
	Status Status
	// Mate is the mate proved shortest; 0 when Status is not StatusMate.
	Mate Mate
	// Keys are the first moves that achieve Mate: every one with AllKeys,
	// else at least one. For a mated position they are the defences that
	// hold out longest. With StatusLimit and MateWithin > 0 they are
	// the first moves of that mate the tables name, if any (Partial).
	Keys []board.Move
	// PV is the main line, with longest-resisting defences: Lines[0].
	PV []board.Move
	// Lines are the main lines of the first Options.Lines keys.
	Lines [][]board.Move
	// SelDepth is the deepest ply the search reached.
	SelDepth int
	// Hashfull is the permille of the table holding this solve's entries.
	Hashfull int
	// Depth is how far the proof got: no mate of either looked-for kind
	// exists in fewer than Depth moves (in at most Depth moves when Status
	// is StatusNoMate).
	Depth int
	// MateWithin, when not 0, is a forced mate proved by the proof-number
	// search: at most that many moves. With StatusMate, Mate is the
	// shortest, no longer than it; with StatusLimit the limit came before
	// the proof of what is shortest, and no mate in Depth moves or fewer
	// exists.
	MateWithin Mate
	// Partial says a limit or cancellation cut the key list or the line
	// short after the mate was proved: Mate stands, Keys and PV may be
	// incomplete.
	Partial bool
	Book    []board.Move
	Nodes   uint64
	TBHits  uint64
	Elapsed time.Duration
	TTProbe uint64
	TTHits  uint64
}

// Progress is what a running solve has proved so far, for live reports.
type Progress struct {
	// Depth: no mate of a wanted kind in Depth moves or fewer (so far).
	Depth int
	// MateWithin: a forced mate proved by the proof-number search, 0 if
	// none yet.
	MateWithin Mate
	Nodes      uint64
	TBHits     uint64
	SelDepth   int // the deepest ply reached
	Elapsed    time.Duration
	Hashfull   int // permille of the table holding this solve's entries
}
