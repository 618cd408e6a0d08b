package report

import (
	"fmt"
	"io"
	"strings"

	"mateline.dev/mateline/puzzles"
)

// writeTree prints the tree the way problemists read it: move numbers from
// 1, each defence indented under the attacker move it answers.
func writeTree(w io.Writer, t *puzzles.Tree) error {
	var b strings.Builder
	if t.Note != "" {
		fmt.Fprintf(&b, "  solution tree (%s):\n", t.Note)
	} else {
		b.WriteString("  solution tree:\n")
	}
	tw := treeWriter{b: &b, long: t.Long}
	white := t.WhiteFirst
	for _, k := range t.Keys {
		tw.move(k, "  ", 1, white, true)
	}
	for _, d := range t.Defences {
		tw.defence(d, "  ", 1, white)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// number is the move number text of the move-th move, made by White or
// Black.
func number(move int, white bool) string {
	if white {
		return fmt.Sprintf("%d.", move)
	}
	return fmt.Sprintf("%d...", move)
}

// treeWriter writes a tree's lines, its moves in SAN or (long) Popeye's
// notation.
type treeWriter struct {
	b    *strings.Builder
	long bool
}

// pick is the SAN text, or the long one.
func (tw treeWriter) pick(san, long string) string {
	if tw.long {
		return long
	}
	return san
}

// picks is the SAN texts, or the long ones.
func (tw treeWriter) picks(san, long []string) []string {
	if tw.long {
		return long
	}
	return san
}

// move prints an attacker move at full move number move; white says
// who makes it; key marks the root's moves with "!".
func (tw treeWriter) move(m *puzzles.TreeMove, indent string, move int, white, key bool) {
	b := tw.b
	fmt.Fprintf(b, "%s%s%s", indent, number(move, white), tw.pick(m.SAN, m.Long))
	if key {
		b.WriteString("!")
	}
	tw.tail(m, move, white)
	b.WriteByte('\n')
	next := move
	if !white {
		next++
	}
	for _, d := range m.Defences {
		tw.defence(d, indent+"    ", next, !white)
	}
}

// tail prints what follows an attacker move on its line: the threat,
// or the main line below the full depth.
func (tw treeWriter) tail(m *puzzles.TreeMove, move int, white bool) {
	b := tw.b
	if m.Zugzwang {
		b.WriteString(" zugzwang.")
	}
	if th := m.Threat; th != nil {
		fmt.Fprintf(b, " threat: %s", lineText(tw.picks(th.Line, th.LineLong), move+1, white))
		if moves := tw.picks(th.Moves, th.MovesLong); len(moves) > 1 {
			fmt.Fprintf(b, " (also %s)", strings.Join(moves[1:], ", "))
		}
	}
	if len(m.MainLine) > 0 {
		next := move
		if !white {
			next++
		}
		fmt.Fprintf(b, " ... %s (main line)", lineText(tw.picks(m.MainLine, m.MainLineLong), next, !white))
	}
}

// defence prints a defence at move number move, made by White if
// white, with its answers on the same line.
func (tw treeWriter) defence(d *puzzles.TreeDefence, indent string, move int, white bool) {
	b := tw.b
	fmt.Fprintf(b, "%s%s%s", indent, number(move, white), tw.pick(d.SAN, d.Long))
	next := move
	if !white {
		next++
	}
	for i, a := range d.Answers {
		sep := " "
		if i > 0 {
			sep = ", "
		}
		fmt.Fprintf(b, "%s%s%s", sep, number(next, !white), tw.pick(a.SAN, a.Long))
	}
	if d.Dual {
		fmt.Fprintf(b, " (dual: %d answers)", len(d.Answers))
	}
	if len(d.Answers) > 0 {
		tw.tail(d.Answers[0], next, !white)
	}
	b.WriteByte('\n')
	if len(d.Answers) > 0 {
		following := next
		if white {
			following++
		}
		for _, dd := range d.Answers[0].Defences {
			tw.defence(dd, indent+"    ", following, white)
		}
	}
}

// lineText numbers a line whose first move is the move-th, made by White
// if white.
func lineText(line []string, move int, white bool) string {
	var b strings.Builder
	for i, s := range line {
		if i > 0 {
			b.WriteByte(' ')
		}
		if white || i == 0 {
			b.WriteString(number(move, white))
		}
		b.WriteString(s)
		if !white {
			move++
		}
		white = !white
	}
	return b.String()
}
