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
	white := t.WhiteFirst
	for _, k := range t.Keys {
		writeMove(&b, k, "  ", 1, white, true)
	}
	for _, d := range t.Defences {
		writeDefence(&b, d, "  ", 1, white)
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

// writeMove prints an attacker move at full move number move; white says
// who makes it; key marks the root's moves with "!".
func writeMove(b *strings.Builder, m *puzzles.TreeMove, indent string, move int, white, key bool) {
	fmt.Fprintf(b, "%s%s%s", indent, number(move, white), m.SAN)
	if key {
		b.WriteString("!")
	}
	writeTail(b, m, move, white)
	b.WriteByte('\n')
	next := move
	if !white {
		next++
	}
	for _, d := range m.Defences {
		writeDefence(b, d, indent+"    ", next, !white)
	}
}

// writeTail prints what follows an attacker move on its line: the threat,
// or the main line below the full depth.
func writeTail(b *strings.Builder, m *puzzles.TreeMove, move int, white bool) {
	if m.Threat != nil {
		fmt.Fprintf(b, " threat: %s", lineText(m.Threat.Line, move+1, white))
		if len(m.Threat.Moves) > 1 {
			fmt.Fprintf(b, " (also %s)", strings.Join(m.Threat.Moves[1:], ", "))
		}
	}
	if len(m.MainLine) > 0 {
		next := move
		if !white {
			next++
		}
		fmt.Fprintf(b, " ... %s (main line)", lineText(m.MainLine, next, !white))
	}
}

// writeDefence prints a defence at move number move, made by White if
// white, with its answers on the same line.
func writeDefence(b *strings.Builder, d *puzzles.TreeDefence, indent string, move int, white bool) {
	fmt.Fprintf(b, "%s%s%s", indent, number(move, white), d.SAN)
	next := move
	if !white {
		next++
	}
	for i, a := range d.Answers {
		sep := " "
		if i > 0 {
			sep = ", "
		}
		fmt.Fprintf(b, "%s%s%s", sep, number(next, !white), a.SAN)
	}
	if d.Dual {
		fmt.Fprintf(b, " (dual: %d answers)", len(d.Answers))
	}
	if len(d.Answers) > 0 {
		writeTail(b, d.Answers[0], next, !white)
	}
	b.WriteByte('\n')
	if len(d.Answers) > 0 {
		following := next
		if white {
			following++
		}
		for _, dd := range d.Answers[0].Defences {
			writeDefence(b, dd, indent+"    ", following, white)
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
