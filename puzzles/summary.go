package puzzles

import (
	"fmt"
	"io"
	"sort"
	"time"
)

// Summary counts outcomes by status and verdict.
type Summary struct {
	Positions int
	Status    map[string]int
	Verdict   map[string]int
	Nodes     uint64
	Elapsed   time.Duration // wall time of the run, from the program's start
	Validate  bool
}

// NewSummary returns an empty summary.
func NewSummary(validate bool) *Summary {
	return &Summary{Status: map[string]int{}, Verdict: map[string]int{}, Validate: validate}
}

// Add counts one outcome.
func (s *Summary) Add(o *Outcome) {
	s.Positions++
	s.Status[o.Status]++
	if o.Verdict != "" {
		s.Verdict[o.Verdict]++
	}
	s.Nodes += o.Nodes
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
		return s.Verdict[VerdictOK]+s.Verdict[VerdictSkipped] != s.Positions
	}
	return s.Status[StatusError] > 0
}

// Write prints the summary table.
func (s *Summary) Write(w io.Writer) {
	fmt.Fprintf(w, "\nsummary\n")
	if s.Validate {
		for _, v := range Verdicts {
			if n := s.Verdict[v]; n > 0 || v == VerdictOK {
				fmt.Fprintf(w, "  %-12s %8d\n", v, n)
			}
		}
	} else {
		keys := make([]string, 0, len(s.Status))
		for k := range s.Status {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "  %-12s %8d\n", k, s.Status[k])
		}
	}
	secs := s.Elapsed.Seconds()
	rate := 0.0
	if secs > 0 {
		rate = float64(s.Positions) / secs
	}
	fmt.Fprintf(w, "  %-12s %8d\n  %-12s %10s\n  %-12s %8.1f positions/s\n  %-12s %8d\n",
		"positions", s.Positions, "time", FormatDuration(s.Elapsed), "rate", rate, "nodes", s.Nodes)
}
