package pgnrec

import (
	"regexp"
	"strconv"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/pgn"
	"mateline.dev/mateline/problem"
)

// lineMate is the mate a line ends in, seen from the side to move at its
// start (0 when it does not end in checkmate).
func lineMate(pos board.Position, line []board.Move) problem.Mate {
	if len(line) == 0 {
		return 0
	}
	for _, m := range line {
		pos.Play(m)
	}
	if !pos.IsCheckmate() {
		return 0
	}
	return problem.MateInPlies(len(line))
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
func statedMate(g *pgn.Game) (problem.Mate, string) {
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
func mateIn(s string) problem.Mate {
	if m := mateInWords(s); m != 0 {
		return m
	}
	if m := hashRe.FindStringSubmatch(s); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 && n <= problem.MaxMateMoves {
			return problem.Mate(n)
		}
	}
	return 0
}

// mateInWords reads "mate in N" or "mated in N" in a text.
func mateInWords(s string) problem.Mate {
	if s == "" {
		return 0
	}
	if m := mateInRe.FindStringSubmatch(s); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			n = mateWords[strings.ToLower(m[1])]
		}
		if n <= 0 || n > problem.MaxMateMoves {
			return 0
		}
		if strings.HasPrefix(strings.ToLower(m[0]), "mated") {
			return problem.Mate(-n)
		}
		return problem.Mate(n)
	}
	return 0
}
