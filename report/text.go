package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
)

// Text writes o as a few readable lines, and a blank line. The first line
// names the record: SOURCE:LINE, the id when it is not "line:N", the FEN.
func Text(w io.Writer, o *puzzles.Answer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d", o.Source(), o.Line)
	if o.ID != fmt.Sprintf("line:%d", o.Line) && !(o.Source() == "--fen" && o.ID == fmt.Sprintf("fen:%d", o.Line)) {
		fmt.Fprintf(&b, " %s", o.ID) // (--fen:2 is fen:2: said once)
	}
	if o.FEN != "" {
		fmt.Fprintf(&b, "  %s", o.FEN)
	}
	b.WriteByte('\n')
	for _, w := range o.Warnings {
		fmt.Fprintf(&b, "  warning: %s\n", w)
	}
	if pr := o.Problem; pr != nil {
		writeProblemHeader(&b, pr)
	}
	if p := o.PGN; p != nil {
		writePGNHeader(&b, p)
	}
	if o.Note != "" {
		fmt.Fprintf(&b, "  %s\n", o.Note)
	}
	if o.Stipulation != "" {
		writeProblemFinding(&b, o)
	} else {
		writeFinding(&b, o)
	}
	if o.Stipulation == "" {
		writeSetPlay(&b, o) // a problem's finding writes its own
	}
	writeTries(&b, o)
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
		if o.Expected != nil && o.Verdict != puzzles.VerdictSkipped {
			fmt.Fprintf(&b, " (claim checked: %s)", describeClaim(o))
		}
		if why := verdictReason(o); why != "" && o.Status != puzzles.StatusError {
			fmt.Fprintf(&b, ": %s", why)
		}
		b.WriteByte('\n')
	}
	if o.Tree != nil {
		pos, _ := positionOf(&o.Outcome)
		writeTree(&b, o.Tree, pos, o.TreeLong)
	}
	if o.Status != puzzles.StatusError {
		fmt.Fprintf(&b, "  %s\n", statsLine(o))
	}
	// A blank line ends every record: a record cut short by a kill lacks
	// it, and --resume knows to redo it.
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// writePGNHeader names a PGN game: its number, Event and players.
func writePGNHeader(b *strings.Builder, p *record.PGNInfo) {
	fmt.Fprintf(b, "  game %d", p.Game)
	if p.Event != "" && p.Event != "?" {
		fmt.Fprintf(b, ": %s", p.Event)
	}
	var who []string
	for _, s := range []string{p.White, p.Black} {
		if s != "" && s != "?" {
			who = append(who, s)
		}
	}
	if len(who) > 0 {
		fmt.Fprintf(b, " (%s)", strings.Join(who, " - "))
	}
	b.WriteByte('\n')
}

// writeFinding writes what the search proved, in a line or three.
func writeFinding(w io.Writer, o *puzzles.Answer) {
	b := &strings.Builder{}
	defer func() { io.WriteString(w, b.String()) }()
	switch o.Status {
	case puzzles.StatusError:
		fmt.Fprintf(b, "  error: %s\n", o.Error)
	case puzzles.StatusMate:
		if o.Mate > 0 {
			fmt.Fprintf(b, "  mate in %d (proved shortest)\n", o.Mate)
		} else {
			fmt.Fprintf(b, "  mated in %d (proved: no longer defence)\n", -o.Mate)
		}
		writeKeys(b, o, o.Mate)
	case puzzles.StatusNoMate:
		if o.Note == "" {
			fmt.Fprintf(b, "  no mate at any length: %s\n", noMateReason(o))
		}
	case puzzles.StatusCapped:
		fmt.Fprintf(b, "  %s (proved); longer mates were not looked for (%d is the longest asked for: --mate or the claim)\n", problem.NoMateIn(o.Depth), o.Depth)
	case puzzles.StatusLimit:
		switch {
		case o.MateWithin != 0:
			fmt.Fprintf(b, "  limit reached: %s\n", WithinWords(o.MateWithin, o.Depth))
			writeKeys(b, o, o.MateWithin)
		case o.Depth > 0:
			fmt.Fprintf(b, "  limit reached: %s (proved); longer mates not decided\n", problem.NoMateIn(o.Depth))
		default:
			fmt.Fprintf(b, "  limit reached before anything was proved\n")
		}
	}
}

// WithinWords says what a proved but not yet shortest mate is: "mate in
// 14 proved, no mate in 9 or fewer; shortest not yet proved".
func WithinWords(m problem.Mate, depth int) string {
	if m > 0 {
		if depth == 0 {
			return fmt.Sprintf("mate in %d proved; shorter mates not yet ruled out", m)
		}
		return fmt.Sprintf("mate in %d proved, no mate in %d or fewer; shortest not yet proved", m, depth)
	}
	if depth == 0 {
		return fmt.Sprintf("mated in %d at most, proved; a longer defence not yet ruled out", -m)
	}
	return fmt.Sprintf("mated in %d at most, proved, and not in %d or fewer; longest defence not yet proved", -m, depth)
}

// noMateReason says why a no-mate record has no mate at any length.
func noMateReason(o *puzzles.Answer) string {
	if o.TBHits > 0 {
		return "the tables say neither side can force mate"
	}
	return "no side looked for has the material to mate"
}

// writeKeys writes the keys of mate (a proved shortest mate, or one proved
// within a limit) and its line.
func writeKeys(b *strings.Builder, o *puzzles.Answer, mate problem.Mate) {
	label := "key"
	if mate < 0 {
		label = "best defence"
	}
	if len(o.KeysSAN) > 1 {
		label += "s"
	}
	which := ""
	switch {
	case len(o.KeysSAN) == 0:
	case o.AllKeys && len(o.KeysSAN) == 1:
		which = " (the only one)"
	case o.AllKeys:
		which = " (every one)"
	case !o.Partial:
		which = " (others not looked for: --all lists every one)"
	}
	switch {
	case len(o.KeysSAN) == 0:
		fmt.Fprintf(b, "  %s: not extracted: the limit came first (the mate length stands)\n", label)
	case o.Partial && len(o.PV) == 0:
		fmt.Fprintf(b, "  %s: %s (the list may be incomplete: the limit came first)\n", label, strings.Join(o.KeysSAN, " "))
		fmt.Fprintf(b, "  line: not extracted: the limit came first\n")
	default:
		fmt.Fprintf(b, "  %s: %s%s\n", label, strings.Join(o.KeysSAN, " "), which)
		note := ""
		if o.PVFromProof {
			note = " (the proof's line: a defence of it may not hold out longest)"
		}
		fmt.Fprintf(b, "  line: %s%s\n", o.LineSAN, note)
	}
}

// statsLine gives the search figures of an outcome.
func statsLine(o *puzzles.Answer) string {
	hit := 0.0
	if o.TTProbes > 0 {
		hit = 100 * float64(o.TTHits) / float64(o.TTProbes)
	}
	d := time.Duration(o.MS * float64(time.Millisecond))
	s := fmt.Sprintf("nodes %d, %s", o.Nodes, Duration(d))
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

// Duration writes a duration the one way mateline's reports do:
// milliseconds with one decimal below a second, seconds with two decimals
// below a minute, minutes and seconds beyond.
func Duration(d time.Duration) string {
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

// Interrupted writes what an interrupted search had proved, for standard
// error: its record is not written (--resume does it again), but what was
// proved is not thrown away in silence. It says what the record would
// say, word for word: a mate proved shortest before the interruption came
// is that, and a lower bound only what a finished proof showed.
func Interrupted(w io.Writer, o *puzzles.Answer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "interrupted: %s:%d %s\n", o.Source(), o.Line, o.ID)
	writeFinding(&b, o)
	fmt.Fprintf(&b, "  %s\n", statsLine(o))
	_, err := io.WriteString(w, b.String())
	return err
}
