package popeye

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// lexer splits Popeye's input into words, as Popeye does: blanks,
// tabs, line ends, semicolons and commas separate them; case does not
// matter. It keeps the line each word is on, and gives the rest of a line
// to the commands that take free text (title, author, remark).
type lexer struct {
	r      *bufio.Reader
	line   int    // the line of the words in pending
	rest   string // what is left of the current line
	peeked *token // a word read ahead
	err    error  // the read error that ended the input (nil at EOF)
	eof    bool
}

// token is one word and the line it is on.
type token struct {
	text string
	line int
}

// maxLine bounds a line of a problem file.
const maxLine = 1 << 20

func newLexer(r io.Reader) *lexer {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	return &lexer{r: br}
}

// readLine loads the next line into rest; false at the end of the input.
func (lx *lexer) readLine() bool {
	if lx.eof {
		return false
	}
	var b strings.Builder
	for {
		chunk, err := lx.r.ReadSlice('\n')
		if b.Len() < maxLine {
			b.Write(chunk)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err != io.EOF {
				lx.err = err
			}
			lx.eof = true
			if b.Len() == 0 {
				return false
			}
		}
		break
	}
	lx.line++
	lx.rest = strings.TrimPrefix(b.String(), "\ufeff")
	return true
}

// isSpace reports whether c separates words.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == ','
}

// next returns the next word; false at the end of the input.
func (lx *lexer) next() (token, bool) {
	if lx.peeked != nil {
		w := *lx.peeked
		lx.peeked = nil
		return w, true
	}
	for {
		i := 0
		for i < len(lx.rest) && isSpace(lx.rest[i]) {
			i++
		}
		if i < len(lx.rest) {
			j := i
			for j < len(lx.rest) && !isSpace(lx.rest[j]) {
				j++
			}
			w := token{text: lx.rest[i:j], line: lx.line}
			lx.rest = lx.rest[j:]
			return w, true
		}
		if !lx.readLine() {
			return token{}, false
		}
	}
}

// peek returns the next word without taking it.
func (lx *lexer) peek() (token, bool) {
	w, ok := lx.next()
	if ok {
		lx.peeked = &w
	}
	return w, ok
}

// restOfLine returns the text left on the current line (a title, an
// author) and moves to the next line.
func (lx *lexer) restOfLine() string {
	if lx.peeked != nil {
		// a word read ahead starts the text
		w := *lx.peeked
		lx.peeked = nil
		if w.line == lx.line {
			return strings.TrimSpace(w.text + lx.takeRest())
		}
		return w.text
	}
	return strings.TrimSpace(lx.takeRest())
}

func (lx *lexer) takeRest() string {
	s := strings.TrimRight(lx.rest, "\r\n")
	lx.rest = ""
	return s
}

// keyword matches word against names, case aside: the name it spells, or
// the one name it is a prefix of. It is "" with an error when word is
// none of them or a prefix of several.
func keyword(word string, names []string) (string, error) {
	w := strings.ToLower(word)
	var found []string
	for _, n := range names {
		ln := strings.ToLower(n)
		if ln == w {
			return n, nil
		}
		if strings.HasPrefix(ln, w) {
			found = append(found, n)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("unknown word %q", word)
	}
	return "", fmt.Errorf("%q is %w: it may be %s", word, errAmbiguous, strings.Join(found, " or "))
}

// errAmbiguous is the error of a word that is a prefix of several
// keywords.
var errAmbiguous = errors.New("ambiguous")
