package puzzles

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/pgn"
	"mateline.dev/mateline/solver"
)

// PGN puzzle collections: every game is a record. Its position is the FEN
// tag (else the initial position), its key the main line's first move,
// and its claim a stated one (a tag or the game's first comment: "Mate in
// two", "#2") or else, from a set-up position, the main line's own length
// when it ends in mate.
// The main line and the variations given for the defences are the
// author's solution, which validate checks move by move.

// PGNInfo is what a PGN game says besides its position and claim.
type PGNInfo struct {
	Game  int    `json:"game"` // its 1-based place in the file
	Event string `json:"event,omitempty"`
	Site  string `json:"site,omitempty"`
	White string `json:"white,omitempty"`
	Black string `json:"black,omitempty"`
	// ClaimFrom says where the claim was read: "tag White", "comment",
	// "main line".
	ClaimFrom string `json:"claim_from,omitempty"`
	// Tags are every tag pair, in input order, and Game the whole game,
	// for the PGN writer and for checking the author's line.
	Tags []pgn.Tag `json:"-"`
	Tree *pgn.Game `json:"-"`
}

// pgnReader reads the games of a PGN file as records.
type pgnReader struct {
	source string
	sp     *pgn.Splitter
}

// NewPGNReader returns a reader of the games of a PGN stream.
func NewPGNReader(r io.Reader, source string) Reader {
	return &pgnReader{source: source, sp: pgn.NewSplitter(r)}
}

func (r *pgnReader) Next() (Record, error) { return ParseNext(r.NextRaw) }

func (r *pgnReader) NextRaw() (Raw, error) {
	c, err := r.sp.Next()
	if err != nil {
		return Raw{}, err
	}
	source := r.source
	return NewRaw(c.Line, "", func(int, string) Record { return pgnRecord(source, c) }), nil
}

// pgnRecord makes the record of one game.
func pgnRecord(source string, c pgn.Chunk) Record {
	rec := Record{Source: source, Line: c.Line, ID: fmt.Sprintf("game:%d", c.Number)}
	g, err := pgn.Parse(c)
	if err != nil {
		line := c.Line
		var pe *pgn.Error
		if errors.As(err, &pe) {
			line, err = pe.Line, fmt.Errorf("game %d: %w", pe.Game, pe.Err)
		}
		rec.Err = &LineError{source, line, err}
		return rec
	}
	info := &PGNInfo{Game: c.Number, Event: g.Tag("Event"), Site: g.Tag("Site"), White: g.Tag("White"), Black: g.Tag("Black"),
		Tags: g.Tags, Tree: g}
	rec.PGN = info
	rec.SetPosition(g.Start)
	rec.Warnings = append(rec.Warnings, g.Warnings...)
	main, _ := g.MainLine()
	for i, m := range main {
		if m == board.NoMove {
			main = main[:i] // a null move: the rest is no solution
			break
		}
	}
	rec.Claim.Line = main
	if len(main) > 0 {
		rec.Claim.Keys = main[:1]
	}
	lineMate := lineMate(rec.Pos, main)
	stated, from := statedMate(g)
	switch {
	case stated != 0:
		rec.Claim.Mate, info.ClaimFrom = stated, from
		if lineMate != 0 && lineMate != stated {
			rec.Warnings = append(rec.Warnings, fmt.Sprintf("the %s says %s, the main line mates in %d moves: the %s is the claim",
				from, stated.Describe(), lineMate.Moves(), from))
		}
	case lineMate != 0 && g.Tag("FEN") != "":
		// A game from the initial position that ends in mate is a game,
		// not a puzzle: only a set-up position makes its line a claim.
		rec.Claim.Mate, info.ClaimFrom = lineMate, "main line"
	}
	return rec
}

// lineMate is the mate a line ends in, seen from the side to move at its
// start (0 when it does not end in checkmate).
func lineMate(pos board.Position, line []board.Move) solver.Mate {
	if len(line) == 0 {
		return 0
	}
	for _, m := range line {
		pos.Play(m)
	}
	if !pos.IsCheckmate() {
		return 0
	}
	return solver.MateInPlies(len(line))
}

// The claims read from tags and comments (docs/formats.md): "mate in N"
// (N in digits or in words up to twenty, "mates in", "to mate in"),
// "mated in N", and in a comment a whole "#N".
var (
	mateInRe  = regexp.MustCompile(`(?i)\bmate[sd]?\s+in\s+([0-9]+|[a-z]+)\b`)
	hashRe    = regexp.MustCompile(`^\s*#\s?([0-9]+)\s*$`)
	mateWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
		"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
		"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20}
)

// statedMate reads a claim stated in the game: in the White, Black, Event
// or Annotator tag (in that order; a whole "#N" not in Event), or in the
// comment before the first move. It returns the claim and where it was
// read.
func statedMate(g *pgn.Game) (solver.Mate, string) {
	for _, tag := range []string{"White", "Black", "Event", "Annotator"} {
		// "#N" alone is a claim in the tags that name the sides, where
		// puzzle files write the stipulation; in Event it numbers the
		// puzzle more often ("#12 ..." or "#12").
		read := mateIn
		if tag == "Event" {
			read = mateInWords
		}
		if m := read(g.Tag(tag)); m != 0 {
			return m, "tag " + tag
		}
	}
	comment := g.Root.After
	if len(g.Root.Children) > 0 {
		comment = join(comment, g.Root.Children[0].Before)
	}
	if m := mateIn(comment); m != 0 {
		return m, "comment"
	}
	return 0, ""
}

// join joins two comments with a space.
func join(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + " " + b
}

// mateIn reads "mate in N", "mated in N" or a whole "#N" in a text.
func mateIn(s string) solver.Mate {
	if m := mateInWords(s); m != 0 {
		return m
	}
	if m := hashRe.FindStringSubmatch(s); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 && n <= solver.MaxMateMoves {
			return solver.Mate(n)
		}
	}
	return 0
}

// mateInWords reads "mate in N" or "mated in N" in a text.
func mateInWords(s string) solver.Mate {
	if s == "" {
		return 0
	}
	if m := mateInRe.FindStringSubmatch(s); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			n = mateWords[strings.ToLower(m[1])]
		}
		if n <= 0 || n > solver.MaxMateMoves {
			return 0
		}
		if strings.HasPrefix(strings.ToLower(m[0]), "mated") {
			return solver.Mate(-n)
		}
		return solver.Mate(n)
	}
	return 0
}
