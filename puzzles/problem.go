package puzzles

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
	"mateline.dev/mateline/stipulation"
)

// SetPlay is the play of a problem if the side that does not start moved
// first: a helpmate's solutions (one ply shorter), or a selfmate's set
// defences with the attacker's answers.
type SetPlay struct {
	Stipulation string     `json:"stipulation,omitempty"` // helpmates: the set play's own ("h#1.5")
	Solutions   [][]string `json:"solutions,omitempty"`
	Tree        *Tree      `json:"tree,omitempty"`
}

// TryInfo is a selfmate's try: a first move that fails to few defences.
type TryInfo struct {
	UCI         string   `json:"uci"`
	Text        string   `json:"text"`
	Refutations []string `json:"refutations"`      // UCI
	RefText     []string `json:"refutations_text"` // as the report writes them
}

// ProblemOptions are the command line's settings for helpmates and
// selfmates.
type ProblemOptions struct {
	Timeout   time.Duration // 0: none
	Nodes     uint64        // 0: none
	Tree      bool          // the selfmate's solution tree
	TreeDepth int           // attacker moves shown with every defence (0: the default)
	SAN       bool          // moves in SAN, not Popeye's long notation
	Threads   int           // helpmates: threads sharing the first moves out (0, 1: one)
}

// Shorter is a solution of fewer moves than the stipulation asks.
type Shorter struct {
	Stipulation string     `json:"stipulation"`
	Solutions   [][]string `json:"solutions,omitempty"` // helpmates
	Keys        []string   `json:"keys,omitempty"`      // selfmates
}

// SolveProblem solves a helpmate or selfmate record: every solution (h#)
// or every key (s#), the shortest length that has one, and the selfmate's
// line and tree.
func SolveProblem(ctx context.Context, rec *record.Record, opt ProblemOptions) Answer {
	o := NewAnswer(rec, solver.Result{})
	if rec.Err != nil {
		return o
	}
	o.Status, o.Stipulation, o.Problem = "", rec.Stip.String(), rec.Problem
	if rec.Terminal != "" {
		o.Status, o.Note = StatusNoMate, rec.Terminal
		return o
	}
	if opt.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Timeout)
		defer cancel()
	}
	start := time.Now()
	lim := stipulation.Limits{Nodes: opt.Nodes, Threads: opt.Threads}
	if pr := rec.Problem; pr != nil {
		lim.MaxSolutions, lim.MaxFlights, lim.Threat = pr.MaxSolutions, pr.MaxFlights, pr.Threat
	}
	var err error
	if rec.Stip.HasSolutions() {
		err = solveHelp(ctx, rec, &o, lim, opt)
	} else {
		err = solveSelf(ctx, rec, &o, lim, opt)
	}
	o.MS = float64(time.Since(start).Microseconds()) / 1000
	switch {
	case errors.Is(err, stipulation.ErrMaxSolutions):
		o.Partial = true
		o.Note = fmt.Sprintf("stopped after %d solution(s) (MaxSolutions)", lim.MaxSolutions)
	case err != nil:
		o.Status, o.Partial = StatusLimit, true
		o.Interrupted = ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded)
	case o.Status == "":
		o.Status = StatusCapped // none of the stipulated length
	}
	return o
}

// ValidateProblem checks a helpmate or selfmate record: ok when it has
// exactly one solution (h#) or key (s#), the author's when given, and
// none shorter; cooked with more; shorter when fewer moves suffice;
// no-solution when it has none.
func ValidateProblem(ctx context.Context, rec *record.Record, opt ProblemOptions) Answer {
	o := SolveProblem(ctx, rec, opt)
	if rec.Err != nil {
		o.Verdict = ErrorVerdict(rec)
		return o
	}
	o.Expected = &Expected{Keys: uciMoves(rec.Claim.Keys)}
	if len(rec.Claim.Line) > 0 {
		o.Expected.Line = uciMoves(rec.Claim.Line)
	}
	o.Verdict = problemVerdict(rec, &o)
	return o
}

// problemVerdict judges a solved problem against its stipulation and the
// author's solution.
func problemVerdict(rec *record.Record, o *Answer) Verdict {
	switch {
	case o.Status == StatusLimit:
		return VerdictTimeout
	case o.Shorter != nil:
		return VerdictShorter
	case o.Status == StatusCapped, o.Status == StatusNoMate:
		return VerdictNoSolution
	}
	firsts := o.Keys // selfmates: the keys
	if rec.Stip.HasSolutions() {
		firsts = nil
		for _, s := range o.Solutions {
			firsts = append(firsts, s[0])
		}
	}
	for _, k := range uciMoves(rec.Claim.Keys) {
		if !slices.Contains(firsts, k) {
			return VerdictWrongKey
		}
	}
	if line := uciMoves(rec.Claim.Line); len(line) > 0 && rec.Stip.HasSolutions() {
		if !slices.ContainsFunc(o.Solutions, func(s []string) bool { return slices.Equal(s, line) }) {
			return VerdictWrongKey
		}
	}
	n := len(o.Keys)
	if rec.Stip.HasSolutions() {
		n = o.Count()
	}
	if n > 1 {
		return VerdictCooked
	}
	return VerdictOK
}
