package solver

import (
	"sync"
	"sync/atomic"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// schedule runs the two proofs of one solve and keeps what they proved.
//
// The iterations (alpha-beta, mate length n = 1, 2, ...) give the lower
// bound: a finished iteration proves that no mate of length n exists, so
// the first one found is the shortest. The proof-number search gives the
// upper bound: a forced mate within the longest length wanted (the aim),
// found far sooner than by iterating up to it.
//
// Find, then tighten: once the proof-number search proves a mate, the
// proof tree it left is read for the exact length it proves (the
// defender's longest line in it) and a line of that length, which is
// reported at once; then the search is aimed one move shorter, while the
// iterations keep climbing from below. Each proof lowers the upper bound;
// a disproof, or the iterations reaching one short of it, proves the mate
// shortest, without the last and dearest iteration. A tightening question
// gets a budget of its own (as many nodes as every question before it):
// when the last proof was already the shortest, as it mostly is, the
// search could only prove it by a disproof, which the iterations do
// better, so it gives way to them.
//
// On one thread the two take turns, the proof-number search spending about
// twice the iterations' nodes while its question is open (runTurns). On
// several, they run side by side, and the threads not needed by the
// proof-number search help the iterations (runThreads).
// Either way, what is proved does not depend on timing: only where a limit
// stops it does.
type schedule struct {
	root board.Position
	us   board.Color
	book []board.Move
	// rootMoves, when not nil, are the only root moves searched, and
	// rootSalt keeps the root's table entries apart.
	rootMoves []board.Move
	rootSalt  uint64
	// firstMate ends the proofs at the first forced mate proved, shortest
	// or not (Options.FirstMate).
	firstMate bool
	// notify, when set, hears of every bound proved (by s); answering,
	// when set, is set once a mate is proved, whose keys and line the
	// limits then keep their reserve for.
	notify    func(s *searcher, b bounds)
	answering *atomic.Bool
	maxMate   int
	// wantMate: look for a mate by the side to move; wantMated: of it.
	wantMate, wantMated bool
	// lbMate and lbMated: no mate by the side to move in lbMate moves or
	// fewer, none of it in lbMated or fewer.
	lbMate, lbMated int

	// The proof-number search's question: does pnAttacker mate within
	// pnPlies? pnOpen while it is undecided and worth asking. pnBudget,
	// when not 0, is what a tightening question may spend, pnSpent what it
	// has; pnTotal counts every question's nodes.
	pnOpen     bool
	pnPlies    int
	pnAttacker board.Color
	pnBudget   uint64
	pnSpent    uint64
	pnTotal    uint64
	// Before a mate is found, the questions come from a ladder
	// (ladder.go).
	ladder   *ladder
	inTables bool

	// What is proved.
	depth      int          // no mate of a wanted kind in depth moves or fewer
	mate       problem.Mate // 0 until proved shortest
	mateWithin problem.Mate // a forced mate proved by the proof-number search
	// line is a line of exactly mateWithin's plies ending in mate, read
	// off its proof tree, tree; both nil when the tree could not be read.
	line []board.Move
	tree *proofTree
	// noMate: no mate of a wanted kind within maxMate (capped), or, with
	// none, at any length (no side wanted has the material).
	noMate, none bool
}

// bounds is what a schedule has proved so far, as its notify hears it.
type bounds struct {
	depth      int
	mateWithin problem.Mate
	line       []board.Move
	shortest   bool
}

// newSchedule sets up the proofs for pos; inTables says whether the
// tablebases cover it.
func newSchedule(pos board.Position, opt Options, book []board.Move, inTables bool) *schedule {
	us := pos.Side()
	sc := &schedule{
		root: pos, us: us, book: book, maxMate: opt.MaxMate,
		wantMate:  opt.Want != WantMated && pos.CanMate(us),
		wantMated: opt.Want != WantMate && pos.CanMate(us.Other()),
	}
	if !sc.wantMate && !sc.wantMated {
		sc.none, sc.noMate, sc.depth = true, true, sc.maxMate
		return sc
	}
	sc.inTables = inTables
	hint := 0
	if opt.Aim > 0 && opt.Aim <= opt.MaxMate {
		hint = opt.Aim
	}
	sc.ladder = newLadder(sc.wantMate, sc.wantMated, hint, opt.MaxMate)
	if r, ok := sc.ladder.current(); ok {
		sc.ask(r)
	}
	return sc
}

// firstAim is the first aim of the proof-number search, in moves, when no
// claim gives one: short enough that its plies run out in the lines that
// lead nowhere, which steers it to the forcing ones. On 484 lines of
// matetrack.epd outside the shared samples, one thread, 1 s each, with a
// single aim: 20 moves found 348 mates, 30 343, 60 320, 123 306.
const firstAim = 20

// firstLadderBudget is the budget of the first question of the ladder: a
// second or so of the proof-number search. Each later one gets as much as
// all before it.
const firstLadderBudget = 1 << 22

// ask opens the proof-number search's question of rung r.
func (sc *schedule) ask(r rung) {
	sc.pnAttacker, sc.pnPlies = sc.us, problem.Mate(r.aim).Plies()
	if r.mated {
		sc.pnAttacker, sc.pnPlies = sc.us.Other(), problem.Mate(-r.aim).Plies()
	}
	sc.pnSpent, sc.pnBudget = 0, sc.ladder.budget(sc.pnTotal)
	// In the tables the alpha-beta search, bounded by DTZ, is the fast
	// one; probing at every node of a proof-number tree is not.
	sc.pnOpen = r.aim >= 3 && !sc.inTables && !sc.done()
}

// next asks the ladder's next question once the current one was disproved
// or (gaveUp) spent its budget undecided, before any mate is proved. It
// closes the search when there is nothing left to ask.
func (sc *schedule) next(gaveUp bool) {
	sc.pnOpen = false
	if sc.done() || sc.mateWithin != 0 {
		return
	}
	if r, ok := sc.ladder.next(gaveUp, sc.lbMate, sc.lbMated, sc.wantMate, sc.wantMated); ok {
		sc.ask(r)
	}
}

// done reports whether the proof is complete: the shortest mate, or no
// mate within the longest length wanted.
func (sc *schedule) done() bool { return sc.mate != 0 || sc.noMate }

// result fills the proof's part of a result.
func (sc *schedule) result(res *Result) {
	res.MateWithin, res.Depth = sc.mateWithin, sc.depth
	switch {
	case sc.mate != 0:
		res.Status, res.Mate, res.Depth = StatusMate, sc.mate, sc.mate.Moves()
	case sc.none:
		res.Status = StatusNoMate
	case sc.noMate:
		res.Status = StatusCapped
	default:
		res.Status = StatusLimit
	}
}

// settle draws what follows from the bounds: the kinds still wanted, the
// lower bound, and whether the proof is complete.
func (sc *schedule) settle() {
	if sc.lbMate >= sc.maxMate {
		sc.wantMate = false
	}
	if sc.lbMated >= sc.maxMate {
		sc.wantMated = false
	}
	d := sc.maxMate
	if sc.wantMate {
		d = min(d, sc.lbMate)
	}
	if sc.wantMated {
		d = min(d, sc.lbMated)
	}
	if sc.mateWithin != 0 {
		d = min(d, sc.mateWithin.Moves()-1)
	}
	sc.depth = max(sc.depth, d)
	switch {
	case sc.mate != 0:
	case sc.mateWithin != 0 && sc.depth >= sc.mateWithin.Moves()-1:
		// Nothing shorter, and the proof-number search proved this.
		sc.mate = sc.mateWithin
	case sc.mateWithin == 0 && (sc.depth >= sc.maxMate || !sc.wantMate && !sc.wantMated):
		sc.noMate, sc.depth = true, sc.maxMate
	}
	if sc.done() {
		sc.pnOpen = false
	}
}

// iteration proves or refutes a mate in n (then a mated in n), for the
// kinds not yet refuted that far, and returns the signed length found, or
// 0; done is false when a query stopped. budget limits the nodes (0 for
// none); moot, when set, stops it early.
func (sc *schedule) iteration(s *searcher, n int, budget uint64, moot func() bool) (found problem.Mate, done bool) {
	test := func(attacker board.Color, plies int) (bool, bool) {
		q := sc.rootQuery(s, attacker)
		q.moot = moot
		if budget > 0 {
			q.withNodes(s, budget)
		}
		return s.rootTest(q, sc.root, plies), !q.stopped
	}
	if sc.wantMate && n > sc.lbMate {
		mates, ok := test(sc.us, 2*n-1)
		if !ok {
			return 0, false
		}
		if mates {
			return problem.Mate(n), true
		}
	}
	if sc.wantMated && n > sc.lbMated {
		mated, ok := test(sc.us.Other(), 2*n)
		if !ok {
			return 0, false
		}
		if mated {
			return problem.Mate(-n), true
		}
	}
	return 0, true
}

// rootQuery is a question about the root: its book moves first, and only
// the moves it is restricted to.
func (sc *schedule) rootQuery(s *searcher, attacker board.Color) *query {
	q := s.newQuery(attacker)
	q.rootBook, q.rootMoves, q.rootSalt = sc.book, sc.rootMoves, sc.rootSalt
	return q
}

// proofRead is what the proof tree of a proved mate gives: the mate it
// proves, no longer than the question's, and a line of exactly its plies;
// ok is false when the tree could not be read.
type proofRead struct {
	provedMate
	ok bool
}

// readProof reads the proof the proof-number search just found for its
// question (plies for the attacker): it touches no shared state but the
// searcher's own and the proof-number table, so a thread may read it
// without the schedule's lock.
func (sc *schedule) readProof(s *searcher, plies int, budget uint64) proofRead {
	p, err := s.readTree(sc.root, problem.MateInPlies(plies), sc.rootMoves, budget)
	if err != nil {
		return proofRead{}
	}
	return proofRead{provedMate: p, ok: true}
}

// readBudget is what reading a proof tree may spend on searches where the
// tables forgot, beside the nodes of the proof itself.
const readBudget = 1 << 20

// pnProved records the proof-number search's answer to its question,
// found by s, and asks the next question: after a mate, the same one move
// shorter (unless the first mate is all that is wanted).
func (sc *schedule) pnProved(s *searcher, mates bool, pf proofRead) {
	aim := problem.MateInPlies(sc.pnPlies) // odd plies: the side to move mates
	sc.pnOpen = false
	if !mates {
		// No mate of this kind within the aim: a lower bound of that kind.
		if sc.pnAttacker == sc.us {
			sc.lbMate = max(sc.lbMate, aim.Moves())
		} else {
			sc.lbMated = max(sc.lbMated, aim.Moves())
		}
		sc.settle()
		sc.next(false)
		sc.tell(s)
		return
	}
	proved, line, tree := aim, []board.Move(nil), (*proofTree)(nil)
	if pf.ok && pf.mate.Moves() <= aim.Moves() {
		proved, line, tree = pf.mate, pf.line, pf.tree
	}
	// A side that can be forced to mate cannot force mate.
	sc.wantMate = sc.wantMate && sc.pnAttacker == sc.us
	sc.wantMated = sc.wantMated && sc.pnAttacker != sc.us
	if sc.mateWithin == 0 || proved.Moves() < sc.mateWithin.Moves() || sc.line == nil && line != nil {
		sc.mateWithin, sc.line, sc.tree = proved, line, tree
	}
	sc.settle()
	if next := sc.mateWithin.Moves() - 1; !sc.done() && !sc.firstMate && next >= 3 {
		// Tighten: the same question one move shorter, on a budget.
		sc.pnPlies = sc.mateWithin.Shorter().Plies()
		sc.pnOpen, sc.pnBudget, sc.pnSpent = true, max(sc.pnTotal, firstTighten), 0
	}
	sc.tell(s)
}

// firstTighten is the least budget of a tightening question: a proof
// found cheaply leaves little to spend, and a disproof can cost more than
// the proof. Line 6068 of matetrack.epd capped at its mate in 18: the
// mate in 18 is proved, and the tightening question, with the 14,000
// nodes of the proofs before it, gives up where the mate in 17 is
// disproved in 12,269 nodes with a larger budget; the iterations need
// over 60 s. On 193 matetrack lines outside the samples, 2 s each, one
// thread, against a least budget of 2^15, side by side: told the claim,
// the same within noise (95 against 96 proved shortest).
const firstTighten = 1 << 18

// proved records that s proved that no mate of a wanted kind exists in n
// moves or fewer.
func (sc *schedule) proved(s *searcher, n int) {
	sc.lbMate, sc.lbMated = max(sc.lbMate, n), max(sc.lbMated, n)
	sc.settle()
	sc.tell(s)
}

// found records a mate the iterations found: the shortest.
func (sc *schedule) found(s *searcher, m problem.Mate) {
	sc.mate, sc.depth = m, m.Moves()
	sc.pnOpen = false
	sc.tell(s)
}

func (sc *schedule) tell(s *searcher) {
	if sc.answering != nil && (sc.mate != 0 || sc.mateWithin != 0) {
		sc.answering.Store(true)
	}
	if sc.notify != nil {
		b := bounds{depth: sc.depth, mateWithin: sc.mateWithin, line: sc.line, shortest: sc.mate != 0}
		if sc.mate != 0 && sc.mate != sc.mateWithin {
			b.mateWithin, b.line = sc.mate, nil
		}
		sc.notify(s, b)
	}
}

// pnGiveUp ends a question that spent its budget: a tightening one closes
// the search, one of the ladder makes way for the next.
func (sc *schedule) pnGiveUp() {
	if sc.pnBudget > 0 && sc.pnSpent >= sc.pnBudget {
		sc.next(true)
	}
}

// firstTurn is the least number of nodes the iterations spend before the
// proof-number search gets a turn: easier problems are not shared.
const firstTurn = 1 << 15

// pnRatio is how many nodes the proof-number search spends on one thread
// for each node of the iterations, while its question is open: two thirds
// of a core, as on two threads (pnShare). A mate's length is proved
// shortest when both proofs are done, whatever their shares, unless the
// iterations finish first; a larger share brings the upper bound, the
// first answer, sooner. On matetrack-strat at 2 s, forced mates proved
// went from 199 to 205 against equal shares, and proved shortest stayed
// at 150; a proof that no mate exists takes longer (the lower-bound set,
// 72.5 s to 103 s).
const pnRatio = 2

// runTurns runs the proofs on one thread, taking turns. An iteration cut
// short by its turn runs again after the proof-number search's turn; the
// table keeps most of its work.
func (sc *schedule) runTurns(s *searcher) {
	// pnTurn gives the proof-number search its share of the nodes, and
	// reports whether a limit stopped the solve.
	pnTurn := func() (limited bool) {
		idNodes := s.nodes - sc.pnTotal
		if !sc.pnOpen || pnRatio*idNodes <= sc.pnTotal || idNodes < firstTurn {
			return false // nothing owed, or a problem too easy to share
		}
		budget := pnRatio*idNodes - sc.pnTotal
		if sc.pnBudget > 0 {
			budget = min(budget, sc.pnBudget-sc.pnSpent)
		}
		before := s.nodes
		q := sc.rootQuery(s, sc.pnAttacker).withNodes(s, budget)
		mates, decided := s.pnProve(q, sc.root, sc.pnPlies)
		var pf proofRead
		if decided && mates {
			pf = sc.readProof(s, sc.pnPlies, max(s.nodes-before, readBudget))
		}
		sc.pnTotal += s.nodes - before
		sc.pnSpent += s.nodes - before
		if !decided {
			sc.pnGiveUp()
			return q.stopped && s.limitReached()
		}
		sc.pnProved(s, mates, pf)
		return false
	}
	for !sc.done() {
		if sc.firstMate && sc.mateWithin != 0 {
			return
		}
		n := sc.depth + 1
		budget := uint64(0)
		if sc.pnOpen && n >= 3 {
			budget = max(s.nodes-sc.pnTotal, firstTurn)
		}
		found, done := sc.iteration(s, n, budget, nil)
		if !done && (budget == 0 || s.limitReached()) {
			return
		}
		if done {
			if found != 0 {
				sc.found(s, found)
				return
			}
			sc.proved(s, n)
			if sc.done() || n < 2 {
				continue
			}
		}
		if pnTurn() {
			return
		}
	}
}

// pnShare is the proof-number search's share on several threads: it gets
// a turn while it has spent less than half the iterations' nodes, so about
// a third of all, two thirds of a core on two threads (as much as it gets
// on one). The rest of its thread's time helps the iterations, whose
// threads share the work well (simplified ABDADA). On matetrack-strat at
// 2 s with two threads, against a quarter of all: forced mates proved 198
// to 205, proved shortest 152 to 155; the lower-bound set 31.1 s to 35.0 s.
const pnShare = 2

// helpSlice is how many nodes the proof-number search's thread helps the
// iterations for before it looks whether its own search is owed a turn.
const helpSlice = 1 << 18

// runThreads runs the proofs on several threads: the first searcher runs
// the iterations, the second takes turns between the proof-number search
// (while its question is open and its share not spent) and helping the
// iterations, and every other helps the iterations. The iteration that
// finishes first, on whichever thread, moves all of them on.
func (sc *schedule) runThreads(ss []*searcher) {
	var (
		mu       sync.Mutex
		n        atomic.Int32 // the iteration being searched
		finished atomic.Bool  // the proof is complete, or a limit stopped it
		within   atomic.Int32 // |mateWithin| once proved
		pnNodes  atomic.Uint64
	)
	n.Store(int32(sc.depth + 1))
	lim := ss[0].env.lim
	// after records what changed (under mu): the next iteration, and the
	// end of the solve.
	after := func() {
		n.Store(int32(sc.depth + 1))
		within.Store(int32(sc.mateWithin.Moves()))
		if sc.done() || sc.firstMate && sc.mateWithin != 0 {
			finished.Store(true)
		}
	}
	mu.Lock()
	after()
	mu.Unlock()
	// iterate searches the current iteration once, within budget nodes
	// (0 for none), and records what it proved.
	iterate := func(s *searcher, budget uint64) {
		mu.Lock()
		k := int(n.Load())
		local := *sc // the iteration reads the root and what is wanted
		mu.Unlock()
		if finished.Load() {
			return
		}
		moot := func() bool {
			w := int(within.Load())
			return finished.Load() || int(n.Load()) != k || w != 0 && w <= k
		}
		found, done := local.iteration(s, k, budget, moot)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case done && int(n.Load()) == k && !finished.Load():
			if found != 0 {
				sc.found(s, found)
			} else {
				sc.proved(s, k)
			}
			after()
		case !done && s.limitReached():
			finished.Store(true)
		}
	}
	// pnTurn gives the proof-number search a turn of budget nodes, and
	// reads the proof it finds before it takes the lock.
	pnTurn := func(s *searcher, budget uint64) {
		mu.Lock()
		plies, attacker := sc.pnPlies, sc.pnAttacker
		if sc.pnBudget > 0 {
			budget = min(budget, sc.pnBudget-sc.pnSpent)
		}
		mu.Unlock()
		q := sc.rootQuery(s, attacker).withNodes(s, budget)
		aim := problem.MateInPlies(plies).Moves()
		q.moot = func() bool { return finished.Load() || int(n.Load()) > aim }
		before := s.nodes
		mates, decided := s.pnProve(q, sc.root, plies)
		var pf proofRead
		if decided && mates {
			pf = sc.readProof(s, plies, max(s.nodes-before, readBudget))
		}
		spent := s.nodes - before
		pnNodes.Add(spent)
		mu.Lock()
		defer mu.Unlock()
		sc.pnTotal += spent
		sc.pnSpent += spent
		switch {
		case decided && !finished.Load() && plies == sc.pnPlies && attacker == sc.pnAttacker:
			sc.pnProved(s, mates, pf)
			after()
		case !decided && s.limitReached():
			finished.Store(true)
		case !decided:
			sc.pnGiveUp()
		}
	}
	var wg sync.WaitGroup
	for i, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !finished.Load() {
				if i != 1 {
					iterate(s, 0)
					continue
				}
				mu.Lock()
				open := sc.pnOpen
				mu.Unlock()
				idNodes := lim.nodes.Load() - min(pnNodes.Load(), lim.nodes.Load())
				if owed := idNodes/pnShare - min(pnNodes.Load(), idNodes/pnShare); open && idNodes >= firstTurn && owed > 0 {
					pnTurn(s, max(owed, firstTurn))
				} else if open {
					iterate(s, helpSlice)
				} else {
					iterate(s, 0)
				}
			}
		}()
	}
	wg.Wait()
}

// tablesWinner takes what the tablebases say of the root: +1 the side to
// move mates, -1 it is mated, 0 neither at any length. A kind they rule
// out is not wanted; with none left, no mate of a kind asked for exists.
func (sc *schedule) tablesWinner(w int) {
	sc.wantMate = sc.wantMate && w > 0
	sc.wantMated = sc.wantMated && w < 0
	if !sc.wantMate && !sc.wantMated {
		sc.none, sc.noMate, sc.depth, sc.pnOpen = true, true, sc.maxMate, false
		return
	}
	if r, ok := sc.ladder.current(); ok && (r.mated && sc.wantMated || !r.mated && sc.wantMate) {
		return // the question asked is still wanted
	}
	sc.next(false)
}
