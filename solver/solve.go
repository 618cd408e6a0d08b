package solver

import (
	"context"
	"slices"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// Solver proves mates. Its tables take the memory given to New, whatever
// the number of threads, and are reused from one position to the next. A
// Solver is not safe for concurrent use: make one per batch worker (it
// runs its own threads for Options.Threads).
type Solver struct {
	tt        *Table
	pn        *pnTable
	searchers []*searcher // one per thread, made when first needed
	busy      *busyTable  // what the threads are searching, made when first needed
	// fresh counts the fresh solves; salt is the table-key salt of the
	// last solve (0 unless it was fresh), which Tree and WriteCertificate
	// use to read its tables.
	fresh uint64
	salt  uint64
	// proof is the proof tree the last solve's mate was read off, for its
	// certificate (its tree nil when there is none).
	proof retainedProof
}

// retainedProof is a solve's proof tree: it proves mate from root, with
// line, of exactly the mate's plies, starting with the root move it
// proves.
type retainedProof struct {
	root board.Position
	mate problem.Mate
	line []board.Move
	tree *proofTree
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

// isolate readies the tables for a fresh solve (Options.Fresh), or for one
// that may read what earlier solves left.
func (sv *Solver) isolate(fresh bool) {
	sv.salt = 0
	if fresh {
		sv.fresh++
		x := sv.fresh * 0x9e3779b97f4a7c15
		x ^= x >> 29
		x *= 0xbf58476d1ce4e5b9
		sv.salt = (x ^ x>>32) | 1
	}
	sv.tt.isolated, sv.pn.isolated = fresh, fresh
}

// MaxThreads bounds Options.Threads.
const MaxThreads = 256

// Solve proves the shortest mate of pos within opt.MaxMate moves.
func (sv *Solver) Solve(ctx context.Context, pos board.Position, opt Options) Result {
	start := time.Now()
	opt = withoutTables(opt)
	if opt.MaxMate <= 0 {
		opt.MaxMate = 10
	}
	opt.MaxMate = min(opt.MaxMate, MaxPly/2-2)
	lim := limitsOf(ctx, opt)
	// Once a mate is proved, the proofs leave part of the limits to its
	// keys and line.
	if !opt.NoKeys {
		lim.reserve(opt.ExtractReserve)
	}
	sv.isolate(opt.Fresh)
	if res, ok := tableAnswer(pos, opt); ok {
		res.Elapsed = time.Since(start)
		return res
	}
	e := &env{tt: sv.tt, pn: sv.pn, prober: opt.Prober, dtm: opt.SearchDTM, rule50: opt.Rule50, lim: lim, salt: sv.salt, cuts: shortcutsFor(opt)}
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
	if sc.rootMoves == nil && threads[0].inTables(&pos) {
		if w, ok := threads[0].tableWinner(&pos); ok {
			sc.tablesWinner(w)
		}
	}
	if e.report != nil {
		sc.notify = func(s *searcher, b bounds) { e.report.proved(s, b, lim) }
	}
	sc.answering = &lim.answering
	switch {
	case sc.done():
	case len(threads) == 1:
		sc.runTurns(threads[0])
	default:
		sc.runThreads(threads)
	}
	sc.result(&res)
	lim.answer()
	sv.proof = retainedProof{}
	if sc.tree != nil && sc.mateWithin != 0 {
		sv.proof = retainedProof{root: pos, mate: sc.mateWithin, line: sc.line, tree: sc.tree}
	}
	if !opt.NoKeys {
		answer(threads[0], pos, sc, opt, &res)
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

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
