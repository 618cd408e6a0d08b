package batch

import (
	"fmt"
	"sync"

	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/report"
	"mateline.dev/mateline/solver"
)

// boundsMu keeps the bound lines of concurrent workers whole.
var boundsMu sync.Mutex

// boundsReporter returns the solver's progress callback for rec that
// writes a line to j.Bounds each time a new bound is proved, or nil when
// j.Bounds is nil.
func (j *Job) boundsReporter(rec *record.Record) func(solver.Progress) {
	if j.Bounds == nil {
		return nil
	}
	var last solver.Progress
	return func(p solver.Progress) {
		if p.MateWithin == last.MateWithin && p.Shortest == last.Shortest && p.Depth == last.Depth {
			return // a timed report: nothing new proved
		}
		last = p
		var what string
		switch {
		case p.Shortest:
			what = p.MateWithin.Describe() + " proved shortest"
		case p.MateWithin != 0:
			what = report.WithinWords(p.MateWithin, p.Depth)
		default:
			what = problem.NoMateIn(p.Depth) + " (proved so far)"
		}
		if len(p.Line) > 0 {
			what += "; line " + rec.Pos.SANLine(p.Line)
		}
		boundsMu.Lock()
		defer boundsMu.Unlock()
		if c, ok := j.Progress.(interface{ Clear() error }); ok {
			c.Clear() // the bar is drawn again at its next step
		}
		fmt.Fprintf(j.Bounds, "%s: %s (%s, %d nodes)\n", rec.ID, what, report.Duration(p.Elapsed), p.Nodes)
	}
}
