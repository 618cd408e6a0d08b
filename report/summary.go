package report

import (
	"fmt"
	"io"
	"slices"
	"time"

	"mateline.dev/mateline/puzzles"
)

// Summary counts outcomes by status and verdict.
type Summary struct {
	Positions int
	Status    map[puzzles.Status]int
	Verdict   map[puzzles.Verdict]int
	Nodes     uint64
	Elapsed   time.Duration // wall time of the run, from the program's start
	Validate  bool
}

// NewSummary returns an empty summary.
func NewSummary(validate bool) *Summary {
	return &Summary{Status: map[puzzles.Status]int{}, Verdict: map[puzzles.Verdict]int{}, Validate: validate}
}

// Add counts one outcome.
func (s *Summary) Add(o *puzzles.Outcome) {
	s.Count(o.Status, o.Verdict)
	s.Nodes += o.Nodes
}

// Count counts one record of this status and verdict (empty for none),
// such as a record a resumed run finds done.
func (s *Summary) Count(status puzzles.Status, verdict puzzles.Verdict) {
	s.Positions++
	s.Status[status]++
	if verdict != "" {
		s.Verdict[verdict]++
	}
}

// AddAll counts another summary's outcomes (the records a resumed run
// found done).
func (s *Summary) AddAll(o *Summary) {
	s.Positions += o.Positions
	for k, n := range o.Status {
		s.Status[k] += n
	}
	for k, n := range o.Verdict {
		s.Verdict[k] += n
	}
	s.Nodes += o.Nodes
}

// Failed reports whether any outcome was not ok: a verdict other than ok
// or skipped, or a record that could not be read.
func (s *Summary) Failed() bool {
	if s.Validate {
		return s.Verdict[puzzles.VerdictOK]+s.Verdict[puzzles.VerdictSkipped] != s.Positions
	}
	return s.Status[puzzles.StatusError] > 0
}

// Write prints the summary table.
func (s *Summary) Write(w io.Writer) {
	fmt.Fprintf(w, "\nsummary\n")
	if s.Validate {
		for _, v := range puzzles.Verdicts {
			if n := s.Verdict[v]; n > 0 || v == puzzles.VerdictOK {
				fmt.Fprintf(w, "  %-12s %8d\n", v, n)
			}
		}
	} else {
		for _, k := range puzzles.Statuses {
			if n := s.Status[k]; n > 0 {
				fmt.Fprintf(w, "  %-12s %8d   %s\n", k, n, statusWords[k])
			}
		}
		for k, n := range s.Status {
			if !slices.Contains(puzzles.Statuses, k) {
				fmt.Fprintf(w, "  %-12s %8d\n", k, n)
			}
		}
	}
	fmt.Fprintf(w, "  %-12s %8d\n  %-12s %10s\n  %-12s %8.1f positions/s\n  %-12s %8d\n",
		"positions", s.Positions, "time", Duration(s.Elapsed), "rate", s.Rate(), "nodes", s.Nodes)
}

// statusWords say in the summary what each status means.
var statusWords = map[puzzles.Status]string{
	puzzles.StatusMate:    "mate proved shortest",
	puzzles.StatusLimit:   "a limit came first (a forced mate may be proved: mate_within)",
	puzzles.StatusCapped:  "no mate within the longest length asked for; longer not looked for",
	puzzles.StatusNoMate:  "no mate at any length (no legal move, no material, or the tables)",
	puzzles.StatusError:   "could not be read",
	puzzles.StatusSkipped: "nothing to check",
}

// Rate is the positions per second of the run.
func (s *Summary) Rate() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Positions) / s.Elapsed.Seconds()
}
