package uci

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/solver"
)

// defaultMaxMate is how far a "go" without mate or depth looks: any
// length the search supports; it runs until its limit, or until stop.
const defaultMaxMate = solver.MaxMateMoves

// moveOverhead is kept back from every time budget for the answer to
// reach the GUI.
const moveOverhead = 30 * time.Millisecond

// search is a running "go".
type search struct {
	cancel context.CancelFunc
	done   chan struct{} // closed after bestmove is written
	// release is closed when bestmove may be written once the proof is
	// over: at once for a timed search; on stop for infinite; on stop or
	// ponderhit when pondering.
	release     chan struct{}
	releaseOnce sync.Once
	mu          sync.Mutex
	pondering   bool
	budget      time.Duration // the time to use after ponderhit (0: none)
}

func (s *search) letGo() { s.releaseOnce.Do(func() { close(s.release) }) }

// ponderHit turns a ponder search into a timed one.
func (s *search) ponderHit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.pondering {
		return
	}
	s.pondering = false
	if s.budget > 0 {
		time.AfterFunc(s.budget, s.cancel)
	}
	s.letGo()
}

// stopSearch stops the running search, if any, and waits for its bestmove.
func (e *Engine) stopSearch() {
	s := e.search
	if s == nil {
		return
	}
	s.cancel()
	s.letGo()
	<-s.done
	e.search = nil
}

// startSearch starts a search for "go".
func (e *Engine) startSearch(p goParams) {
	for _, msg := range p.problems {
		e.info("go: %s", msg)
	}
	if !e.posSet {
		e.info("go before position: searching the start position")
		e.pos, e.posSet = board.StartPosition(), true
	}
	pos := e.pos
	if p.badLimit {
		// Searching without the limit the GUI meant could run for ever:
		// answer at once, from the book or the one-move look.
		e.info("go refused: a limit could not be read; playing without a search")
		e.out.printf("bestmove %s", solver.PlayableMove(&pos, e.bookMoves(&pos), nil).UCI())
		return
	}
	opt := solver.Options{
		MaxMate: defaultMaxMate,
		Threads: e.set.threads,
		Prober:  e.prober,
		Book:    e.book,
		Nodes:   p.nodes,
		Lines:   e.set.multiPV,
	}
	if !e.set.proveShortest {
		opt.FirstMate = true
	}
	opt.DTM, opt.SearchDTM = e.openDTM()
	switch {
	case p.mate > 0:
		opt.MaxMate = p.mate
	case p.depth > 0:
		opt.MaxMate = p.depth
	}
	for _, text := range p.searchMoves {
		m, err := pos.ParseUCI(text)
		if err != nil {
			e.info("searchmoves: %v; left out", err)
			continue
		}
		opt.RootMoves = append(opt.RootMoves, m)
	}
	budget := timeBudget(p, pos.Side())
	ctx, cancel := context.WithCancel(context.Background())
	s := &search{cancel: cancel, done: make(chan struct{}), release: make(chan struct{}),
		pondering: p.ponder, budget: budget}
	switch {
	case p.ponder:
		// No limit until ponderhit; the budget starts then.
	case p.infinite:
		opt.Nodes = 0
	default:
		opt.Timeout = budget
		opt.ExtractReserve = min(solver.ReserveFor(budget), 500*time.Millisecond)
		s.letGo()
	}
	e.search = s
	sv := e.ensureSolver()
	go e.run(ctx, s, sv, pos, opt)
}

// timeBudget returns the time to spend: movetime, or a share of the clock
// (a fortieth of what is left, or of what is left until the time control,
// plus most of the increment, never more than a third of the clock), or 0
// for no limit.
func timeBudget(p goParams, side board.Color) time.Duration {
	if p.moveTime > 0 {
		return max(p.moveTime-moveOverhead, time.Millisecond)
	}
	if !p.clockGiven {
		return 0
	}
	left, inc := p.wtime, p.winc
	if side == board.Black {
		left, inc = p.btime, p.binc
	}
	moves := 40
	if p.movesToGo > 0 {
		moves = min(p.movesToGo, 40)
	}
	b := left/time.Duration(moves) + inc*3/4
	b = min(b, left/3)
	return max(b-moveOverhead, 5*time.Millisecond)
}

// run solves pos, reports, and writes bestmove once the search is released.
func (e *Engine) run(ctx context.Context, s *search, sv *solver.Solver, pos board.Position, opt solver.Options) {
	defer close(s.done)
	defer s.cancel()
	start := time.Now()
	var l board.MoveList
	pos.LegalMoves(&l)
	if l.N == 0 {
		if pos.InCheck() {
			e.info("the side to move is checkmated: no move")
		} else {
			e.info("the side to move is stalemated: no move")
		}
		<-s.release
		e.out.printf("bestmove 0000")
		return
	}
	opt.Progress = func(p solver.Progress) {
		if p.NewBound && len(p.Line) > 0 {
			// A forced mate proved, with its whole line: report it at once.
			mate := problem.MateInPlies(len(p.Line))
			e.out.printf("info depth %d seldepth %d multipv 1 score mate %d nodes %d nps %d hashfull %d tbhits %d time %d pv %s",
				mate.Moves(), max(p.SelDepth, len(p.Line)), mate, p.Nodes, nps(p.Nodes, p.Elapsed), p.Hashfull, p.TBHits, p.Elapsed.Milliseconds(), uciLine(p.Line))
			if !p.Shortest {
				e.info("%s", withinWords(mate, p.Depth))
			}
			return
		}
		e.out.printf("info depth %d seldepth %d nodes %d nps %d time %d hashfull %d tbhits %d",
			p.Depth, p.SelDepth, p.Nodes, nps(p.Nodes, p.Elapsed), p.Elapsed.Milliseconds(), p.Hashfull, p.TBHits)
	}
	res := sv.Solve(ctx, pos, opt)
	e.report(pos, res, opt, time.Since(start))
	<-s.release
	e.out.printf("bestmove %s", bestMove(pos, res, opt).UCI())
}

// report writes, at the end of a search, what was proved in plain words,
// then the final info lines (one per proved key with MultiPV), last so
// that clients that keep the last info line keep the score. A score comes
// only with its whole line: the plies of the mate, ending in checkmate.
func (e *Engine) report(pos board.Position, res solver.Result, opt solver.Options, elapsed time.Duration) {
	e.info("%s", describe(res, opt))
	common := fmt.Sprintf("nodes %d nps %d hashfull %d tbhits %d time %d",
		res.Nodes, nps(res.Nodes, elapsed), res.Hashfull, res.TBHits, elapsed.Milliseconds())
	printed := 0
	for _, line := range res.Lines {
		mate := problem.MateInPlies(len(line))
		if len(line) == 0 || !endsInMate(pos, line) {
			continue // a line the limit cut short gets no score
		}
		printed++
		e.out.printf("info depth %d seldepth %d multipv %d score mate %d %s pv %s",
			mate.Moves(), max(res.SelDepth, len(line)), printed, mate, common, uciLine(line))
	}
	if printed == 0 {
		e.out.printf("info depth %d seldepth %d %s", res.Depth, res.SelDepth, common)
	}
}

// endsInMate reports whether line, played from pos, is legal and ends in
// checkmate.
func endsInMate(pos board.Position, line []board.Move) bool {
	for _, m := range line {
		var l board.MoveList
		pos.LegalMoves(&l)
		if !l.Contains(m) {
			return false
		}
		pos.Play(m)
	}
	return pos.IsCheckmate()
}

// shortestWords and withinWords say what a live score line proved.
func shortestWords(m problem.Mate) string {
	if m > 0 {
		return m.Describe() + " proved shortest"
	}
	return m.Describe() + " proved: no defence holds out longer"
}

func withinWords(m problem.Mate, depth int) string {
	what := fmt.Sprintf("forced mate in %d proved", m.Moves())
	if m < 0 {
		what = fmt.Sprintf("mated in %d at most, proved", m.Moves())
	}
	if depth == 0 {
		return what + "; shorter mates not yet ruled out"
	}
	return fmt.Sprintf("%s; no mate in %d or fewer; shortest not yet proved", what, depth)
}

// describe says in plain words what a search proved.
func describe(res solver.Result, opt solver.Options) string {
	switch res.Status {
	case solver.StatusMate:
		return shortestWords(res.Mate)
	case solver.StatusNoMate:
		return "no mate for either side at any length: neither has the material, or the tables say so"
	case solver.StatusCapped:
		return fmt.Sprintf("%s (proved); longer mates not looked for (go mate/depth %d)", problem.NoMateIn(res.Depth), res.Depth)
	}
	if res.MateWithin != 0 {
		w := withinWords(res.MateWithin, res.Depth)
		if opt.FirstMate {
			return w + " (ProveShortest is off)"
		}
		return w + "; the search stopped before proving it shortest"
	}
	if res.Depth > 0 {
		return fmt.Sprintf("no mate in %d proved; the search stopped before deciding longer mates", res.Depth)
	}
	return "the search stopped before anything was proved"
}

// bookMoves are the book's moves of pos, most weighted first.
func (e *Engine) bookMoves(pos *board.Position) []board.Move {
	if e.book == nil {
		return nil
	}
	return e.book.BookMoves(pos)
}

// bestMove is the move to play: a key of a proved mate (or the longest
// defence), else the book's most weighted move, else a sensible move.
func bestMove(pos board.Position, res solver.Result, opt solver.Options) board.Move {
	if len(res.Keys) > 0 {
		return res.Keys[0]
	}
	return solver.PlayableMove(&pos, res.Book, opt.RootMoves)
}

func uciLine(line []board.Move) string {
	var b strings.Builder
	for i, m := range line {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m.UCI())
	}
	return b.String()
}

func nps(nodes uint64, d time.Duration) uint64 {
	if d <= 0 {
		return 0
	}
	return uint64(float64(nodes) / d.Seconds())
}
