package pgn

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"mateline.dev/mateline/board"
)

// Error is a game that cannot be read: its number in the file, the line
// of the problem, and what is wrong.
type Error struct {
	Game int
	Line int
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: game %d: %v", e.Line, e.Game, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// Parse reads one game cut by a Splitter: its tags, its start position
// (the FEN tag, with or without SetUp, else the initial position) and its
// moves, each checked against the rules. Text that is not valid UTF-8 is
// read as Latin-1, the standard's own character set.
func Parse(c Chunk) (*Game, error) {
	g := &Game{Number: c.Number, Line: c.Line, Root: &Node{}}
	if c.Err != nil {
		return g, &Error{c.Number, c.Line, c.Err}
	}
	text := c.Text
	if !utf8.ValidString(text) {
		text = latin1(text)
	}
	p := &parser{g: g, line: c.Line}
	lines := strings.Split(text, "\n")
	i := 0
	rest := ""
	for ; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if t != "" && !strings.HasPrefix(t, "[") {
			break
		}
		var err error
		if rest, err = p.tags(t); err != nil {
			return g, &Error{c.Number, c.Line + i, err}
		}
		if rest != "" {
			// movetext on the line of the last tag
			i++
			break
		}
	}
	if err := p.start(); err != nil {
		return g, &Error{c.Number, c.Line, err}
	}
	if rest != "" {
		if err := p.movetext(rest, c.Line+i-1); err != nil {
			return g, &Error{c.Number, c.Line + i - 1, err}
		}
	}
	for ; i < len(lines); i++ {
		if err := p.movetext(lines[i], c.Line+i); err != nil {
			return g, &Error{c.Number, c.Line + i, err}
		}
	}
	if p.inComment {
		return g, &Error{c.Number, p.commentLine, errors.New("a comment '{' is never closed")}
	}
	if len(p.stack) > 0 {
		return g, &Error{c.Number, p.stack[len(p.stack)-1].line, errors.New("a variation '(' is never closed")}
	}
	p.flushComment()
	return g, nil
}

// latin1 turns Latin-1 bytes into UTF-8.
func latin1(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// parser holds the state of one game's reading.
type parser struct {
	g    *Game
	line int
	// cur is the node whose position the next move is played from, pos
	// that position; last is the node of the last move read (what a '('
	// offers an alternative to), nil before the first.
	cur, last *Node
	pos       board.Position
	before    map[*Node]board.Position // the position before each move
	stack     []frame
	// comment gathers a comment being read; inComment says a '{' is open.
	comment     strings.Builder
	inComment   bool
	commentLine int
	// pending is a comment read before a move (at the start of a
	// variation, or of the game): it goes to the next move's Before.
	pending string
}

// frame is what a '(' saves: where the line it interrupts goes on.
type frame struct {
	cur, last *Node
	pos       board.Position
	line      int
}

// tags reads one line of the tag section (it may hold several pairs), and
// returns what follows the last pair on the line (movetext).
func (p *parser) tags(t string) (string, error) {
	for strings.HasPrefix(t, "[") {
		name, rest, _ := strings.Cut(strings.TrimSpace(t[1:]), " ")
		rest = strings.TrimSpace(rest)
		if name == "" || !strings.HasPrefix(rest, `"`) {
			return "", fmt.Errorf("tag %q has no quoted value", truncate(t, 30))
		}
		var value strings.Builder
		j := 1
		for ; j < len(rest) && rest[j] != '"'; j++ {
			if rest[j] == '\\' && j+1 < len(rest) {
				j++
			}
			value.WriteByte(rest[j])
		}
		if j >= len(rest) {
			return "", fmt.Errorf("tag %s: the value's quote is never closed", name)
		}
		rest = strings.TrimSpace(rest[j+1:])
		if !strings.HasPrefix(rest, "]") {
			return "", fmt.Errorf("tag %s: no ']' after its value", name)
		}
		p.g.Tags = append(p.g.Tags, Tag{name, value.String()})
		t = strings.TrimSpace(rest[1:])
	}
	return t, nil
}

// start sets the game's start position from its tags.
func (p *parser) start() error {
	g := p.g
	switch v := strings.ToLower(g.Tag("Variant")); v {
	case "", "standard", "chess", "from position", "normal":
	default:
		return fmt.Errorf("variant %q: mateline reads standard chess only", g.Tag("Variant"))
	}
	fen := strings.TrimSpace(g.Tag("FEN"))
	g.Start = board.StartPosition()
	switch {
	case fen != "":
		for i := 0; i < len(fen); i++ {
			if fen[i] >= 0x80 {
				return fmt.Errorf("FEN tag %q: not plain ASCII", truncate(fen, 90))
			}
		}
		pos, notes, err := board.ParseFENLenient(fen)
		if err != nil {
			return &FENError{FEN: fen, Err: err}
		}
		for _, n := range notes {
			g.Warnings = append(g.Warnings, "FEN tag: "+n)
		}
		g.Start = pos
	case g.Tag("SetUp") == "1":
		return fmt.Errorf(`SetUp "1" without a FEN tag`)
	}
	p.cur, p.pos = g.Root, g.Start
	p.before = map[*Node]board.Position{}
	return nil
}

// FENError is a FEN tag that does not give a legal position.
type FENError struct {
	FEN string
	Err error
}

func (e *FENError) Error() string { return fmt.Sprintf("FEN tag %q: %v", truncate(e.FEN, 90), e.Err) }

func (e *FENError) Unwrap() error { return e.Err }

// movetext reads one line of movetext.
func (p *parser) movetext(text string, line int) error {
	p.line = line
	i := 0
	for i < len(text) {
		if p.inComment {
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				p.comment.WriteString(text[i:])
				p.comment.WriteByte(' ')
				return nil
			}
			p.comment.WriteString(text[i : i+end])
			p.inComment = false
			p.endComment(p.comment.String())
			p.comment.Reset()
			i += end + 1
			continue
		}
		ch := text[i]
		switch {
		case isSpace(ch), ch == '}':
			i++ // a '}' that closes no comment is skipped
			continue
		case ch == '{':
			p.inComment, p.commentLine = true, line
			i++
			continue
		case ch == ';':
			p.endComment(text[i+1:])
			return nil
		case ch == '(':
			if p.last == nil {
				return fmt.Errorf("a variation '(' before any move")
			}
			p.flushComment()
			p.stack = append(p.stack, frame{p.cur, p.last, p.pos, line})
			p.cur, p.pos, p.last = p.last.Parent, p.before[p.last], nil
			i++
			continue
		case ch == ')':
			if len(p.stack) == 0 {
				return fmt.Errorf("')' closes no variation")
			}
			p.flushComment()
			f := p.stack[len(p.stack)-1]
			p.stack = p.stack[:len(p.stack)-1]
			p.cur, p.last, p.pos = f.cur, f.last, f.pos
			i++
			continue
		}
		j := i
		for j < len(text) && !isSpace(text[j]) && !strings.ContainsRune("{}();", rune(text[j])) {
			j++
		}
		if err := p.token(text[i:j]); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// endComment files a finished comment: after the last move, or before the
// next one when no move of this line was read yet.
func (p *parser) endComment(c string) {
	c = strings.Join(strings.Fields(c), " ")
	if c == "" {
		return
	}
	if p.last == nil {
		p.pending = join(p.pending, c)
		return
	}
	p.last.After = join(p.last.After, c)
}

// flushComment files a comment that no move followed (at the end of a
// variation or of the game) after the last move, or on the root.
func (p *parser) flushComment() {
	if p.pending == "" {
		return
	}
	if p.last != nil {
		p.last.After = join(p.last.After, p.pending)
	} else if p.cur == p.g.Root {
		p.g.Root.After = join(p.g.Root.After, p.pending)
	} else {
		p.cur.After = join(p.cur.After, p.pending)
	}
	p.pending = ""
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

// token reads one word of movetext: a move number, a move, a NAG or
// glyph, or a termination marker.
func (p *parser) token(tok string) error {
	if isResult(tok) {
		if len(p.stack) == 0 {
			if tok == "½-½" {
				tok = "1/2-1/2"
			}
			p.g.Result = tok
		}
		return nil
	}
	if strings.HasPrefix(tok, "$") {
		n, err := strconv.Atoi(tok[1:])
		if err != nil || n < 0 || n > 255 {
			return fmt.Errorf("bad NAG %q", tok)
		}
		if p.last != nil {
			p.last.NAGs = append(p.last.NAGs, n)
		}
		return nil
	}
	// A move number, alone or glued to the move: "12.", "12...", "1.e4".
	k := 0
	for k < len(tok) && tok[k] >= '0' && tok[k] <= '9' {
		k++
	}
	if k > 0 && k < len(tok) && (tok[k] == '.' || strings.HasPrefix(tok[k:], "…")) {
		tok = strings.TrimLeft(tok[k:], ".…")
		if tok == "" {
			return nil
		}
		if isResult(tok) {
			return p.token(tok)
		}
	} else if k == len(tok) {
		return nil // a bare number (a move number without its dot)
	}
	if nag, ok := glyphNAG(tok); ok {
		if p.last != nil && nag > 0 {
			p.last.NAGs = append(p.last.NAGs, nag)
		}
		return nil
	}
	return p.move(tok)
}

// move plays one move, as written, from the current position.
func (p *parser) move(tok string) error {
	san := normalizeSAN(tok)
	var m board.Move
	switch san {
	case "--", "Z0", "0000", "<>", "@@@@":
		// A null move (a threat shown by passing): the other side moves.
		if p.pos.InCheck() {
			return fmt.Errorf("%s: a null move while in check", moveLabel(&p.pos, tok))
		}
		m = board.NoMove
	default:
		var err error
		m, err = p.pos.ParseSAN(san)
		if err != nil {
			return fmt.Errorf("%s: %v", moveLabel(&p.pos, tok), sanReason(err))
		}
	}
	n := p.cur.Add(m)
	n.SAN, n.Line = tok, p.line
	if p.pending != "" {
		n.Before, p.pending = p.pending, ""
	}
	p.before[n] = p.pos
	if m == board.NoMove {
		passed, ok := p.pos.Passed()
		if !ok {
			return fmt.Errorf("%s: a null move that leaves no legal position", moveLabel(&p.pos, tok))
		}
		p.pos = passed
	} else {
		p.pos.Play(m)
	}
	p.cur, p.last = n, n
	return nil
}

// sanReason is what ParseSAN said, without the move it repeats.
func sanReason(err error) string {
	if me, ok := err.(*board.MoveError); ok {
		return me.Reason
	}
	return err.Error()
}

// moveLabel names a move by its number as a reader finds it: "3.Qg4",
// "3...Kh8".
func moveLabel(pos *board.Position, tok string) string {
	if pos.Side() == board.White {
		return fmt.Sprintf("%d.%s", pos.FullmoveNumber(), tok)
	}
	return fmt.Sprintf("%d...%s", pos.FullmoveNumber(), tok)
}

// normalizeSAN maps what real files write to the SAN ParseSAN reads:
// figurines to letters, '×' and ':' to 'x', '‡' to '#'.
func normalizeSAN(s string) string {
	if isASCIIString(s) {
		return strings.ReplaceAll(s, ":", "x")
	}
	return sanReplacer.Replace(s)
}

var sanReplacer = strings.NewReplacer("♔", "K", "♕", "Q", "♖", "R", "♗", "B", "♘", "N",
	"♚", "K", "♛", "Q", "♜", "R", "♝", "B", "♞", "N", "×", "x", ":", "x", "‡", "#", "–", "-")

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// glyphs are the move and position assessments written as symbols, and
// their NAGs (0: kept nowhere).
var glyphs = map[string]int{
	"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6, "□": 7,
	"=": 10, "∞": 13, "+=": 14, "⩲": 14, "=+": 15, "⩱": 15, "±": 16, "+/-": 16, "∓": 17, "-/+": 17,
	"+-": 18, "+−": 18, "-+": 19, "−+": 19, "=/∞": 44, "∞/=": 44, "N": 146,
	"→": 40, "↑": 36, "⇆": 132, "Δ": 140, "⊥": 0, "⨀": 0, "○": 22, "⟳": 32,
}

// glyphNAG reports whether tok is an assessment glyph, and its NAG.
func glyphNAG(tok string) (int, bool) {
	n, ok := glyphs[tok]
	return n, ok
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
