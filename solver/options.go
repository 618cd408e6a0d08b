package solver

import (
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/shortcut"
	"mateline.dev/mateline/problem"
)

// Want says which outcomes a solve looks for.
type Want int

// What to look for.
const (
	WantBoth  Want = iota // mate for either side
	WantMate              // only the side to move mating
	WantMated             // only the side to move being mated
)

// DefaultMaxMate is how far a solve looks when Options.MaxMate is not set.
const DefaultMaxMate = 10

// MaxMateMoves bounds Options.MaxMate: problem.MaxMateMoves, which the
// search path of MaxPly plies must hold (the constant below does not
// compile otherwise).
const MaxMateMoves = problem.MaxMateMoves

const _ = uint(MaxPly/2 - 2 - MaxMateMoves)

// Options control a solve. They come in four groups: the question asked,
// what the answer holds, the limits, and the plumbing.
type Options struct {
	// The question.

	MaxMate int  // longest mate to look for, in moves (default 10)
	Want    Want // which side's mate to look for
	// Aim is the hint: a mate length (in moves, of the first kind Want
	// asks for) that the proof-number search asks for exactly, instead of
	// its own ladder of aims (ladder.go); 0 or more than MaxMate for none.
	// A claim is the natural hint (ForClaim).
	Aim    int
	Rule50 bool // honour the 50-move rule (off by problem convention)
	// RootMoves, when not empty, are the only moves searched at the root
	// (UCI searchmoves): a mate uses one of them, a mated position is one
	// where each of them allows mate. Moves not legal in the position are
	// ignored.
	RootMoves []board.Move
	// FirstMate ends the solve at the first forced mate proved, shortest
	// or not: the fast "find a mate" mode. When the shortness is not
	// proved, the result is StatusLimit with MateWithin set to the mate of
	// a proof tree read off the tables, and Keys and PV from that tree (the
	// line has exactly the plies of that mate).
	FirstMate bool

	// The answer.

	AllKeys bool // prove every key move, not just one
	// Lines is how many keys get a main line of their own (Result.Lines;
	// default 1). With more than one, every key is proved, as with AllKeys.
	Lines  int
	NoKeys bool // skip key and line extraction (bench)
	// Progress, when set, is called as the proof advances: when a bound
	// is proved, and about once a second. It is called from the solve's
	// threads and must return quickly.
	Progress func(Progress)

	// The limits.

	Nodes   uint64        // node limit per position, over all threads; 0 for none
	Timeout time.Duration // time limit per position; 0 for none
	// ExtractReserve is the part of Timeout kept for reading the keys and
	// the main line of a mate the proofs find: once one is proved, they
	// stop ExtractReserve before Timeout, and a twentieth short of Nodes,
	// so that the answer comes within the limits (0: no time kept;
	// ReserveFor gives the usual part).
	ExtractReserve time.Duration

	// The plumbing.

	// Threads is the number of threads searching the position (default
	// 1). The answer never depends on it; only nodes and time do.
	Threads int
	Prober  Prober // tablebases, or nil
	// DTM holds exact distance-to-mate tables, or nil: a root they cover
	// is answered from them without a search.
	DTM DTM
	// SearchDTM, when not nil, gives the nodes of a search that it covers
	// their exact score (with Rule50, when the mate fits in the plies the
	// node's clock leaves).
	SearchDTM DTM
	Book      Book // opening book for root ordering, or nil
	// Fresh makes the solve ignore what earlier solves left in the
	// tables, as if they were empty (without the cost of clearing them):
	// its result, nodes included, then depends on the position and the
	// options alone, whatever was solved before it (with one thread).
	// Tree and WriteCertificate after it read its own tables as usual.
	// A batch sets it, so that its output does not depend on which
	// worker solved what, or on where a killed run is resumed.
	Fresh bool

	// shortcutsOff are shortcuts of the search a test switches off
	// (shortcuts.go, export_test.go).
	shortcutsOff shortcut.Set
}

// ReserveFor is the usual ExtractReserve of a time limit: a twentieth of
// it, at most a second (the keys and the line of a proved mate mostly
// take milliseconds; the rest is for those the tables forgot).
func ReserveFor(timeout time.Duration) time.Duration {
	return min(timeout/20, time.Second)
}

// ForClaim returns the options that look for the claimed mate and no
// further: a mate of that length for the side to move (claim > 0) or of
// the side to move (claim < 0), with the claim as the hint (Aim). A claim
// of 0 leaves the options as they are.
func (o Options) ForClaim(claim problem.Mate) Options {
	switch {
	case claim > 0:
		o.MaxMate, o.Want = claim.Moves(), WantMate
	case claim < 0:
		o.MaxMate, o.Want = claim.Moves(), WantMated
	}
	if claim != 0 {
		o.Aim = claim.Moves() // the claim is the hint
	}
	return o
}
