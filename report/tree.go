package report

import (
	"fmt"
	"io"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/puzzles"
)

// writeTree prints the tree the way problemists read it: move numbers from
// 1, each defence indented under the attacker move it answers. root is
// the position it starts from; long writes its moves in Popeye's long
// notation, worked out from the moves themselves.
func writeTree(w io.Writer, t *puzzles.Tree, root board.Position, long bool) error {
	var b strings.Builder
	if t.Note != "" {
		fmt.Fprintf(&b, "  solution tree (%s):\n", t.Note)
	} else {
		b.WriteString("  solution tree:\n")
	}
	tw := treeWriter{b: &b, long: long}
	white := root.Side() == board.White
	for _, k := range t.Keys {
		tw.move(root, k, "  ", 1, white, true)
	}
	for _, d := range t.Defences {
		tw.defence(root, d, "  ", 1, white)
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

// text is a tree move, given by its UCI and SAN, from pos: the SAN, or
// the long notation; after is the position it leads to.
func (tw treeWriter) text(pos board.Position, uci, san string) (text string, after board.Position) {
	m, err := pos.ParseUCI(uci)
	if err != nil {
		return san, pos
	}
	if tw.long {
		san = puzzles.LongMove(&pos, m)
	}
	pos.Play(m)
	return san, pos
}

// line is a line given in SAN from pos, in SAN or the long notation.
func (tw treeWriter) line(pos board.Position, sans []string) []string {
	if tw.long {
		return puzzles.LongLine(pos, sans)
	}
	return sans
}

// move prints an attacker move, from pos, at full move number move; white
// says who makes it; key marks the root's moves with "!".
func (tw treeWriter) move(pos board.Position, m *puzzles.TreeMove, indent string, move int, white, key bool) {
	b := tw.b
	text, after := tw.text(pos, m.UCI, m.SAN)
	fmt.Fprintf(b, "%s%s%s", indent, number(move, white), text)
	if key {
		b.WriteString("!")
	}
	tw.tail(after, m, move, white)
	b.WriteByte('\n')
	next := move
	if !white {
		next++
	}
	for _, d := range m.Defences {
		tw.defence(after, d, indent+"    ", next, !white)
	}
}

// tail prints what follows an attacker move on its line, from after it:
// the threat, or the main line below the full depth.
func (tw treeWriter) tail(after board.Position, m *puzzles.TreeMove, move int, white bool) {
	b := tw.b
	if m.Zugzwang {
		b.WriteString(" zugzwang.")
	}
	if th := m.Threat; th != nil {
		null, ok := after.Passed()
		if !ok {
			null = after
		}
		fmt.Fprintf(b, " threat: %s", lineText(tw.line(null, th.Line), move+1, white))
		if len(th.Moves) > 1 {
			var also []string
			for _, san := range th.Moves[1:] {
				also = append(also, tw.line(null, []string{san})...)
			}
			fmt.Fprintf(b, " (also %s)", strings.Join(also, ", "))
		}
	}
	if len(m.MainLine) > 0 {
		next := move
		if !white {
			next++
		}
		fmt.Fprintf(b, " ... %s (main line)", lineText(tw.line(after, m.MainLine), next, !white))
	}
}

// defence prints a defence, from pos, at move number move, made by White
// if white, with its answers on the same line.
func (tw treeWriter) defence(pos board.Position, d *puzzles.TreeDefence, indent string, move int, white bool) {
	b := tw.b
	text, after := tw.text(pos, d.UCI, d.SAN)
	fmt.Fprintf(b, "%s%s%s", indent, number(move, white), text)
	next := move
	if !white {
		next++
	}
	var first board.Position
	for i, a := range d.Answers {
		sep := " "
		if i > 0 {
			sep = ", "
		}
		text, next2 := tw.text(after, a.UCI, a.SAN)
		if i == 0 {
			first = next2
		}
		fmt.Fprintf(b, "%s%s%s", sep, number(next, !white), text)
	}
	if d.Dual {
		fmt.Fprintf(b, " (dual: %d answers)", len(d.Answers))
	}
	if len(d.Answers) > 0 {
		tw.tail(first, d.Answers[0], next, !white)
	}
	b.WriteByte('\n')
	if len(d.Answers) > 0 {
		following := next
		if white {
			following++
		}
		for _, dd := range d.Answers[0].Defences {
			tw.defence(first, dd, indent+"    ", following, white)
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

// positionOf is the position an outcome answers, read from its FEN; ok is
// false for a record without one.
func positionOf(o *puzzles.Outcome) (pos board.Position, ok bool) {
	pos, err := board.ParseFEN(o.FEN)
	return pos, err == nil
}
