package serve

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/report"
	"mateline.dev/mateline/solver"
)

// SolvePool runs the searches of /solve: at most one per solver at once,
// and at most queue requests waiting for one; a request beyond them is
// answered 503 with Retry-After. Each search gets a fresh table, so its
// answer does not depend on the requests before it.
type SolvePool struct {
	solvers chan *solver.Solver
	waiting atomic.Int32
	queue   int32
	base    solver.Options
	// Timeout is a search's time when the request names none; MaxTimeout
	// caps what a request may ask.
	Timeout, MaxTimeout time.Duration
}

// NewSolvePool makes a pool of workers solvers sharing hashMiB MiB, with
// room for queue waiting requests; base holds the tables and the book.
func NewSolvePool(workers, queue, hashMiB int, base solver.Options, timeout, maxTimeout time.Duration) *SolvePool {
	workers = max(workers, 1)
	p := &SolvePool{solvers: make(chan *solver.Solver, workers), queue: int32(max(queue, 0)), base: base,
		Timeout: timeout, MaxTimeout: maxTimeout}
	for i := 0; i < workers; i++ {
		p.solvers <- solver.New(max(hashMiB/workers, 1))
	}
	return p
}

// retryAfter is what a full queue asks a client to wait, in seconds.
const retryAfter = 2

// get waits for a solver; ok is false when the queue is full or the
// client went away.
func (p *SolvePool) get(ctx context.Context) (sv *solver.Solver, full bool) {
	select {
	case sv := <-p.solvers:
		return sv, false
	default:
	}
	if p.waiting.Add(1) > p.queue {
		p.waiting.Add(-1)
		return nil, true
	}
	defer p.waiting.Add(-1)
	select {
	case sv := <-p.solvers:
		return sv, false
	case <-ctx.Done():
		return nil, false
	}
}

func (p *SolvePool) put(sv *solver.Solver) { p.solvers <- sv }

// handleSolve answers GET /solve?fen=...&mate=N&timeout=2s with what
// solve --json writes for the position: the proved mate or the bounds,
// the keys, the line.
func (s *Server) handleSolve(w http.ResponseWriter, r *http.Request) {
	p := s.cfg.Solve
	if p == nil {
		writeError(w, apiError{http.StatusNotFound, "this server proves no mates"})
		return
	}
	pos, err := position(r)
	if err != nil {
		writeError(w, err)
		return
	}
	q := r.URL.Query()
	opt := p.base
	opt.MaxMate, opt.Threads, opt.Fresh = solver.MaxMateMoves, 1, true
	if m := q.Get("mate"); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 || n > solver.MaxMateMoves {
			writeError(w, apiError{http.StatusBadRequest, fmt.Sprintf("mate %q: want a number of moves, 1 to %d", m, solver.MaxMateMoves)})
			return
		}
		opt.MaxMate = n
	}
	opt.Timeout = p.Timeout
	if t := q.Get("timeout"); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil {
			secs, err2 := strconv.ParseFloat(t, 64)
			if err2 != nil {
				writeError(w, apiError{http.StatusBadRequest, fmt.Sprintf("timeout %q: want a duration such as 2s or 500ms", t)})
				return
			}
			d = time.Duration(secs * float64(time.Second))
		}
		if d <= 0 {
			writeError(w, apiError{http.StatusBadRequest, fmt.Sprintf("timeout %q: want more than zero", t)})
			return
		}
		opt.Timeout = d
	}
	opt.Timeout = min(opt.Timeout, p.MaxTimeout)
	opt.ExtractReserve = solver.ReserveFor(opt.Timeout)
	sv, full := p.get(r.Context())
	if full {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
		writeError(w, apiError{http.StatusServiceUnavailable, "every search slot is taken and the queue is full: try again shortly"})
		return
	}
	if sv == nil {
		return // the client went away while waiting
	}
	defer p.put(sv)
	rec := record.FromPosition("solve", "fen:1", pos)
	o := puzzles.Solve(r.Context(), sv, &rec, opt, nil)
	if r.Context().Err() != nil {
		return // the client went away: the search was cancelled
	}
	var b bytes.Buffer
	report.JSON(&b, &o)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Write(b.Bytes())
}
