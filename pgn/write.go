package pgn

import (
	"fmt"
	"io"
	"strings"

	"mateline.dev/mateline/board"
)

// lineWidth is the longest movetext line Write writes, as the export
// format asks (under 80 characters).
const lineWidth = 79

// Write writes g in the export format: its tags (the Seven Tag Roster
// first, in its order, the others as they come), a blank line, the
// movetext wrapped under 80 characters, with move numbers, comments,
// NAGs and variations, then the termination marker. Moves are written in
// SAN from the position, not as they were read. A comment that holds a
// newline is written as several comments; '}' cannot be inside one and is
// written as ')'.
func Write(w io.Writer, g *Game) error {
	var b strings.Builder
	result := g.Result
	if result == "" {
		result = "*"
	}
	for _, t := range orderedTags(g.Tags) {
		if t.Name == "Result" {
			t.Value = result // the tag says what the movetext ends with
		}
		fmt.Fprintf(&b, "[%s \"%s\"]\n", t.Name, escapeTag(t.Value))
	}
	b.WriteByte('\n')
	mw := &movetextWriter{b: &b}
	for _, c := range strings.Split(g.Root.After, "\n") {
		mw.comment(c)
	}
	mw.line(g.Root, g.Start, true)
	mw.word(result)
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// sevenTags is the Seven Tag Roster, in its order.
var sevenTags = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// orderedTags puts the Seven Tag Roster first, with "?" (Date
// "????.??.??", Result "*") for a missing one, then SetUp and FEN, then
// the other tags.
func orderedTags(tags []Tag) []Tag {
	var out []Tag
	for _, name := range sevenTags {
		v, found := "", false
		for _, t := range tags {
			if strings.EqualFold(t.Name, name) {
				v, found = t.Value, true
				break
			}
		}
		if !found {
			v = map[string]string{"Date": "????.??.??", "Result": "*"}[name]
			if v == "" {
				v = "?"
			}
		}
		out = append(out, Tag{name, v})
	}
	// SetUp and FEN next, in that order, then the others as they come.
	for _, name := range []string{"SetUp", "FEN"} {
		for _, t := range tags {
			if strings.EqualFold(t.Name, name) {
				out = append(out, Tag{name, t.Value})
				break
			}
		}
	}
	for _, t := range tags {
		known := strings.EqualFold(t.Name, "SetUp") || strings.EqualFold(t.Name, "FEN")
		for _, name := range sevenTags {
			known = known || strings.EqualFold(t.Name, name)
		}
		if !known {
			out = append(out, t)
		}
	}
	return out
}

func escapeTag(s string) string {
	s = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ").Replace(s)
	return s
}

// movetextWriter writes movetext words, wrapping lines.
type movetextWriter struct {
	b   *strings.Builder
	col int
	// glue says the next word follows without a space (after '(').
	glue bool
}

func (mw *movetextWriter) word(s string) {
	switch {
	case mw.col == 0:
	case mw.col+1+len(s) > lineWidth:
		mw.b.WriteByte('\n')
		mw.col = 0
	case mw.glue:
	default:
		mw.b.WriteByte(' ')
		mw.col++
	}
	mw.glue = false
	mw.b.WriteString(s)
	mw.col += len(s)
}

// comment writes a comment, its words wrapped like moves.
func (mw *movetextWriter) comment(c string) {
	words := strings.Fields(strings.ReplaceAll(c, "}", ")"))
	if len(words) == 0 {
		return
	}
	words[0] = "{" + words[0]
	words[len(words)-1] += "}"
	for _, w := range words {
		mw.word(w)
	}
}

// move writes one move from pos, numbered when White plays it or when
// number asks (at the start of a line, after a comment or a variation).
func (mw *movetextWriter) move(n *Node, pos board.Position, number bool) {
	for _, c := range strings.Split(n.Before, "\n") {
		mw.comment(c)
	}
	switch {
	case pos.Side() == board.White:
		mw.word(fmt.Sprintf("%d.", pos.FullmoveNumber()))
	case number:
		mw.word(fmt.Sprintf("%d...", pos.FullmoveNumber()))
	}
	if n.Move == board.NoMove {
		mw.word("--")
	} else {
		mw.word(pos.SAN(n.Move))
	}
	for _, nag := range n.NAGs {
		mw.word(fmt.Sprintf("$%d", nag))
	}
	for _, c := range strings.Split(n.After, "\n") {
		mw.comment(c)
	}
}

// line writes the moves from n's position (pos) on: the main line, and
// the alternatives to each of its moves as variations.
func (mw *movetextWriter) line(n *Node, pos board.Position, number bool) {
	for len(n.Children) > 0 {
		main := n.Children[0]
		mw.move(main, pos, number)
		number = main.After != ""
		for _, v := range n.Children[1:] {
			mw.word("(")
			mw.glue = true
			mw.move(v, pos, true)
			mw.line(v, play(pos, v.Move), v.After != "")
			mw.closeParen()
			number = true
		}
		pos = play(pos, main.Move)
		n = main
	}
}

// closeParen writes ")" right after the last word.
func (mw *movetextWriter) closeParen() {
	if mw.col+1 > lineWidth {
		mw.b.WriteByte('\n')
		mw.col = 0
	}
	mw.b.WriteByte(')')
	mw.col++
	mw.glue = false
}

// play returns pos after m (a null move passes).
func play(pos board.Position, m board.Move) board.Position {
	if m == board.NoMove {
		if q, ok := pos.Passed(); ok {
			return q
		}
		return pos
	}
	pos.Play(m)
	return pos
}
