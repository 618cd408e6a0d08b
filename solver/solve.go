// Package solver is mateline's mate prover. Two exact searches prove each
// position: iterative deepening alpha-beta on exact mate scores (single-
// reply extensions, a transposition table of memoized bounds, ordering by
// table move, checks, captures, killers and history), whose finished
// iterations prove that no shorter mate exists, and a depth-first
// proof-number search that proves a forced mate of the longest length
// wanted. On one thread they take turns; on several they run side by side,
// sharing the table, and the answer never depends on the thread count.
// Tablebases and books plug in through the Prober and Book interfaces;
// they can make a proof cheaper, never different.
package solver

import (
	"context"
	"slices"
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

// Want says which outcomes a solve looks for.
type Want int

// What to look for.
const (
	WantBoth  Want = iota // mate for either side
	WantMate              // only the side to move mating
	WantMated             // only the side to move being mated
)

// Options control a solve.
type Options struct {
	MaxMate int           // longest mate to look for, in moves (default 10)
	Want    Want          // which side's mate to look for
	AllKeys bool          // prove every key move, not just one
	Rule50  bool          // honour the 50-move rule (off by problem convention)
	Nodes   uint64        // node limit per position, over all threads; 0 for none
	Timeout time.Duration // time limit per position; 0 for none
	Prober  Prober        // tablebases, or nil
	Book    Book          // opening book for root ordering, or nil
	NoKeys  bool          // skip key and line extraction (bench)
	// Aim is the mate length (in moves, for the kind Want asks for) that
	// the proof-number search tries to prove; 0 or more than MaxMate means
	// MaxMate. A claim is the natural aim when MaxMate looks beyond it.
	Aim int
	// Threads is the number of threads searching the position (default
	// 1). The answer never depends on it; only nodes and time do.
	Threads int
	// RootMoves, when not empty, are the only moves searched at the root
	// (UCI searchmoves): a mate uses one of them, a mated position is one
	// where each of them allows mate. Moves not legal in the position are
	// ignored.
	RootMoves []board.Move
	// Lines is how many keys get a main line of their own (Result.Lines;
	// default 1). With more than one, every key is proved, as with AllKeys.
	Lines int
	// ExtractGrace is extra time past Timeout for reading the keys and the
	// main line of a mate proved just before the limit, so that a proved
	// mate comes with its line (0: none).
	ExtractGrace time.Duration
	// FirstMate ends the solve at the first forced mate proved, shortest
	// or not: the fast "find a mate" mode. When the shortness is not
	// proved, the result is StatusLimit with MateWithin set to the mate of
	// a proof tree read off the tables, and Keys and PV from that tree (the
	// line has exactly the plies of that mate).
	FirstMate bool
	// Progress, when set, is called as the proof advances: when a bound
	// is proved, and about once a second. It is called from the solve's
	// threads and must return quickly.
	Progress func(Progress)
}

// Progress is what a running solve has proved so far, for live reports.
type Progress struct {
	// Depth: no mate of a wanted kind in Depth moves or fewer (so far).
	Depth int
	// MateWithin: a forced mate proved by the proof-number search (signed
	// like Result.Mate), 0 if none yet.
	MateWithin int
	Nodes      uint64
	TBHits     uint64
	SelDepth   int // the deepest ply reached
	Elapsed    time.Duration
	Hashfull   int // permille of the table holding this solve's entries
}

// Result is what a solve proved.
type Result struct {
	Status Status
	// Mate is in signed moves: +N the side to move mates in N, -N it is
	// mated in N; 0 when Status is not StatusMate.
	Mate int
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
	// MateWithin, when not 0, is a forced mate (signed like Mate) proved by
	// the proof-number search: at most that many moves. With StatusMate,
	// Mate is the shortest, no longer than it; with StatusLimit the limit
	// came before the proof of what is shortest, and no mate in Depth moves
	// or fewer exists.
	MateWithin int
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

// Solver proves mates. Its tables take the memory given to New, whatever
// the number of threads, and are reused from one position to the next. A
// Solver is not safe for concurrent use: make one per batch worker (it
// runs its own threads for Options.Threads).
type Solver struct {
	tt        *Table
	pn        *pnTable
	searchers []*searcher // one per thread, made when first needed
	busy      *busyTable  // what the threads are searching, made when first needed
}

// New returns a Solver whose tables take at most hashMiB MiB together (64
// if hashMiB <= 0).
func New(hashMiB int) *Solver {
	if hashMiB <= 0 {
		hashMiB = 64
	}
	// A quarter of the memory goes to the proof-number search.
	size := uint64(hashMiB) << 20
	return &Solver{tt: newTableBytes(size - size/4), pn: newPNTable(size / 4)}
}

// Clear empties the tables, as a fresh Solver has them (and faults their
// memory in, which a fresh Solver does lazily).
func (sv *Solver) Clear() {
	clear(sv.tt.buckets)
	clear(sv.pn.entries)
	sv.tt.generation.Store(0)
	sv.pn.gen = 0
}

// MaxThreads bounds Options.Threads.
const MaxThreads = 256

// Solve proves the shortest mate of pos within opt.MaxMate moves.
func (sv *Solver) Solve(ctx context.Context, pos board.Position, opt Options) Result {
	start := time.Now()
	if opt.MaxMate <= 0 {
		opt.MaxMate = 10
	}
	opt.MaxMate = min(opt.MaxMate, MaxPly/2-2)
	lim := &limits{ctx: ctx, maxNodes: opt.Nodes}
	if opt.Timeout > 0 {
		lim.deadline = start.Add(opt.Timeout)
	}
	e := &env{tt: sv.tt, pn: sv.pn, prober: opt.Prober, rule50: opt.Rule50, lim: lim}
	if opt.Threads > 1 {
		if sv.busy == nil {
			sv.busy = new(busyTable)
		}
		e.busy = sv.busy
	}
	if opt.Progress != nil {
		e.report = &reporter{fn: opt.Progress, start: start, tt: sv.tt}
		e.report.next.Store(int64(reportInterval))
	}
	sv.tt.NewSearch()
	sv.pn.newSearch()
	threads := sv.threads(opt.Threads, e)

	var res Result
	if opt.Book != nil {
		res.Book = opt.Book.BookMoves(&pos)
	}
	sc := newSchedule(pos, opt, res.Book, threads[0].inTables(&pos))
	sc.rootMoves, sc.rootSalt = legalSubset(&pos, opt.RootMoves)
	sc.firstMate = opt.FirstMate
	if e.report != nil {
		sc.notify = func(s *searcher, depth, within int) { e.report.proved(s, depth, within, lim) }
	}
	if len(threads) == 1 {
		sc.runTurns(threads[0])
	} else {
		sc.runThreads(threads)
	}
	sc.result(&res)
	if opt.ExtractGrace > 0 && !lim.deadline.IsZero() && !lim.over.Load() {
		// The keys and the line may run past the limit by the grace.
		lim.deadline = lim.deadline.Add(opt.ExtractGrace)
	}
	switch {
	case opt.NoKeys:
	case res.Status == StatusMate:
		lines := max(opt.Lines, 1)
		res.Keys, res.Lines, res.Partial = extract(threads[0], pos, res.Mate, sc.rootMoves, opt.AllKeys || lines > 1, lines, res.Book)
		if res.Partial {
			completeLine(threads[0], pos, &res)
		}
	case opt.FirstMate && res.Status == StatusLimit && res.MateWithin != 0 && !lim.over.Load():
		firstMate(threads[0], pos, &res)
	case res.Status == StatusLimit && res.MateWithin > 0:
		// The limit is spent: what the tables of the proof already hold
		// may name a first move of the proved mate.
		res.Keys, _, _ = extract(threads[0], pos, res.MateWithin, sc.rootMoves, false, 0, res.Book)
		res.Partial = true
	}
	if len(res.Lines) > 0 {
		res.PV = res.Lines[0]
	}
	for _, s := range threads {
		res.Nodes += s.nodes
		res.TBHits += s.tbHits
		res.TTProbe += s.ttProbes
		res.TTHits += s.ttHits
		res.SelDepth = max(res.SelDepth, s.selDepth)
	}
	res.Hashfull = sv.tt.hashfull()
	res.Elapsed = time.Since(start)
	return res
}

// firstMate fills a FirstMate result from the proof tree of its mate.
func firstMate(s *searcher, pos board.Position, res *Result) {
	proved, line, err := s.firstMateLine(pos, res.MateWithin)
	if err != nil {
		res.Partial = true
		return
	}
	res.MateWithin, res.Keys, res.Lines = proved, line[:1], [][]board.Move{line}
	if abs(proved) <= res.Depth+1 {
		// The iterations had ruled out every shorter mate.
		res.Status, res.Mate, res.Depth = StatusMate, proved, abs(proved)
	}
}

// legalSubset returns the legal moves of pos among moves, and a salt that
// tells this choice of root moves apart in the tables; nil when moves is
// empty or holds no legal move (then every move is searched).
func legalSubset(pos *board.Position, moves []board.Move) ([]board.Move, uint64) {
	var l board.MoveList
	pos.LegalMoves(&l)
	var out []board.Move
	for _, m := range l.Slice() {
		if slices.Contains(moves, m) {
			out = append(out, m)
		}
	}
	if len(out) == 0 || len(out) == l.N {
		return nil, 0
	}
	salt := uint64(0x5bd1e9955bd1e995)
	for _, m := range out {
		salt = (salt ^ uint64(m)) * 0x100000001b3
	}
	return out, salt | 1
}

// threads readies n searchers (at least one) for a solve in e.
func (sv *Solver) threads(n int, e *env) []*searcher {
	n = max(min(n, MaxThreads), 1)
	for len(sv.searchers) < n {
		sv.searchers = append(sv.searchers, new(searcher))
	}
	for _, s := range sv.searchers[:n] {
		s.begin(e)
	}
	return sv.searchers[:n]
}

// extract reads the keys of a proved mate (among rootMoves when not nil;
// every key with all) and the main lines of the first few. partial says a
// limit cut either short.
func extract(s *searcher, pos board.Position, mate int, rootMoves []board.Move, all bool, lines int, book []board.Move) (keys []board.Move, pvs [][]board.Move, partial bool) {
	keys, complete := s.keys(pos, mate, rootMoves, all, book)
	for _, k := range keys {
		if !complete || len(pvs) == lines {
			break
		}
		var pv []board.Move
		pv, complete = s.line(pos, k, mate)
		pvs = append(pvs, pv)
	}
	return keys, pvs, !complete
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
