package pgn

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxGameBytes bounds the text of one game: a longer one is an error (the
// reader skips to the next game), so memory stays bounded whatever the
// file holds.
const MaxGameBytes = 4 << 20

// Chunk is one game's text as a Splitter cut it from the file.
type Chunk struct {
	Number int    // 1-based place of the game in the file
	Line   int    // the line its text starts on
	Text   string // its tags and movetext, lines joined by "\n"
	// Err, when not nil, says why the game cannot be read at all (it is
	// longer than MaxGameBytes); the splitter went on to the next game.
	Err error
}

// ErrTooLong marks a game longer than MaxGameBytes.
var ErrTooLong = errors.New("game longer than the reader's limit")

// Splitter cuts a PGN stream into games, one at a time: a game is its tag
// pairs and its movetext up to the termination marker (1-0, 0-1, 1/2-1/2,
// *) outside comments and variations, or up to the next tag section, or
// to the end of the file. It skips '%' escape lines, a UTF-8 byte-order
// mark and carriage returns, and holds one game in memory at a time.
type Splitter struct {
	br      *bufio.Reader
	line    int
	number  int
	started bool
	// pending is text of the current line left over after a game's
	// termination marker: it starts the next game.
	pending    *string
	pendingNum int
	err        error
}

// NewSplitter returns a splitter reading r.
func NewSplitter(r io.Reader) *Splitter {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	return &Splitter{br: br}
}

// nextLine returns the next line without its end, the line's number, and
// whether it was cut to MaxGameBytes; ok is false at the end of the input.
func (s *Splitter) nextLine() (text string, num int, cut, ok bool) {
	if s.pending != nil {
		text, num = *s.pending, s.pendingNum
		s.pending = nil
		return text, num, false, true
	}
	if s.err != nil {
		return "", 0, false, false
	}
	var b []byte
	for {
		chunk, err := s.br.ReadSlice('\n')
		if len(b)+len(chunk) <= MaxGameBytes {
			b = append(b, chunk...)
		} else {
			cut = true
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			s.err = err
			if len(b) == 0 && !cut {
				return "", 0, false, false
			}
		}
		break
	}
	s.line++
	text = strings.TrimRight(string(b), "\r\n")
	if !s.started {
		s.started = true
		text = strings.TrimPrefix(text, "\ufeff")
	}
	return text, s.line, cut, true
}

// Err returns the read error that ended the input, if it was not io.EOF.
func (s *Splitter) Err() error {
	if errors.Is(s.err, io.EOF) {
		return nil
	}
	return s.err
}

// Next returns the next game, or io.EOF after the last (or the read error
// that stopped the input).
func (s *Splitter) Next() (Chunk, error) {
	var b strings.Builder
	var c Chunk
	inComment, depth, movetext, tooLong := false, 0, false, false
	add := func(text string) {
		if tooLong || b.Len()+len(text)+1 > MaxGameBytes {
			tooLong = true
			return
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(text)
	}
	finish := func() (Chunk, error) {
		s.number++
		c.Number, c.Text = s.number, b.String()
		if tooLong {
			c.Err, c.Text = fmt.Errorf("%w (%d MiB)", ErrTooLong, MaxGameBytes>>20), ""
		}
		return c, nil
	}
	for {
		text, num, cut, ok := s.nextLine()
		if !ok {
			if c.Line > 0 {
				return finish()
			}
			if err := s.Err(); err != nil {
				return Chunk{}, err
			}
			return Chunk{}, io.EOF
		}
		if cut {
			// The rest of the line is lost, and with it where comments
			// and variations stand: a tag line starts the next game.
			tooLong, inComment, depth, movetext = true, false, 0, true
			if c.Line == 0 {
				c.Line = num
			}
			continue
		}
		if !inComment && strings.HasPrefix(text, "%") {
			continue // an escape line
		}
		trimmed := strings.TrimSpace(text)
		if !inComment && depth == 0 && movetext && strings.HasPrefix(trimmed, "[") {
			// A new tag section: the game before it had no marker.
			s.pending, s.pendingNum = &text, num
			return finish()
		}
		if trimmed == "" && c.Line == 0 {
			continue // blank lines between games
		}
		if c.Line == 0 {
			c.Line = num
		}
		if !movetext && !inComment && (trimmed == "" || strings.HasPrefix(trimmed, "[")) {
			add(text) // the tag section
			continue
		}
		movetext = true
		if end := scanMovetext(text, &inComment, &depth); end >= 0 {
			add(text[:end])
			if rest := text[end:]; strings.TrimSpace(rest) != "" {
				s.pending, s.pendingNum = &rest, num
			}
			return finish()
		}
		add(text)
	}
}

// scanMovetext follows one line of movetext through comments and
// variations, and returns the index just past a termination marker at the
// top level, or -1.
func scanMovetext(text string, inComment *bool, depth *int) int {
	i := 0
	for i < len(text) {
		ch := text[i]
		switch {
		case *inComment:
			if ch == '}' {
				*inComment = false
			}
			i++
			continue
		case ch == '{':
			*inComment = true
			i++
			continue
		case ch == ';':
			return -1 // a comment to the end of the line
		case ch == '(':
			*depth++
			i++
			continue
		case ch == ')':
			if *depth > 0 {
				*depth--
			}
			i++
			continue
		case isSpace(ch), ch == '}':
			i++ // a '}' that closes no comment is skipped
			continue
		}
		j := i
		for j < len(text) && !isSpace(text[j]) && !strings.ContainsRune("{}();", rune(text[j])) {
			j++
		}
		if *depth == 0 && isResult(text[i:j]) {
			return j
		}
		i = j
	}
	return -1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\v' }

// isResult reports whether a token is a game termination marker.
func isResult(tok string) bool {
	switch tok {
	case "1-0", "0-1", "1/2-1/2", "*", "½-½":
		return true
	}
	return false
}
