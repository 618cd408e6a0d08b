package report

import (
	"fmt"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
)

// writeProblemHeader writes what a problem file said of the record: its
// title, author, origin and twin.
func writeProblemHeader(b *strings.Builder, pr *record.Problem) {
	for _, f := range []struct{ name, text string }{
		{"title", pr.Title}, {"author", pr.Author}, {"origin", pr.Origin}, {"twin", pr.Twin},
	} {
		if f.text != "" {
			fmt.Fprintf(b, "  %s: %s\n", f.name, f.text)
		}
	}
}

// writeProblemFinding writes what a helpmate or selfmate solve proved: a
// first line that starts with the stipulation, then the solutions (h#),
// or the keys and the main line (s#), as Popeye prints them.
func writeProblemFinding(b *strings.Builder, o *puzzles.Answer) {
	help := hasSolutions(o.Stipulation)
	if o.Status == puzzles.StatusError {
		fmt.Fprintf(b, "  error: %s\n", o.Error)
		return
	}
	fmt.Fprintf(b, "  %s\n", problemSummary(o))
	for _, s := range o.SolutionText {
		fmt.Fprintf(b, "  %s\n", s)
	}
	if o.Status == puzzles.StatusMate && !help && len(o.PV) > 0 && o.Tree == nil {
		fmt.Fprintf(b, "  line: %s\n", o.LineSAN)
	}
	writeSetPlay(b, o)
	if sh := o.Shorter; sh != nil {
		n := len(sh.Solutions)
		what := "solution"
		if !help {
			n, what = len(sh.Keys), "key"
		}
		if help {
			fmt.Fprintf(b, "  shorter: %s has %s\n", sh.Stipulation, plural(n, what))
			for _, s := range o.ShorterText {
				fmt.Fprintf(b, "  %s\n", s)
			}
		} else {
			fmt.Fprintf(b, "  shorter: %s has %s: %s\n", sh.Stipulation, plural(n, what), strings.Join(o.ShorterText, ", "))
		}
	}
}

// problemSummary says in a line what a helpmate or selfmate solve found;
// it starts with the stipulation, or with "limit reached".
func problemSummary(o *puzzles.Answer) string {
	st := o.Stipulation
	help := hasSolutions(st)
	switch o.Status {
	case puzzles.StatusNoMate, puzzles.StatusCapped:
		if o.Note != "" {
			return fmt.Sprintf("%s: no solution (%s)", st, o.Note)
		}
		return fmt.Sprintf("%s: no solution (proved)", st)
	case puzzles.StatusLimit:
		s := fmt.Sprintf("limit reached: %s not decided", st)
		if n := len(o.SolutionText); n > 0 {
			s += fmt.Sprintf("; %s found before it, and there may be more", plural(n, "solution"))
		}
		return s
	case puzzles.StatusMate:
		switch {
		case help && o.Partial:
			return fmt.Sprintf("%s: %s (the search stopped there)", st, plural(len(o.SolutionText), "solution"))
		case help && o.Count() != len(o.SolutionText):
			return fmt.Sprintf("%s: %s in %s (every one)", st, plural(o.Count(), "solution"), plural(len(o.SolutionText), "line"))
		case help:
			return fmt.Sprintf("%s: %s (every one)", st, plural(len(o.SolutionText), "solution"))
		}
		return fmt.Sprintf("%s: %s (every one): %s", st, plural(len(o.KeysText), "key"), strings.Join(o.KeysText, ", "))
	}
	return st + ": not searched"
}

// writeSetPlay writes a problem's set play: a helpmate's lines, or the
// set defences with White's answers.
func writeSetPlay(b *strings.Builder, o *puzzles.Answer) {
	if sp := o.SetPlay; sp != nil {
		switch {
		case sp.Tree != nil && len(sp.Tree.Defences) == 0, sp.Tree == nil && len(o.SetPlayText) == 0:
			b.WriteString("  set play: none\n")
		case sp.Tree != nil:
			b.WriteString("  set play:\n")
			tw := treeWriter{b: b, long: o.TreeLong}
			pos, _ := positionOf(&o.Outcome)
			null, ok := pos.Passed() // the other side moves first
			if !ok {
				null = pos
			}
			for _, d := range sp.Tree.Defences {
				tw.defence(null, d, "  ", 1, null.Side() == board.White)
			}
		default:
			fmt.Fprintf(b, "  set play (%s):\n", sp.Stipulation)
			for _, s := range o.SetPlayText {
				fmt.Fprintf(b, "  %s\n", s)
			}
		}
	}
}

// writeTries writes a problem's tries, one a line.
func writeTries(b *strings.Builder, o *puzzles.Answer) {
	for _, tr := range o.Tries {
		fmt.Fprintf(b, "  try: 1.%s? but 1...%s!\n", tr.Text, strings.Join(tr.RefText, "!, 1..."))
	}
}

// plural writes "1 solution", "3 solutions".
func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// hasSolutions reports whether a stipulation's finding is its solutions
// (helpmates, series-movers), not its keys.
func hasSolutions(text string) bool {
	st, err := problem.Parse(text)
	return err == nil && st.HasSolutions()
}
