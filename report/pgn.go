package report

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/pgn"
	"mateline.dev/mateline/puzzles"
)

// PGN writes an outcome as a game: the position searched (FEN and SetUp
// tags), the proved solution as the main line (the key, the winner's moves
// on schedule, the loser's longest resistance), the other keys of a cooked
// puzzle as variations, and with --tree every defence with its answers.
// Comments say what was proved; the first, "mateline: id ...", names the
// record for --resume and merge. Tags are the Seven Tag Roster (a PGN
// record keeps its own), Annotator, SetUp and FEN: standard ones only. A
// game ends with its result and two blank lines (the terminator --resume
// looks for, since a blank line also follows the tags).
func PGN(b *bytes.Buffer, o *puzzles.Answer) {
	g := &pgn.Game{Root: &pgn.Node{}}
	var tags []pgn.Tag
	if rec := o.Input; rec != nil && rec.PGN != nil {
		tags = append(tags, rec.PGN.Tags...)
	} else {
		tags = []pgn.Tag{{Name: "Event", Value: o.ID}, {Name: "Site", Value: filepath.Base(o.Source())}, {Name: "Round", Value: "-"}}
	}
	g.Tags = tags
	g.SetTag("Annotator", "mateline")
	ok := o.Input != nil && o.Input.Err == nil && o.FEN != ""
	if ok {
		g.Start = o.Input.Pos
		if o.FEN != board.StartFEN {
			g.SetTag("SetUp", "1")
			g.SetTag("FEN", o.FEN)
		}
	} else {
		// No position: the game has no moves, and keeps the input's
		// FEN tag (what the error is about) for its reader to fix.
		g.Start = board.StartPosition()
	}
	g.Result = pgnResult(o)
	g.Root.After = pgnIDComment(o) + "\n" + pgnFinding(o)
	if ok {
		addSolution(g, o)
		if rec := o.Input; rec.PGN != nil && rec.PGN.Tree != nil {
			addAuthor(g, rec.PGN.Tree)
		}
	}
	pgn.Write(b, g)
	b.WriteString("\n\n")
}

// pgnIDComment is the first comment of a record's game: its id, status and
// verdict, as read back by --resume and merge.
func pgnIDComment(o *puzzles.Answer) string {
	s := fmt.Sprintf("mateline: id %s status %s", quoteID(o.ID), o.Status)
	if o.Verdict != "" {
		s += " verdict " + string(o.Verdict)
	}
	return s
}

// quoteID quotes an id so that it can stand in a PGN comment: Go quoting,
// with the braces escaped too.
func quoteID(id string) string {
	q := strconv.QuoteToASCII(id)
	return strings.NewReplacer("{", `\u007b`, "}", `\u007d`).Replace(q)
}

// pgnIDRe reads the first comment back.
var pgnIDRe = regexp.MustCompile(`\{mateline: id ("(?:[^"\\]|\\.)*") status (\S+)(?: verdict (\S+))?\}`)

// pgnFinding says in words what was proved, with the verdict and what the
// input said besides.
func pgnFinding(o *puzzles.Answer) string {
	parts := []string{describeFinding(o)}
	if o.Verdict != "" {
		v := "verdict " + string(o.Verdict)
		if o.Expected != nil && o.Verdict != puzzles.VerdictSkipped {
			v += " (claim checked: " + describeClaim(o) + ")"
		}
		if why := verdictReason(o); why != "" && o.Status != puzzles.StatusError {
			v += ": " + why
		}
		parts = append(parts, v)
	}
	if o.Status == puzzles.StatusError {
		parts = append(parts, "error: "+o.Error)
	}
	for _, w := range o.Warnings {
		parts = append(parts, "warning: "+w)
	}
	return strings.Join(parts, "; ")
}

// pgnResult is the game's result: the side that mates wins.
func pgnResult(o *puzzles.Answer) string {
	m := o.Mate
	if m == 0 && o.Status == puzzles.StatusLimit && len(o.PV) == o.MateWithin.Plies() {
		m = o.MateWithin
	}
	if m == 0 || o.Input == nil || o.Input.Err != nil {
		return "*"
	}
	if m.Winner(o.Input.Pos.Side()) == board.White {
		return "1-0"
	}
	return "0-1"
}

// addSolution puts the main line, the other keys and the tree into g.
func addSolution(g *pgn.Game, o *puzzles.Answer) {
	pos := o.Input.Pos
	line, err := pos.ParseUCILine(o.PV)
	if err != nil {
		return
	}
	n := g.Root
	for _, m := range line {
		n = child(n, m)
	}
	if t := o.Tree; t != nil {
		for _, k := range t.Keys {
			addTreeMove(g.Root, pos, k)
		}
		for _, d := range t.Defences {
			addTreeDefence(g.Root, pos, d)
		}
	}
	// The other keys of a cooked puzzle.
	if len(o.Keys) > 1 && o.Mate > 0 {
		for _, k := range o.Keys {
			m, err := pos.ParseUCI(k)
			if err != nil || len(line) > 0 && m == line[0] {
				continue
			}
			c := child(g.Root, m)
			c.After = join(c.After, fmt.Sprintf("cook: also mates in %d", o.Mate))
		}
	}
}

// addAuthor merges the author's moves into g, with their comments and
// NAGs: a move the proved solution plays too gets the author's comments,
// one it does not becomes a variation, its first move marked "the
// author's". The comment before the first move stays after mateline's.
func addAuthor(g *pgn.Game, author *pgn.Game) {
	if c := author.Root.After; c != "" {
		g.Root.After += "\n" + c
	}
	var merge func(into, from *pgn.Node)
	merge = func(into, from *pgn.Node) {
		for _, a := range from.Children {
			if a.Move == board.NoMove {
				continue // a null move: not a move to play here
			}
			known := false
			for _, c := range into.Children {
				known = known || c.Move == a.Move
			}
			c := child(into, a.Move)
			if !known && len(into.Children) > 1 {
				c.Before = join(c.Before, "the author's") // a variation of the proved line
			}
			c.Before = join(c.Before, a.Before)
			c.After = join(c.After, a.After)
			c.NAGs = append(c.NAGs, a.NAGs...)
			merge(c, a)
		}
	}
	merge(g.Root, author.Root)
}

// child returns n's child for move m, adding it after the others.
func child(n *pgn.Node, m board.Move) *pgn.Node {
	for _, c := range n.Children {
		if c.Move == m {
			return c
		}
	}
	return n.Add(m)
}

// addTreeMove adds an attacker move of the tree from pos under n.
func addTreeMove(n *pgn.Node, pos board.Position, tm *puzzles.TreeMove) {
	m, err := pos.ParseUCI(tm.UCI)
	if err != nil {
		return
	}
	c := child(n, m)
	after := pos
	after.Play(m)
	if th := tm.Threat; th != nil && !strings.Contains(c.After, "threat") {
		c.After = join(c.After, "threat: "+strings.Join(th.Line, " "))
	}
	if tm.Zugzwang && !strings.Contains(c.After, "zugzwang") {
		c.After = join(c.After, "zugzwang")
	}
	for _, d := range tm.Defences {
		addTreeDefence(c, after, d)
	}
	if len(tm.MainLine) > 0 {
		p := after
		cur := c
		for _, san := range tm.MainLine {
			m, err := p.ParseSAN(san)
			if err != nil {
				return
			}
			cur = child(cur, m)
			p.Play(m)
		}
	}
}

// addTreeDefence adds a defence of the tree from pos under n, with its
// answers (more than one: a dual).
func addTreeDefence(n *pgn.Node, pos board.Position, td *puzzles.TreeDefence) {
	m, err := pos.ParseUCI(td.UCI)
	if err != nil {
		return
	}
	c := child(n, m)
	after := pos
	after.Play(m)
	for i, a := range td.Answers {
		addTreeMove(c, after, a)
		if i > 0 && len(c.Children) > i {
			c.Children[i].After = join(c.Children[i].After, "dual")
		}
	}
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// removeTags drops the named tags.
func removeTags(tags []pgn.Tag, names ...string) []pgn.Tag {
	var out []pgn.Tag
	for _, t := range tags {
		drop := false
		for _, n := range names {
			drop = drop || strings.EqualFold(t.Name, n)
		}
		if !drop {
			out = append(out, t)
		}
	}
	return out
}
