package solver

import (
	"context"
	"sync/atomic"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/shortcut"
)

// env is what every thread of one solve shares: the tables, the rules and
// the limits. It does not change while the solve runs.
type env struct {
	tt     *Table
	pn     *pnTable // used by one thread at a time (the proof-number search's)
	prober Prober
	dtm    DTM
	rule50 bool
	// salt is mixed into every table key: a fresh solve's own, so that no
	// entry of an earlier solve is read (Options.Fresh), or 0.
	salt   uint64
	lim    *limits
	busy   *busyTable   // the nodes being searched, with several threads; nil with one
	report *reporter    // progress reports; nil for none
	cuts   shortcut.Set // the shortcuts the search makes (shortcuts.go)
}

// limits are the solve's own limits: time, nodes over all threads,
// cancellation, and the end of the solve itself.
type limits struct {
	ctx      context.Context
	deadline time.Time // zero for none
	maxNodes uint64    // 0 for none
	nodes    atomic.Uint64
	over     atomic.Bool // a limit was reached, or the solve ended: every query stops
	// While the proofs run (reserve), a proved mate (answering) makes them
	// stop at proofDeadline and proofNodes, short of the limits, so that
	// its keys and line are read within them; with no mate to answer they
	// go on to the limits.
	reserving     bool
	answering     atomic.Bool
	proofDeadline time.Time
	proofNodes    uint64
}

// limitsOf is ctx with opt's Timeout, from now, and its Nodes.
func limitsOf(ctx context.Context, opt Options) *limits {
	lim := &limits{ctx: ctx, maxNodes: opt.Nodes}
	if opt.Timeout > 0 {
		lim.deadline = time.Now().Add(opt.Timeout)
	}
	return lim
}

// reserve keeps back part of the limits for reading the keys and the line
// of a mate the proofs find: once one is proved, the proofs stop at the
// deadline less d and a twentieth short of the node limit, and answer gives
// the keys and the line the rest, so that a record comes within the
// limits it was given. Call it before the proofs start.
func (l *limits) reserve(d time.Duration) {
	l.reserving = true
	l.proofDeadline, l.proofNodes = l.deadline, l.maxNodes
	if !l.deadline.IsZero() && d > 0 {
		l.proofDeadline = l.deadline.Add(-d)
	}
	if l.maxNodes > 0 {
		l.proofNodes = l.maxNodes - l.maxNodes/extractShare
	}
}

// extractShare: the keys and the line get a twentieth of a node limit.
const extractShare = 20

// answer ends the proofs' part of the limits, once they are over: the
// keys and the line may run to the whole limits, unless the solve was
// cancelled.
func (l *limits) answer() {
	l.reserving = false
	if l.ctx != nil && l.ctx.Err() != nil {
		return
	}
	l.over.Store(l.reached(l.nodes.Load()))
}

// reached reports whether total nodes, or the time, reach the limits that
// stand now.
func (l *limits) reached(total uint64) bool {
	deadline, maxNodes := l.deadline, l.maxNodes
	if l.reserving && l.answering.Load() {
		deadline, maxNodes = l.proofDeadline, l.proofNodes
	}
	return maxNodes > 0 && total >= maxNodes || !deadline.IsZero() && time.Now().After(deadline)
}

// checkInterval is how many nodes a searcher counts between two looks at
// its limits.
const checkInterval = 1024

// query is one question put to a search: does the attacker force mate
// within the plies given with it? It carries everything that changes from
// one question to the next, so that nothing is set on the searcher and
// swapped back. A query stopped by a limit proves nothing, and its own stop
// flag never stops another query.
type query struct {
	attacker board.Color // the side hoping to mate; single-reply extensions favour it
	// floor is the lowest ply of the path that repetitions are looked for
	// from: 0, or where the proof-number search handed a node over.
	floor    int
	rootBook []board.Move // book moves of the root, tried first there
	// rootMoves, when not nil, are the only root moves searched (UCI
	// searchmoves); rootSalt then keeps the root's table entries apart.
	rootMoves []board.Move
	rootSalt  uint64
	nodeEnd   uint64 // stop when the searcher's node count reaches this; 0 for none
	// moot, when set, says the answer is no longer wanted (another thread
	// made it so); it is asked at the same intervals as the limits.
	moot    func() bool
	stopped bool
}

// newQuery returns the question "does attacker mate", within the
// searcher's budget (budgetEnd) and no other of its own; its stop flag is
// set at once when the solve's limits are reached or that budget is spent.
func (s *searcher) newQuery(attacker board.Color) *query {
	q := &query{attacker: attacker, nodeEnd: s.budgetEnd}
	if s.env.lim.over.Load() || s.budgetEnd > 0 && s.nodes >= s.budgetEnd {
		q.stopped = true
	}
	return q
}

// withNodes gives the query a budget of n more nodes of the searcher,
// within the searcher's own budget if it has one.
func (q *query) withNodes(s *searcher, n uint64) *query {
	if q.nodeEnd == 0 || s.nodes+n < q.nodeEnd {
		q.nodeEnd = s.nodes + n
	}
	return q
}

// tick counts one node and looks at the limits once checkInterval nodes
// have passed since the last look (nodes counted elsewhere, such as the
// children the proof-number search generates, count towards it too). It
// reports whether the query has stopped.
func (s *searcher) tick(q *query) bool {
	s.nodes++
	if s.nodes >= s.nextCheck {
		s.check(q)
	}
	return q.stopped
}

// check stops q when its budget is spent, its answer is moot, or the
// solve's limits are reached (which then stop every query).
func (s *searcher) check(q *query) {
	lim := s.env.lim
	total := lim.nodes.Add(s.nodes - s.published)
	s.published = s.nodes
	s.nextCheck = s.nodes + checkInterval
	if r := s.env.report; r != nil {
		r.publish(s)
		r.tick(lim)
	}
	switch {
	case q.nodeEnd > 0 && s.nodes >= q.nodeEnd:
		q.stopped = true
		return
	case q.moot != nil && q.moot():
		q.stopped = true
		return
	case lim.over.Load():
	case lim.reached(total), lim.ctx != nil && lim.ctx.Err() != nil:
		lim.over.Store(true)
	default:
		return
	}
	q.stopped = true
}

// limitReached reports whether the solve's limits stopped it (not a
// query's own budget).
func (s *searcher) limitReached() bool {
	var q query
	s.check(&q)
	return s.env.lim.over.Load()
}

// busyMinDepth is the least depth at which threads mark what they search
// and put off what others search: below it a node costs less than the
// marking.
const busyMinDepth = 3

// busyTable marks the nodes that some thread is searching. A slot holds
// the key of one node; a node whose slot is taken by another is simply
// not marked, which costs only some duplicated work.
type busyTable struct {
	slots [1 << 14]atomic.Uint64
}

func (b *busyTable) slot(key uint64) *atomic.Uint64 { return &b.slots[key&(uint64(len(b.slots))-1)] }

// has reports whether a thread is searching the node.
func (b *busyTable) has(key uint64) bool { return b.slot(key).Load() == key }

// enter marks the node, if its slot is free, and reports whether it did.
func (b *busyTable) enter(key uint64) bool { return b.slot(key).CompareAndSwap(0, key) }

// leave clears the mark that enter set.
func (b *busyTable) leave(key uint64) { b.slot(key).CompareAndSwap(key, 0) }
