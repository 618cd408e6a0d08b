package inputs

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"

	"mateline.dev/mateline/popeye"
)

// Sniff guesses the format from the first lines without consuming them:
// a first word that begins Popeye's BeginProblem (or AnfangProblem,
// DebutProbleme) is a Popeye problem file,
// a first line that is a tag pair ([Event "..."]) or a move number is PGN,
// a comma-separated header naming FEN and Moves is Lichess CSV, anything
// else EPD.
func Sniff(br *bufio.Reader) Format {
	head, _ := br.Peek(4096)
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	if f := bytes.Fields(head); len(f) > 0 && popeye.Begins(string(f[0])) {
		return FormatPopeye
	}
	// The first line that is neither blank nor a PGN escape line.
	rest := head
	for len(rest) > 0 {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '%' {
			continue
		}
		if pgnTagLine.Match(t) || pgnMoveStart.Match(t) {
			return FormatPGN
		}
		break
	}
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	h := strings.ToLower(string(head))
	if strings.Contains(h, ",") && strings.Contains(h, "fen") && strings.Contains(h, "moves") {
		return FormatLichessCSV
	}
	return FormatEPD
}

// pgnTagLine and pgnMoveStart tell a PGN file by its first line: a tag
// pair, or movetext starting with a move number.
var (
	pgnTagLine   = regexp.MustCompile(`^\[[A-Za-z0-9_]+\s+"`)
	pgnMoveStart = regexp.MustCompile(`^1\.\s*(\.\.\s*)?[A-Za-z]`)
)
