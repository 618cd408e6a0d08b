package epd

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"mateline.dev/mateline/record"
)

// token is a word or a quoted string of an EPD line; sep marks a semicolon.
// col is the 1-based column (in characters) where it starts in the line.
type token struct {
	text   string
	quoted bool
	sep    bool
	col    int
	// unclosed marks a quoted string that runs to the end of the line.
	unclosed bool
}

// tokenize splits the operations of line, from byte offset start on, into
// words, quoted strings and semicolons. A double quote opens a string only
// where an operand begins: inside a word (00'40" in the ChestUCI timing
// comments) it is an ordinary character. Inside a string, \" and \\ are
// escapes and a semicolon is text. A string left open runs to the end of
// the line and is marked unclosed: the caller decides what that costs.
func tokenize(line string, start int) []token {
	var toks []token
	col := func(i int) int { return utf8.RuneCountInString(line[:i]) + 1 }
	for i := start; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == ';':
			toks = append(toks, token{sep: true, col: col(i)})
			i++
		case c == '"':
			var b strings.Builder
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) && (line[j+1] == '"' || line[j+1] == '\\') {
					j++
				}
				b.WriteByte(line[j])
			}
			toks = append(toks, token{text: b.String(), quoted: true, col: col(i), unclosed: j >= len(line)})
			i = j + 1
		default:
			j := i
			for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != ';' {
				j++
			}
			toks = append(toks, token{text: line[i:j], col: col(i)})
			i = j
		}
	}
	return toks
}

// looseOpcodes are the opcodes recognised when a line has no semicolons.
var looseOpcodes = map[string]bool{
	"acd": true, "acn": true, "acs": true, "am": true, "bm": true, "ce": true, "dm": true,
	"fmvn": true, "hmvc": true, "id": true, "pm": true, "pv": true, "sm": true, "stip": true,
	"c0": true, "c1": true, "c2": true, "c3": true, "c4": true, "c5": true, "c6": true, "c7": true, "c8": true, "c9": true,
}

// opsParse is what parseOps read: the operations, problems that cost the
// record nothing but a warning, and the first problem that makes the line
// unreadable.
type opsParse struct {
	ops      []record.Op
	warnings []string
	err      error
}

// parseOps reads the operations of line from byte offset start on. With
// no semicolon in the line, the loose dialect applies: a known opcode
// starts a new operation. An unclosed quote in an annotation (a comment,
// pv, am, an analysis count) is a warning, and the rest of the line is its
// text; anywhere else the line is unreadable.
func parseOps(line string, start int) opsParse {
	toks := tokenize(line, start)
	hasSep := false
	for _, t := range toks {
		hasSep = hasSep || t.sep
	}
	var p opsParse
	cur := -1 // index of the operation being read
	// looseStart says whether token i starts an operation in the loose
	// dialect: a known opcode, but c1-c8 only before a quoted string, for
	// they are also pawn moves ("bm c4 dm 21").
	looseStart := func(i int) bool {
		t := toks[i]
		if hasSep || t.quoted || !looseOpcodes[t.text] {
			return false
		}
		return !record.IsComment(t.text) || i+1 < len(toks) && toks[i+1].quoted
	}
	for i, t := range toks {
		switch {
		case t.sep:
			cur = -1
			continue
		case t.quoted && cur < 0:
			p.err = fmt.Errorf("column %d: an operation starts with a quoted string %q", t.col, truncate(t.text, 20))
			return p
		case cur < 0 || looseStart(i):
			p.ops = append(p.ops, record.Op{Code: t.text})
			cur = len(p.ops) - 1
			continue
		}
		op := &p.ops[cur]
		op.Args = append(op.Args, t.text)
		if t.unclosed {
			if !isAnnotation(op.Code) {
				p.err = fmt.Errorf("%s: unclosed quote at column %d", op.Code, t.col)
				return p
			}
			p.warnings = append(p.warnings, fmt.Sprintf("%s: unclosed quote at column %d; the rest of the line is taken as its text", op.Code, t.col))
		}
	}
	return p
}

// isAnnotation reports whether an opcode only annotates a record (pv, am,
// acd, acn, acs, ce, c0-c9, and opcodes mateline does not know): a
// malformed one gets a warning and never costs the record. The claims (dm,
// bm, stip), the id and the clocks (hmvc, fmvn) are not annotations.
func isAnnotation(code string) bool {
	switch code {
	case "dm", "bm", "id", "hmvc", "fmvn", "stip":
		return false
	}
	return true
}

// truncate cuts s to n bytes for a message, marking the cut with "...".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
