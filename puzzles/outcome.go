package puzzles

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/solver"
)

// Outcome is what became of one record: the JSON Lines record of
// DESIGN.md, plus what the text writers need.
type Outcome struct {
	ID     string      `json:"id"`
	Line   int         `json:"line"`
	FEN    string      `json:"fen"`
	Status string      `json:"status"`
	Mate   solver.Mate `json:"mate,omitempty"`
	// MateWithin is a forced mate proved before a limit stopped the proof
	// that none is shorter: at most this many moves (signed like Mate).
	MateWithin solver.Mate `json:"mate_within,omitempty"`
	Keys       []string    `json:"keys,omitempty"`
	PV         []string    `json:"pv,omitempty"`
	PVSAN      []string    `json:"pv_san,omitempty"`
	Depth      int         `json:"depth"`
	Partial    bool        `json:"partial,omitempty"` // a limit cut keys or line short after the proof
	Nodes      uint64      `json:"nodes"`
	MS         float64     `json:"ms"`
	TBHits     uint64      `json:"tb_hits"`
	Book       []string    `json:"book,omitempty"`
	Verdict    string      `json:"verdict,omitempty"`
	Expected   *Expected   `json:"expected,omitempty"`
	Error      string      `json:"error,omitempty"`
	// Note says why a record was not searched: a stalemate, a side
	// already checkmated, or (validate) why it was skipped.
	Note string `json:"note,omitempty"`
	// Warnings name problems of the input line that did not stop the
	// search, such as a malformed annotation.
	Warnings []string `json:"warnings,omitempty"`
	// Proof, with --proof or --proof-dir, is the certificate written.
	Proof *ProofInfo `json:"proof,omitempty"`
	// Tree, with --tree, is the solution tree.
	Tree *Tree `json:"tree,omitempty"`

	Source   string   `json:"-"`
	KeysSAN  []string `json:"-"`
	LineSAN  string   `json:"-"` // numbered SAN main line
	TTProbes uint64   `json:"-"`
	TTHits   uint64   `json:"-"`
	Record   *Record  `json:"-"`
	// Interrupted marks a search stopped by cancellation: not a result.
	Interrupted bool `json:"-"`
	// Rendered is the outcome already formatted by the run's writer (a
	// worker calls Writer.Render); nil means "render when writing".
	Rendered []byte `json:"-"`
}

// Expected is the claim that validate checked.
type Expected struct {
	Mate solver.Mate `json:"mate,omitempty"`
	Keys []string    `json:"keys,omitempty"`
}

// StatusError is the status of a record that could not be searched.
const StatusError = "error"

// NewOutcome describes the solver's result for rec.
func NewOutcome(rec *Record, res solver.Result) Outcome {
	o := Outcome{ID: rec.ID, Line: rec.Line, FEN: rec.FEN, Source: rec.Source, Record: rec, Warnings: rec.Warnings}
	if rec.Err != nil {
		o.Status, o.Error = StatusError, rec.Err.Error()
		return o
	}
	o.Status = res.Status.String()
	o.Mate = res.Mate
	if res.Status == solver.StatusLimit {
		o.MateWithin = res.MateWithin
	}
	o.Depth = res.Depth
	o.Partial = res.Partial
	o.Nodes, o.TBHits = res.Nodes, res.TBHits
	o.MS = float64(res.Elapsed.Microseconds()) / 1000
	o.TTProbes, o.TTHits = res.TTProbe, res.TTHits
	for _, m := range res.Keys {
		o.Keys = append(o.Keys, m.UCI())
		o.KeysSAN = append(o.KeysSAN, rec.Pos.SAN(m))
	}
	for _, m := range res.Book {
		o.Book = append(o.Book, m.UCI())
	}
	pos := rec.Pos
	for _, m := range res.PV {
		o.PV = append(o.PV, m.UCI())
		o.PVSAN = append(o.PVSAN, pos.SAN(m))
		pos.Play(m)
	}
	o.LineSAN = rec.Pos.SANLine(res.PV)
	return o
}

// WriteJSON writes o as one JSON line.
func (o *Outcome) WriteJSON(w io.Writer) error {
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteText writes o as a few readable lines.
func (o *Outcome) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d", o.Source, o.Line)
	if o.ID != fmt.Sprintf("line:%d", o.Line) {
		fmt.Fprintf(&b, " %s", o.ID)
	}
	if o.FEN != "" {
		fmt.Fprintf(&b, "  %s", o.FEN)
	}
	b.WriteByte('\n')
	for _, w := range o.Warnings {
		fmt.Fprintf(&b, "  warning: %s\n", w)
	}
	if o.Note != "" {
		fmt.Fprintf(&b, "  %s\n", o.Note)
	}
	o.writeFinding(&b)
	if len(o.Book) > 0 {
		fmt.Fprintf(&b, "  book: %s\n", strings.Join(o.Book, " "))
	}
	if p := o.Proof; p != nil {
		fmt.Fprintf(&b, "  proof: %s (%d nodes; lower bound %s", p.File, p.Nodes, p.LowerBound)
		if p.Reason != "" {
			fmt.Fprintf(&b, ": %s", p.Reason)
		}
		b.WriteString(")\n")
	}
	if o.Verdict != "" {
		fmt.Fprintf(&b, "  verdict: %s", o.Verdict)
		if o.Expected != nil && o.Verdict != VerdictSkipped {
			fmt.Fprintf(&b, " (claim checked: %s)", describeClaim(o.Expected, o.Record))
		}
		if o.Error != "" && o.Status != StatusError {
			fmt.Fprintf(&b, ": %s", o.Error)
		}
		b.WriteByte('\n')
	}
	if o.Tree != nil {
		o.Tree.WriteText(&b)
	}
	if o.Status != StatusError {
		fmt.Fprintf(&b, "  %s\n", o.statsLine())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeFinding writes what the search proved, in a line or three.
func (o *Outcome) writeFinding(w io.Writer) {
	b := &strings.Builder{}
	defer func() { io.WriteString(w, b.String()) }()
	switch o.Status {
	case StatusError:
		fmt.Fprintf(b, "  error: %s\n", o.Error)
	case "mate":
		if o.Mate > 0 {
			fmt.Fprintf(b, "  mate in %d (proved shortest)\n", o.Mate)
		} else {
			fmt.Fprintf(b, "  mated in %d (proved: no longer defence)\n", -o.Mate)
		}
		label := "key"
		if o.Mate < 0 {
			label = "best defence"
		}
		if len(o.KeysSAN) > 1 {
			label += "s"
		}
		switch {
		case len(o.KeysSAN) == 0:
			fmt.Fprintf(b, "  %s: not extracted: the limit came first (the mate length stands)\n", label)
		case o.Partial && len(o.PV) == 0:
			fmt.Fprintf(b, "  %s: %s (the list may be incomplete: the limit came first)\n", label, strings.Join(o.KeysSAN, " "))
			fmt.Fprintf(b, "  line: not extracted: the limit came first\n")
		default:
			fmt.Fprintf(b, "  %s: %s\n", label, strings.Join(o.KeysSAN, " "))
			fmt.Fprintf(b, "  line: %s\n", o.LineSAN)
		}
	case "no-mate":
		if o.Note == "" {
			fmt.Fprintf(b, "  no mate in %d moves or fewer (proved)\n", o.Depth)
		}
	case "limit":
		if o.MateWithin != 0 {
			what := "mate"
			if o.MateWithin < 0 {
				what = "mated"
			}
			fmt.Fprintf(b, "  limit reached: a forced %s in %d moves or fewer is proved; no shorter one is ruled out beyond %d moves\n",
				what, o.MateWithin.Moves(), o.Depth)
		} else if o.Depth > 0 {
			fmt.Fprintf(b, "  limit reached: proved that no mate exists in %d moves or fewer; mates longer than that were not decided\n", o.Depth)
		} else {
			fmt.Fprintf(b, "  limit reached before anything was proved\n")
		}
	}
}

func (o *Outcome) statsLine() string {
	hit := 0.0
	if o.TTProbes > 0 {
		hit = 100 * float64(o.TTHits) / float64(o.TTProbes)
	}
	d := time.Duration(o.MS * float64(time.Millisecond))
	s := fmt.Sprintf("nodes %d, %s", o.Nodes, FormatDuration(d))
	if d >= time.Millisecond {
		// Below a millisecond a rate says more about the clock than the search.
		s += fmt.Sprintf(", %s nodes/s", humanCount(float64(o.Nodes)/d.Seconds()))
	}
	s += fmt.Sprintf(", TT hits %.0f%%", hit)
	if o.TBHits > 0 {
		s += fmt.Sprintf(", TB hits %d", o.TBHits)
	}
	return s
}

// FormatDuration writes a duration the one way mateline's reports do:
// milliseconds with one decimal below a second, seconds with two decimals
// below a minute, minutes and seconds beyond.
func FormatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	case d < time.Minute:
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%dm %02ds", int(d.Minutes()), int(d.Seconds())%60)
}

func humanCount(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.0fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// uciMoves returns the UCI text of moves.
func uciMoves(ms []board.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.UCI()
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
