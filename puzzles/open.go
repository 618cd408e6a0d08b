package puzzles

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// Format is an input format.
type Format int

// The input formats.
const (
	FormatAuto Format = iota // tell by the content
	FormatEPD
	FormatLichessCSV
	FormatPopeye // Popeye's problem language
	FormatPGN    // Portable Game Notation: a game a record
)

// ParseInputFormat reads --input-format: auto, epd, csv, popeye or pgn.
func ParseInputFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return FormatAuto, nil
	case "epd":
		return FormatEPD, nil
	case "csv", "lichess":
		return FormatLichessCSV, nil
	case "popeye", "inp":
		return FormatPopeye, nil
	case "pgn":
		return FormatPGN, nil
	}
	return FormatAuto, fmt.Errorf("--input-format %q: want auto, epd, csv, popeye or pgn", s)
}

// Open opens a puzzle file ("-" for standard input) and returns a reader
// for its format: f, or with FormatAuto the format its first line shows (a
// comma-separated header naming FEN and Moves is Lichess CSV, anything
// else EPD), whatever the file's name. The caller closes the closer.
func Open(path string, f Format) (Reader, io.Closer, error) {
	var rc io.ReadCloser = os.Stdin
	if path != "-" {
		file, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		if st, err := file.Stat(); err == nil && st.IsDir() {
			file.Close()
			return nil, nil, fmt.Errorf("%s is a folder, not a puzzle file", path)
		}
		rc = file
	}
	br := bufio.NewReaderSize(rc, 64<<10)
	if f == FormatAuto {
		f = Sniff(br)
	}
	return NewReader(br, path, f), rc, nil
}

// ReadFile reads every record of a puzzle file, in the format its content
// shows. Unreadable lines are records with Err set, as from a Reader; the
// error is for the file itself (missing, unreadable). It is for suites
// small enough to hold in memory: a batch streams through Open.
func ReadFile(path string) ([]Record, error) {
	r, c, err := Open(path, FormatAuto)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return ReadAll(r)
}

// NewReader returns a reader of the given format.
func NewReader(r io.Reader, source string, f Format) Reader {
	switch f {
	case FormatLichessCSV:
		return NewLichessReader(r, source)
	case FormatPopeye:
		return NewPopeyeReader(r, source)
	case FormatPGN:
		return NewPGNReader(r, source)
	}
	return NewEPDReader(r, source)
}

// Sniff guesses the format from the first lines without consuming them:
// a first word that begins Popeye's BeginProblem (or AnfangProblem,
// DebutProbleme) is a Popeye problem file,
// a first line that is a tag pair ([Event "..."]) or a move number is PGN,
// a comma-separated header naming FEN and Moves is Lichess CSV, anything
// else EPD.
func Sniff(br *bufio.Reader) Format {
	head, _ := br.Peek(4096)
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	if f := bytes.Fields(head); len(f) > 0 && popLangOf(string(f[0])) != nil {
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
