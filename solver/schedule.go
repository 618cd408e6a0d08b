package solver

import (
	"sync"
	"sync/atomic"

	"mateline.dev/mateline/board"
)

// schedule runs the two proofs of one solve and keeps what they proved.
//
// The iterations (alpha-beta, mate length n = 1, 2, ...) give the lower
// bound: a finished iteration proves that no mate of length n exists, so
// the first one found is the shortest. The proof-number search gives the
// upper bound: a forced mate within the longest length wanted (the aim),
// found far sooner than by iterating up to it. When the iterations reach
// the length it proved, that mate is the shortest without the last and
// dearest iteration.
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
	// notify, when set, hears of every bound proved (by s).
	notify   func(s *searcher, depth int, mateWithin Mate)
	maxMate  int
	wantMate bool // look for a mate by the side to move
	// wantMated: look for a mate of the side to move
	wantMated bool

	// The proof-number search's question: does pnAttacker mate within
	// pnPlies? pnOpen while it is undecided and worth asking.
	pnOpen     bool
	pnPlies    int
	pnAttacker board.Color

	// What is proved.
	depth      int  // no mate of a wanted kind in depth moves or fewer
	mate       Mate // 0 until proved shortest
	mateWithin Mate // a forced mate proved by the proof-number search
	noMate     bool
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
	aim := opt.MaxMate
	if opt.Aim > 0 && opt.Aim < aim {
		aim = opt.Aim
	}
	sc.pnPlies, sc.pnAttacker = Mate(aim).Plies(), us
	if !sc.wantMate {
		sc.pnPlies, sc.pnAttacker = Mate(-aim).Plies(), us.Other()
	}
	// In the tables the alpha-beta search, bounded by DTZ, is the fast
	// one; probing at every node of a proof-number tree is not.
	sc.pnOpen = (sc.wantMate || sc.wantMated) && aim >= 3 && !inTables
	return sc
}

// result fills the proof's part of a result.
func (sc *schedule) result(res *Result) {
	res.MateWithin, res.Depth = sc.mateWithin, sc.depth
	switch {
	case sc.mate != 0:
		res.Status, res.Mate, res.Depth = StatusMate, sc.mate, sc.mate.Moves()
	case sc.noMate:
		res.Status = StatusNoMate
	default:
		res.Status = StatusLimit
	}
}

// iteration proves or refutes a mate in n (then a mated in n) and returns
// the signed length found, or 0; done is false when a query stopped.
// budget limits the nodes (0 for none); moot, when set, stops it early.
func (sc *schedule) iteration(s *searcher, n int, budget uint64, moot func() bool) (found Mate, done bool) {
	test := func(attacker board.Color, plies int) (bool, bool) {
		q := sc.rootQuery(s, attacker)
		q.moot = moot
		if budget > 0 {
			q.withNodes(s, budget)
		}
		return s.rootTest(q, sc.root, plies), !q.stopped
	}
	if sc.wantMate {
		mates, ok := test(sc.us, 2*n-1)
		if !ok {
			return 0, false
		}
		if mates {
			return Mate(n), true
		}
	}
	if sc.wantMated {
		mated, ok := test(sc.us.Other(), 2*n)
		if !ok {
			return 0, false
		}
		if mated {
			return Mate(-n), true
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

// pnProved records the proof-number search's answer, found by s.
func (sc *schedule) pnProved(s *searcher, mates bool) {
	sc.pnOpen = false
	if !mates {
		return
	}
	sc.mateWithin = MateInPlies(sc.pnPlies) // odd plies: the side to move mates
	// A side that can be forced to mate cannot force mate.
	sc.wantMate = sc.wantMate && sc.pnAttacker == sc.us
	sc.wantMated = sc.wantMated && sc.pnAttacker != sc.us
	sc.tell(s)
}

// proved records that s proved that no mate of a wanted kind exists in n
// moves or fewer.
func (sc *schedule) proved(s *searcher, n int) {
	sc.depth = n
	sc.tell(s)
}

func (sc *schedule) tell(s *searcher) {
	if sc.notify != nil {
		sc.notify(s, sc.depth, sc.mateWithin)
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
	var pnNodes uint64
	// pnTurn gives the proof-number search its share of the nodes, and
	// reports whether a limit stopped the solve.
	pnTurn := func() (limited bool) {
		idNodes := s.nodes - pnNodes
		if !sc.pnOpen || pnRatio*idNodes <= pnNodes || idNodes < firstTurn {
			return false // nothing owed, or a problem too easy to share
		}
		before := s.nodes
		q := sc.rootQuery(s, sc.pnAttacker).withNodes(s, pnRatio*idNodes-pnNodes)
		mates, decided := s.pnProve(q, sc.root, sc.pnPlies)
		pnNodes += s.nodes - before
		if !decided {
			return q.stopped && s.limitReached()
		}
		sc.pnProved(s, mates)
		return false
	}
	for n := 1; n <= sc.maxMate; n++ {
		for {
			if sc.mateWithin != 0 && n == sc.mateWithin.Moves() {
				// Nothing shorter, and the proof-number search proved this.
				sc.mate = sc.mateWithin
				return
			}
			budget := uint64(0)
			if sc.pnOpen && n >= 3 {
				budget = max(s.nodes-pnNodes, firstTurn)
			}
			found, done := sc.iteration(s, n, budget, nil)
			if !done && (budget == 0 || s.limitReached()) {
				return
			}
			if done {
				if found != 0 {
					sc.mate = found
					return
				}
				sc.proved(s, n)
				break
			}
			if pnTurn() || sc.firstMate && sc.mateWithin != 0 {
				return
			}
		}
		if n >= 2 && pnTurn() {
			return
		}
		if sc.firstMate && sc.mateWithin != 0 {
			return
		}
	}
	sc.noMate = true
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
	n.Store(1)
	lim := ss[0].env.lim
	// finish ends the solve for every thread (under mu).
	finish := func() { finished.Store(true) }
	// iterate searches the current iteration once, within budget nodes
	// (0 for none), and records what it proved.
	iterate := func(s *searcher, budget uint64) {
		mu.Lock()
		k := int(n.Load())
		switch {
		case sc.mateWithin != 0 && k == sc.mateWithin.Moves():
			sc.mate = sc.mateWithin
			finish()
		case k > sc.maxMate:
			sc.noMate = true
			finish()
		}
		local := *sc // the iteration reads the root and what is wanted
		mu.Unlock()
		if finished.Load() {
			return
		}
		moot := func() bool { return finished.Load() || int(n.Load()) != k || int(within.Load()) == k }
		found, done := local.iteration(s, k, budget, moot)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case done && int(n.Load()) == k && !finished.Load():
			if found != 0 {
				sc.mate = found
				finish()
			} else {
				sc.proved(s, k)
				n.Store(int32(k + 1))
			}
		case !done && s.limitReached():
			finish()
		}
	}
	// pnTurn gives the proof-number search a turn of budget nodes.
	pnTurn := func(s *searcher, budget uint64) {
		q := sc.rootQuery(s, sc.pnAttacker).withNodes(s, budget)
		aim := MateInPlies(sc.pnPlies).Moves()
		q.moot = func() bool { return finished.Load() || int(n.Load()) > aim }
		before := s.nodes
		mates, decided := s.pnProve(q, sc.root, sc.pnPlies)
		pnNodes.Add(s.nodes - before)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case decided:
			sc.pnProved(s, mates)
			if mates {
				within.Store(int32(sc.mateWithin.Moves()))
				if sc.firstMate {
					finish()
				}
			}
		case s.limitReached():
			finish()
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
