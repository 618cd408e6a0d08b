// Package solver is mateline's mate prover: a heuristic-free alpha-beta
// search on exact mate scores with iterative deepening over the mate
// length, single-reply extensions, a transposition table of memoized
// bounds, and move ordering by table move, checks, captures, killers and
// history. A finished iteration proves that no shorter mate exists, so the
// first mate found is the shortest. Tablebases and books plug in through
// the Prober and Book interfaces; they can make a proof cheaper, never
// different.
package solver

import (
	"context"
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
	Nodes   uint64        // node limit per position; 0 for none
	Timeout time.Duration // time limit per position; 0 for none
	Prober  Prober        // tablebases, or nil
	Book    Book          // opening book for root ordering, or nil
	HashMiB int           // table size when the Solver makes its own table
	NoKeys  bool          // skip key and line extraction (bench)
	// Aim is the mate length (in moves, for the kind Want asks for) that
	// the proof-number search tries to prove; 0 or more than MaxMate means
	// MaxMate. A claim is the natural aim when MaxMate looks beyond it.
	Aim int
}

// Result is what a solve proved.
type Result struct {
	Status Status
	// Mate is in signed moves: +N the side to move mates in N, -N it is
	// mated in N; 0 when Status is not StatusMate.
	Mate int
	// Keys are the first moves that achieve Mate: every one with AllKeys,
	// else at least one. For a mated position they are the defences that
	// hold out longest.
	Keys []board.Move
	// PV is the main line, with longest-resisting defences.
	PV []board.Move
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

// Solver proves mates. It owns a transposition table that it reuses from
// one position to the next; it is not safe for concurrent use (make one per
// worker).
type Solver struct {
	s searcher
}

// New returns a Solver whose tables take at most hashMiB MiB together (64
// if hashMiB <= 0).
func New(hashMiB int) *Solver {
	if hashMiB <= 0 {
		hashMiB = 64
	}
	// A quarter of the memory goes to the proof-number search.
	size := uint64(hashMiB) << 20
	return &Solver{s: searcher{tt: newTableBytes(size - size/4), pn: newPNTable(size / 4)}}
}

// Table returns the solver's transposition table.
func (sv *Solver) Table() *Table { return sv.s.tt }

// Solve proves the shortest mate of pos within opt.MaxMate moves.
func (sv *Solver) Solve(ctx context.Context, pos board.Position, opt Options) Result {
	start := time.Now()
	s := &sv.s
	s.prober, s.rule50 = opt.Prober, opt.Rule50
	s.ctx, s.stopped, s.nodes, s.tbHits = ctx, false, 0, 0
	s.nodeLimit = opt.Nodes
	s.deadline = time.Time{}
	if opt.Timeout > 0 {
		s.deadline = start.Add(opt.Timeout)
	}
	s.tt.NewSearch()
	probes0, hits0 := s.tt.Stats()
	clear(s.killers[:])
	clear(s.history[:])
	if opt.MaxMate <= 0 {
		opt.MaxMate = 10
	}
	if opt.MaxMate > MaxPly/2-2 {
		opt.MaxMate = MaxPly/2 - 2
	}

	res := Result{Status: StatusNoMate}
	var bookMoves []board.Move
	if opt.Book != nil {
		bookMoves = opt.Book.BookMoves(&pos)
		res.Book = bookMoves
	}
	us := pos.Side()
	wantMate := opt.Want != WantMated && pos.CanMate(us)
	wantMated := opt.Want != WantMate && pos.CanMate(us.Other())

	finish := func() Result {
		res.Nodes, res.TBHits, res.Elapsed = s.nodes, s.tbHits, time.Since(start)
		p, h := s.tt.Stats()
		res.TTProbe, res.TTHits = p-probes0, h-hits0
		return res
	}

	// The proof-number search looks for the longest mate wanted, taking
	// turns with the iterations so that each has spent about as many nodes
	// as the other: a mate it proves is an upper bound, so the iterations
	// can stop one short of it, and it is reported even if they never get
	// there. An iteration cut short by its turn runs again after the
	// search's turn; the table keeps most of its work.
	aim := opt.MaxMate
	if opt.Aim > 0 && opt.Aim < aim {
		aim = opt.Aim
	}
	pnPlies, pnAttacker := 2*aim-1, us
	if !wantMate {
		pnPlies, pnAttacker = 2*aim, us.Other()
	}
	pnOpen := (wantMate || wantMated) && aim >= 3
	if s.inTables(&pos) {
		// In the tables the alpha-beta search, bounded by DTZ, is the
		// fast one; probing at every node of a proof-number tree is not.
		pnOpen = false
	}
	s.pn.newSearch()
	var pnNodes uint64
	const firstTurn = 1 << 15
	// pnTurn gives the proof-number search its share of the nodes.
	pnTurn := func() {
		idNodes := s.nodes - pnNodes
		if !pnOpen || idNodes <= pnNodes || idNodes < firstTurn {
			return // nothing owed, or a problem too easy to share
		}
		before := s.nodes
		s.attacker = pnAttacker
		var mates, decided bool
		s.withBudget(idNodes-pnNodes, func() { mates, decided = s.pnProve(pos, pnPlies) })
		pnNodes += s.nodes - before
		if s.stopped || !decided {
			return
		}
		pnOpen = false
		if mates {
			res.MateWithin = (pnPlies + 1) / 2
			if pnAttacker != us {
				res.MateWithin = -res.MateWithin
			}
			// A side that can be forced to mate cannot force mate.
			wantMate = wantMate && pnAttacker == us
			wantMated = wantMated && pnAttacker != us
		}
	}
	// iteration proves or refutes a mate in n (then a mated in n) and
	// returns the signed length found, or 0.
	iteration := func(n int) int {
		if wantMate {
			s.attacker = us
			if s.rootTest(pos, 2*n-1, bookMoves) {
				return n
			}
		}
		if wantMated && !s.stopped {
			s.attacker = us.Other()
			if s.rootTest(pos, 2*n, bookMoves) {
				return -n
			}
		}
		return 0
	}
iterations:
	for n := 1; n <= opt.MaxMate; n++ {
		for {
			if res.MateWithin != 0 && n == abs(res.MateWithin) {
				// Nothing shorter, and the proof-number search proved this.
				res.Status, res.Mate = StatusMate, res.MateWithin
				break iterations
			}
			found, done := 0, true
			if pnOpen && n >= 3 {
				done = s.withBudget(max(s.nodes-pnNodes, firstTurn), func() { found = iteration(n) })
			} else {
				found = iteration(n)
			}
			if s.stopped {
				break iterations
			}
			if done {
				if found != 0 {
					res.Status, res.Mate = StatusMate, found
					break iterations
				}
				res.Depth = n
				break
			}
			pnTurn()
			if s.stopped {
				break iterations
			}
		}
		if n >= 2 {
			pnTurn()
			if s.stopped {
				break
			}
		}
	}
	if s.stopped {
		res.Status, res.Mate = StatusLimit, 0
		return finish()
	}
	if res.Status == StatusMate {
		res.Depth = abs(res.Mate)
		if !opt.NoKeys {
			res.Keys = s.keys(pos, res.Mate, opt.AllKeys, bookMoves)
			if len(res.Keys) > 0 {
				res.PV = s.line(pos, res.Keys[0], res.Mate)
			}
			if s.stopped {
				// The mate stands proved; only the extras are cut short.
				res.Partial = true
				s.stopped = false
			}
		}
	}
	return finish()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// rootTest reports whether the root position is won by the side to move
// within plies (odd), or lost within plies (even). It is a null-window
// search around that boundary.
func (s *searcher) rootTest(pos board.Position, plies int, book []board.Move) bool {
	s.pos[0] = pos
	s.rootBook = book
	if plies%2 == 1 {
		bound := Mate - plies
		v, _ := s.search(0, plies, bound-1, bound)
		return !s.stopped && v >= bound
	}
	bound := -(Mate - plies)
	v, _ := s.search(0, plies, bound, bound+1)
	return !s.stopped && v <= bound
}

// withBudget runs f with at most budget more nodes, within the solve's own
// limits, and reports whether f ran to the end. A stop for the budget is
// cleared; one for the solve's limits stays.
func (s *searcher) withBudget(budget uint64, f func()) bool {
	hardLimit := s.nodeLimit
	s.nodeLimit = s.nodes + budget
	if hardLimit > 0 {
		s.nodeLimit = min(s.nodeLimit, hardLimit)
	}
	f()
	s.nodeLimit = hardLimit
	if !s.stopped {
		return true
	}
	s.stopped = false
	s.checkLimits()
	return false
}

// matesWithin reports whether the side to move in pos mates within plies
// (odd): from what the proof-number search's table decided, else by a
// search from ply 0.
func (s *searcher) matesWithin(pos *board.Position, plies int) bool {
	if plies < 1 {
		return false
	}
	if wins, known := s.pnKnown(pos, plies); known {
		return wins
	}
	return s.rootTest(*pos, plies, nil)
}

// matedWithin reports whether the side to move in pos is mated within
// plies (even; 0 means it is checkmated now), like matesWithin.
func (s *searcher) matedWithin(pos *board.Position, plies int) bool {
	if plies == 0 {
		return pos.IsCheckmate()
	}
	if wins, known := s.pnKnown(pos, plies); known {
		return wins
	}
	return s.rootTest(*pos, plies, nil)
}

// keys returns the root moves achieving mate (signed moves): for a win the
// moves after which the opponent is mated within the remaining plies, for a
// loss the defences that hold out the full length.
func (s *searcher) keys(pos board.Position, mate int, all bool, book []board.Move) []board.Move {
	var l board.MoveList
	pos.LegalMoves(&l)
	moves := rootOrder(l.Slice(), book)
	var keys []board.Move
	for _, m := range moves {
		child := pos
		child.Play(m)
		var ok bool
		if mate > 0 {
			s.attacker = pos.Side()
			ok = s.matedWithin(&child, 2*mate-2)
		} else {
			// A defence holds out the full length if the opponent cannot
			// mate faster than 2*|mate|-1 plies after it.
			s.attacker = pos.Side().Other()
			ok = !s.matesWithin(&child, 2*(-mate)-3)
		}
		if s.stopped {
			break
		}
		if ok {
			keys = append(keys, m)
			if !all {
				break
			}
		}
	}
	return keys
}

// rootOrder puts book moves first, keeping the rest in generator order.
func rootOrder(moves, book []board.Move) []board.Move {
	out := make([]board.Move, 0, len(moves))
	for _, b := range book {
		for _, m := range moves {
			if m == b {
				out = append(out, m)
			}
		}
	}
	for _, m := range moves {
		inBook := false
		for _, b := range book {
			inBook = inBook || b == m
		}
		if !inBook {
			out = append(out, m)
		}
	}
	return out
}

// line builds the main line from the first key: the winner plays a move
// that keeps the mate on schedule, the loser the reply that holds out
// longest.
func (s *searcher) line(root board.Position, first board.Move, mate int) []board.Move {
	pv := []board.Move{first}
	pos := root
	pos.Play(first)
	// plies left until mate after the first move
	left := 2*mate - 2
	if mate < 0 {
		left = 2*(-mate) - 1
	}
	winner := root.Side()
	if mate < 0 {
		winner = winner.Other()
	}
	s.attacker = winner
	for left > 0 && !s.stopped {
		var l board.MoveList
		pos.LegalMoves(&l)
		if l.N == 0 {
			break
		}
		next := board.NoMove
		if pos.Side() == winner {
			for _, m := range l.Slice() {
				child := pos
				child.Play(m)
				if s.matedWithin(&child, left-1) {
					next = m
					break
				}
			}
		} else {
			// The reply after which the winner needs the most plies.
			bestNeed := -1
			for _, m := range l.Slice() {
				child := pos
				child.Play(m)
				need := 1
				for need < left-1 && !s.matesWithin(&child, need) && !s.stopped {
					need += 2
				}
				if need > bestNeed {
					bestNeed, next = need, m
				}
			}
		}
		if next == board.NoMove {
			break
		}
		pv = append(pv, next)
		pos.Play(next)
		left--
	}
	return pv
}
