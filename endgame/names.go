package endgame

import (
	"strings"

	"mateline.dev/mateline/board"
)

// pieceLetters orders piece letters strongest first, as in table names.
const pieceLetters = "KQRBNP"

// letterOf maps a piece type to its table-name letter.
func letterOf(t board.PieceType) byte { return " PNBRQK"[t] }

// lessSide reports whether side a comes before side b in a canonical name:
// more pieces first, then the stronger letters at the first difference.
func lessSide(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] {
			return strings.IndexByte(pieceLetters, a[i]) < strings.IndexByte(pieceLetters, b[i])
		}
	}
	return false
}

// canonicalName returns the table name for the two sides, and whether the
// first side given is the table's second side (the position is swapped).
func canonicalName(white, black string) (name string, swapped bool) {
	if lessSide(black, white) {
		return black + "v" + white, true
	}
	return white + "v" + black, false
}

// isCanonical reports whether a file base name is a canonical table name
// of at most 7 pieces.
func isCanonical(name string) bool {
	w, b, ok := strings.Cut(name, "v")
	if !ok || !validSide(w) || !validSide(b) || len(w)+len(b) > 7 {
		return false
	}
	c, _ := canonicalName(w, b)
	return c == name
}

func validSide(s string) bool {
	if len(s) == 0 || s[0] != 'K' {
		return false
	}
	last := 0
	for i := 1; i < len(s); i++ {
		k := strings.IndexByte(pieceLetters[1:], s[i]) + 1
		if k <= 0 || k < last {
			return false
		}
		last = k
	}
	return true
}
