package solver

import (
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// Status is the outcome of a solve.
type Status int

// The outcomes.
const (
	// StatusMate: a forced mate (or mated-in-N) was proved, and that no
	// shorter one exists.
	StatusMate Status = iota
	// StatusNoMate: proved that no mate of a kind asked for exists at any
	// length: no side asked for has the material to mate, or the tables
	// say so.
	StatusNoMate
	// StatusLimit: a node or time limit, or cancellation, stopped the
	// proof. Nothing beyond Result.Depth is proved either way, but for a
	// forced mate in Result.MateWithin.
	StatusLimit
	// StatusCapped: proved that no mate of a kind asked for exists in
	// Options.MaxMate moves or fewer (Result.Depth); longer mates were not
	// looked for.
	StatusCapped
)

func (s Status) String() string {
	return [...]string{"mate", "no-mate", "limit", "capped"}[s]
}

// Result is what a solve proved.
type Result struct {
	Status Status
	// Mate is the mate proved shortest; 0 when Status is not StatusMate.
	Mate problem.Mate
	// Keys are the first moves that achieve Mate: every one with AllKeys
	// (or Options.Lines above 1), else one. For a mated position they are
	// the defences that hold out longest. With StatusLimit and MateWithin
	// they are the first moves of that mate: the first of its proved line,
	// or with AllKeys every move that keeps it (Partial when a limit cut
	// the list short).
	Keys []board.Move
	// AllKeys says Keys is every key (Options.AllKeys, or Lines above 1),
	// not one of them.
	AllKeys bool
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
	// MateWithin, when not 0, is the shortest forced mate the proof-number
	// search proved, read off its proof tree: at most that many moves.
	// With StatusMate, Mate is the shortest, no longer than it; with
	// StatusLimit the limit came before the proof of what is shortest, no
	// mate in Depth moves or fewer exists, and PV is a line of exactly
	// MateWithin's plies ending in mate (when the tree could be read).
	MateWithin problem.Mate
	// Partial says a limit or cancellation cut the key list or the line
	// short after the mate was proved: Mate stands, Keys and PV may be
	// incomplete.
	Partial bool
	// ProofLine says PV is a line read off the proof of a mate proved
	// shortest: of the mate's full length and ending in mate, the winner's
	// moves on schedule, but not every defence of it shown to hold out
	// longest (reading that ran out of its budget). Without it, PV is the
	// loser's longest resistance against the winner's quickest mate.
	ProofLine bool
	Book      []board.Move
	Nodes     uint64
	TBHits    uint64
	Elapsed   time.Duration
	TTProbe   uint64
	TTHits    uint64
}

// Progress is what a running solve has proved so far, for live reports.
type Progress struct {
	// Depth: no mate of a wanted kind in Depth moves or fewer (so far).
	Depth int
	// MateWithin: the shortest forced mate proved so far, 0 if none yet;
	// Shortest once it is proved shortest.
	MateWithin problem.Mate
	Shortest   bool
	// Line, when not nil, is a line of exactly MateWithin's plies ending
	// in mate; NewBound says this report brings a new MateWithin (or
	// its proof of shortness), not just figures.
	Line     []board.Move
	NewBound bool
	Nodes    uint64
	TBHits   uint64
	SelDepth int // the deepest ply reached
	Elapsed  time.Duration
	Hashfull int // permille of the table holding this solve's entries
}
