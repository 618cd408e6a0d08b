// Package dtmline reads a distance-to-mate prober move by move: the
// value each move keeps for the side that plays it, the order of moves by
// that value, and the DTM-optimal line. It needs only the prober's
// interface, so the solver uses it without importing the tables.
package dtmline

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// DTM gives exact distances to mate (package dtm's Prober). ProbeDTM
// returns the mate in signed moves from the side to move (+N it mates in
// N, -N it is mated in N, 0 neither side can force mate); ok is false when
// the tables do not answer (more men than they hold, castling rights, a
// table that cannot be had, a position already checkmated). It must be
// safe for concurrent use.
type DTM interface {
	ProbeDTM(pos *board.Position) (mate int, ok bool)
}

// maxLinePlies bounds a DTM line: longer than any mate a table of up to
// six men holds.
const maxLinePlies = 1200

// MoveValue is the value, for the side that played it, of the move that
// led to child: the mate there seen one move earlier (Mate(1) when child
// is checkmate, 0 when neither side can force mate). ok is false when the
// tables do not answer child.
func MoveValue(t DTM, child *board.Position) (problem.Mate, bool) {
	if child.IsCheckmate() {
		return 1, true
	}
	if child.IsStalemate() {
		return 0, true
	}
	m, ok := t.ProbeDTM(child)
	if !ok {
		return 0, false
	}
	mate := problem.Mate(m)
	switch {
	case mate > 0:
		return -mate, true // the mover is mated in the same number of moves
	case mate < 0:
		return -mate + 1, true // the mover mates one move later
	}
	return 0, true
}

// Better reports whether a move worth m is better than one worth o for
// the side that chooses: a quicker mate, then no mate, then the longest
// defence.
func Better(m, o problem.Mate) bool { return rank(m) > rank(o) }

// rank orders move values for the side that chooses, best highest.
func rank(m problem.Mate) int {
	switch {
	case m > 0:
		return 1000 - int(m)
	case m < 0:
		return -1000 - int(m)
	}
	return 0
}

// Move is a legal move with the mate it keeps for the side that plays
// it (Mate(0): no forced mate after it).
type Move struct {
	Move board.Move
	Mate problem.Mate
}

// Moves returns every legal move of pos with its value from the DTM
// tables, best first (then in UCI order). ok is false when the tables do
// not answer for some move.
func Moves(t DTM, pos board.Position) ([]Move, bool) {
	moves := legalByUCI(&pos)
	out := make([]Move, 0, len(moves))
	for _, m := range moves {
		child := pos
		child.Play(m)
		v, ok := MoveValue(t, &child)
		if !ok {
			return nil, false
		}
		out = append(out, Move{m, v})
	}
	slices.SortStableFunc(out, func(a, b Move) int { return rank(b.Mate) - rank(a.Mate) })
	return out, true
}

// Line is the DTM-optimal line from pos: the winner mates soonest, the
// loser holds out longest, ties to the first move in UCI order. It is
// empty when neither side can force mate; ok is false when the tables do
// not answer.
func Line(t DTM, pos board.Position) ([]board.Move, bool) {
	moves, ok := Moves(t, pos)
	if !ok || len(moves) == 0 || moves[0].Mate == 0 {
		return nil, ok
	}
	return LineFrom(t, pos, moves[0].Move)
}

// LineFrom plays first, then at each ply the best move by the tables
// (ties to the first in UCI order), until mate. ok is false when the
// tables stop answering, or the line does not end in mate.
func LineFrom(t DTM, pos board.Position, first board.Move) ([]board.Move, bool) {
	line := []board.Move{first}
	pos.Play(first)
	// after the first ply the value the side to move keeps is known: the
	// scan stops at the first move (in UCI order) that keeps it, the move
	// a whole scan would pick, as no move is better than the position's
	// value; a move into a side that the file does not store is tested
	// against it with a bound (firstKeeping)
	var expect problem.Mate
	for len(line) < maxLinePlies {
		if pos.IsCheckmate() {
			return line, true
		}
		moves := legalByUCI(&pos)
		pick, best, ok := firstKeeping(t, pos, moves, expect)
		if !ok {
			pick, best, ok = bestMove(t, pos, moves, expect)
			if !ok {
				return line, false
			}
		}
		if best == 0 || pick == board.NoMove {
			return line, false
		}
		line = append(line, pick)
		pos.Play(pick)
		expect = nextExpected(best)
	}
	return line, false
}

// bestMove returns the first of moves (in their order) with the best
// value, stopping at the first that keeps expect (when not 0); ok is
// false when the tables do not answer a move.
func bestMove(t DTM, pos board.Position, moves []board.Move, expect problem.Mate) (board.Move, problem.Mate, bool) {
	var pick board.Move
	var best problem.Mate
	for i, m := range moves {
		child := pos
		child.Play(m)
		v, ok := MoveValue(t, &child)
		if !ok {
			return board.NoMove, 0, false
		}
		if i == 0 || Better(v, best) {
			pick, best = m, v
		}
		if expect != 0 && v == expect {
			break
		}
	}
	return pick, best, true
}

// Stored is implemented by a DTM whose files hold one side to move of a
// table and answer the other side by a scan of its moves (format 3 and
// 5): StoredDTM returns the view that answers only the positions held.
type Stored interface {
	StoredDTM() DTM
}

// firstKeeping returns the first of moves that keeps expect, testing a
// move into a position the files do not hold with a bound: the scan of
// that position's moves stops at the first reply better than the value
// that would keep expect for pos's side (KRNvKNN's line of 523 plies,
// Black stored: 2.85 s with whole scans, 1.9 s so, 1.6 s on two cores).
// The moves are tested by as many
// goroutines as there are processors, each taking the next move, until
// one keeps expect: the moves before it are then all tested. ok is false
// when t is not Stored, expect is 0, a probe is not answered, or no move
// keeps expect (then bestMove decides).
func firstKeeping(t DTM, pos board.Position, moves []board.Move, expect problem.Mate) (board.Move, problem.Mate, bool) {
	st, isStored := t.(Stored)
	if !isStored || expect == 0 {
		return board.NoMove, 0, false
	}
	direct := st.StoredDTM()
	verdicts := make([]keepVerdict, len(moves))
	var next atomic.Int64
	var stop atomic.Bool
	var first atomic.Int64 // the first move known to keep expect
	first.Store(int64(len(moves)))
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(moves)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				i := next.Add(1) - 1
				if i >= first.Load() {
					return
				}
				child := pos
				child.Play(moves[i])
				later := func() bool { return first.Load() < i }
				keeps, known := keepsValue(t, direct, &child, expect, later)
				switch {
				case later():
					return
				case !known:
					verdicts[i] = unanswered
					stop.Store(true)
				case keeps:
					verdicts[i] = keepsExpect
					for f := first.Load(); i < f && !first.CompareAndSwap(f, i); f = first.Load() {
					}
				default:
					verdicts[i] = keepsNot
				}
			}
		}()
	}
	wg.Wait()
	for i, v := range verdicts {
		if v == keepsExpect {
			return moves[i], expect, true
		}
		if v != keepsNot {
			break
		}
	}
	return board.NoMove, 0, false
}

// keepVerdict is what firstKeeping learnt of one move.
type keepVerdict uint8

const (
	untested    keepVerdict = iota // a move before it keeps expect
	keepsExpect                    // the move keeps the value expected
	keepsNot                       // it does not
	unanswered                     // a probe was not answered
)

// keepsValue reports whether the move into child is worth expect to the
// side that played it: from the files when they hold child, else from
// child's moves, stopping at the first that does better for child's side
// than the value keeping expect. known is false when a probe is not
// answered, or when abandon says the answer is no longer needed.
func keepsValue(t, direct DTM, child *board.Position, expect problem.Mate, abandon func() bool) (keeps, known bool) {
	if v, ok := MoveValue(direct, child); ok {
		return v == expect, true
	}
	// child's own value that makes the move worth expect (MoveValue's
	// inverse): mating in -expect, or mated in expect-1 (checkmated now,
	// which MoveValue has answered, when expect is 1)
	want := -expect
	if expect > 0 {
		want = -(expect - 1)
		if want == 0 {
			return false, true
		}
	}
	var best problem.Mate
	var l board.MoveList
	child.LegalMoves(&l)
	for i, m := range l.Slice() {
		grandchild := *child
		grandchild.Play(m)
		w, ok := MoveValue(t, &grandchild)
		if !ok || abandon() {
			return false, false
		}
		if Better(w, want) {
			return false, true
		}
		if i == 0 || Better(w, best) {
			best = w
		}
	}
	return l.N > 0 && best == want, true
}

// nextExpected is the value of the best move of the side to move after
// a move worth best to the side that played it: mated one move sooner
// after a mating move, mating in as many after a losing one.
func nextExpected(best problem.Mate) problem.Mate {
	if best > 0 {
		return -(best - 1)
	}
	return -best
}

// legalByUCI lists pos's legal moves in UCI order.
func legalByUCI(pos *board.Position) []board.Move {
	var l board.MoveList
	pos.LegalMoves(&l)
	moves := slices.Clone(l.Slice())
	slices.SortFunc(moves, func(a, b board.Move) int {
		x, y := a.UCI(), b.UCI()
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	return moves
}
