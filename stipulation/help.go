package stipulation

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/stipulation/internal/prune"
)

// Line is a solution: the moves from the problem position, in order.
type Line []board.Move

// ErrLimit says a limit (the context, or the node budget) stopped a
// solve: what was found is not all there is.
var ErrLimit = errors.New("stopped by a limit before the search was complete")

// ErrMaxSolutions says a helpmate solve stopped at Limits.MaxSolutions
// solutions, as Popeye's MaxSolutions option asks.
var ErrMaxSolutions = errors.New("stopped at the solutions asked for")

// Limits bound a solve.
type Limits struct {
	Nodes        uint64 // positions visited; 0 for no limit
	MaxSolutions int    // helpmates: stop after this many solutions; 0 for all
	// Threads share a helpmate's first moves out (0 or 1: one thread).
	// The solutions and their order do not depend on it.
	Threads int
	// MaxFlights and Threat are Popeye's options MaxFlightsquares N (as
	// N+1) and Threat N for long selfmates: the defender has also
	// defended when its king has MaxFlights flight squares or more, or
	// when the attacker threatens no selfmate in fewer than Threat moves
	// (0: no such rule). When they hold is in selfer.keepsRules.
	MaxFlights, Threat int
}

// HelpResult is every solution of a helpmate.
type HelpResult struct {
	Solutions []Line // in the order of the move generator, move by move
	Nodes     uint64 // positions visited
}

// Helpmates finds every solution of a help play (st.IsHelp) from pos:
// every line of st.Plies() legal plies, the side to move starting, whose
// last ply checkmates (or, for h=N, stalemates). In hs#N the last ply is
// the other side's, and every move it has mates; in hr#N it is a mate
// the other side could not avoid playing (a side that can mate in one
// must: the other side never could before, the side to move never can).
// An error (ErrLimit) means the list may be incomplete; without one, no
// solution means there is none.
func Helpmates(ctx context.Context, pos board.Position, st problem.Stipulation, lim Limits) (HelpResult, error) {
	return helpmatesWith(ctx, pos, st, lim, prune.Enabled())
}

// helpmatesWith is Helpmates with the shortcuts in cuts only.
func helpmatesWith(ctx context.Context, pos board.Position, st problem.Stipulation, lim Limits, cuts prune.Set) (HelpResult, error) {
	if !st.IsHelp() {
		return HelpResult{}, errors.New("not a help stipulation")
	}
	plies := st.Plies()
	end := helpEnds[st.Kind]
	if lim.Threads > 1 && plies >= 3 {
		return helpThreads(ctx, pos, plies, st.Aim, end, lim, cuts)
	}
	h := newHelper(ctx, lim, plies, st.Aim, end, cuts, nil, nil)
	_, err := h.solve(&pos, plies, make([]board.Move, 0, plies), everywhere)
	return HelpResult{Solutions: h.solutions, Nodes: h.nodes}, err
}

// helpEnds is how each kind of help play ends.
var helpEnds = map[problem.Kind]seriesEnd{problem.Help: endBySeries, problem.HelpSelf: endSelf, problem.HelpReflex: endReflex, problem.HelpReciprocal: endReciprocal}

// helpFailSlots is the most slots of a help search's fail memo.
const helpFailSlots = 1 << 22

// newHelper starts a help search of plies plies with aim and end, making
// the shortcuts of cuts; nodes and dead, when not nil, are the node
// count and the fail memo shared with other threads.
func newHelper(ctx context.Context, lim Limits, plies int, aim problem.Aim, end seriesEnd, cuts prune.Set, nodes *atomic.Uint64, dead *failTable) *helper {
	if dead == nil {
		dead = newFailTable(helpFailSlots)
	}
	return &helper{ctx: ctx, lim: lim, dead: dead, last: newFailTable(1 << 16), lists: make([]board.MoveList, plies+1),
		stack: make([]board.Position, plies+1), tests: make([]prune.MoveTest, plies+1), shared: nodes, aim: aim, end: end, prune: prune.New(plies, aim, end.pruned(), cuts)}
}

// helpThreads solves a helpmate with its first moves shared out among
// lim.Threads threads, which share the fail memo (each has its own of the
// last ply, small enough to stay in its core's cache); the solutions are
// put together in the order of the first moves, as one thread finds them.
func helpThreads(ctx context.Context, pos board.Position, plies int, aim problem.Aim, end seriesEnd, lim Limits, cuts prune.Set) (HelpResult, error) {
	var l board.MoveList
	pos.LegalMoves(&l)
	moves := l.Slice()
	type part struct {
		sols  []Line
		nodes uint64
		err   error
	}
	parts := make([]part, len(moves))
	var next atomic.Int64
	var shared atomic.Uint64
	dead := newFailTable(helpFailSlots)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for t := 0; t < min(lim.Threads, len(moves)); t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := newHelper(ctx, lim, plies, aim, end, cuts, &shared, dead)
			for {
				i := int(next.Add(1)) - 1
				if i >= len(moves) {
					return
				}
				h.solutions, h.nodes = nil, 0
				child := pos
				child.Play(moves[i])
				_, err := h.solve(&child, plies-1, append(make([]board.Move, 0, plies), moves[i]), everywhere)
				parts[i] = part{h.solutions, h.nodes + 1, err}
				if errors.Is(err, ErrLimit) {
					cancel() // the others stop too
					return
				}
			}
		}()
	}
	wg.Wait()
	var res HelpResult
	var err error
	for _, p := range parts {
		res.Solutions = append(res.Solutions, p.sols...)
		res.Nodes += p.nodes
		if p.err != nil && err == nil {
			err = p.err
		}
	}
	if err == nil && next.Load() < int64(len(moves)) {
		err = ErrLimit // a thread stopped before every first move was taken
	}
	if max := lim.MaxSolutions; max > 0 && len(res.Solutions) >= max {
		res.Solutions, err = res.Solutions[:max], ErrMaxSolutions
	}
	return res, err
}

// helper is one helpmate search.
type helper struct {
	ctx       context.Context
	lim       Limits
	nodes     uint64
	solutions []Line
	dead      *failTable       // positions, with plies left, that have no solution
	last      *failTable       // the same for the last ply, small enough to stay in cache
	lists     []board.MoveList // a move list per plies left, reused
	stack     []board.Position // a child position per plies left, reused
	tests     []prune.MoveTest // the pruner's test of the moves, per plies left, reused
	shared    *atomic.Uint64   // with threads: the nodes of all of them
	aim       problem.Aim
	end       seriesEnd                           // endBySeries: the last ply reaches the aim (h#); endSelf (hs#), endReflex (hr#)
	prune     *prune.Pruner                       // the shortcuts, and where they are made
	keys      [len(board.MoveList{}.Moves)]uint64 // failTable.probe's
}

// everywhere is every square: no mating square ruled out yet.
const everywhere = prune.Everywhere

// solve appends the solutions from pos with plies left (line holds the
// moves that led there) and reports whether pos had any; the king can
// only be mated on the squares of within (those the budget test left
// alive at the position before). It reads: the ending, the fail memo,
// the pruner's test of pos, the moves, the pruner's test of each move,
// the children.
func (h *helper) solve(pos *board.Position, plies int, line []board.Move, within board.Bitboard) (bool, error) {
	h.nodes++
	if h.nodes&1023 == 0 {
		total := h.nodes
		if h.shared != nil {
			total = h.shared.Add(1024)
		}
		if h.ctx.Err() != nil || h.lim.Nodes > 0 && total >= h.lim.Nodes {
			return false, ErrLimit
		}
	}
	if h.end == endReciprocal {
		if plies == 2 {
			return h.reciprocalEnd(pos, line)
		}
	} else if h.end != endBySeries {
		if plies == 1 {
			return h.forcedEnd(pos, line)
		}
		if h.end == endReflex && canMate(pos) {
			// the side to move would have to mate: the side that starts
			// thus fails, the other side ends the play too soon
			return false, nil
		}
	}
	p := h.prune
	key := pos.Key()
	dead := h.dead
	if plies == 1 {
		dead = h.last
	}
	memo := p.Makes(prune.FailMemo, plies)
	if memo && dead.has(key, plies) {
		return false, nil
	}
	alive, movable := p.Position(pos, plies, within)
	if alive == 0 {
		if memo {
			dead.add(key, plies)
		}
		return false, nil
	}
	l := &h.lists[plies]
	if p.Makes(prune.ChecksOnly, plies) {
		pos.CheckingMoves(l) // only a check can mate
		if prune.Mutant == prune.ChecksOnly {
			prune.DropSpecial(l)
		}
	} else {
		pos.LegalMoves(l)
	}
	test := &h.tests[plies]
	h.nodes += uint64(p.Moves(test, pos, plies, alive, movable, l)) // each dropped child's test, made here
	var known [4]uint64                                             // the moves whose child is in the fail memo
	below := h.dead
	if plies == 2 {
		below = h.last
	}
	if p.Makes(prune.FailMemoAhead, plies) && p.Makes(prune.FailMemo, plies-1) {
		ahead := plies - 1
		if prune.Mutant == prune.FailMemoAhead {
			ahead = plies + 1 // (a child that failed with two plies more)
		}
		below.probe(pos, l, ahead, &known, &h.keys)
	}
	found := false
	child := &h.stack[plies-1]
	for i, m := range l.Slice() {
		if !p.Keeps(test, pos, m) {
			h.nodes++ // the child's test, made here: no solution after m
			continue
		}
		if known[i>>6]&(1<<(i&63)) != 0 {
			// The child is known to have no solution: its key is read
			// ahead without playing the move (the key of a special move
			// may be inexact, and then only misses the table).
			h.nodes++
			continue
		}
		*child = *pos
		child.Play(m)
		if plies == 1 {
			if reached(child, h.aim) {
				h.solutions = append(h.solutions, append(append(Line(nil), line...), m))
				found = true
				if len(h.solutions) == h.lim.MaxSolutions {
					return true, ErrMaxSolutions
				}
			}
			continue
		}
		ok, err := h.solve(child, plies-1, append(line, m), alive)
		if err != nil {
			return found, err
		}
		found = found || ok
	}
	p.Done(test)
	if !found && memo {
		dead.add(key, plies)
	}
	return found, nil
}

// reciprocalEnd ends a reciprocal helpmate at pos, two plies from the
// end: when the side to move can mate at once and can also be mated by a
// helpmate in one, every such helpmate and every such mate ends a
// solution (the helpmates first, as Popeye prints them).
func (h *helper) reciprocalEnd(pos *board.Position, line []board.Move) (bool, error) {
	mates := matesInOne(pos)
	if len(mates) == 0 {
		return false, nil
	}
	var helps []Line
	var l board.MoveList
	pos.LegalMoves(&l)
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		for _, r := range matesInOne(&child) {
			helps = append(helps, Line{m, r})
		}
	}
	if len(helps) == 0 {
		return false, nil
	}
	for _, end := range helps {
		if _, err := addEnds(&h.solutions, append(line, end[0]), end[1:], h.lim.MaxSolutions); err != nil {
			return true, err
		}
	}
	return addEnds(&h.solutions, line, mates, h.lim.MaxSolutions)
}

// forcedEnd ends a help-selfmate or help-reflexmate: the other side, to
// move at pos, must reach the aim (forcedEnds); each such move ends a
// solution.
func (h *helper) forcedEnd(pos *board.Position, line []board.Move) (bool, error) {
	return addEnds(&h.solutions, line, forcedEnds(pos, h.aim, h.end), h.lim.MaxSolutions)
}
