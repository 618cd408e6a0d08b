package tablefile

import (
	"fmt"
	"sort"
	"strings"

	"mateline.dev/mateline/board"
)

// MaxMen is the most men (kings included) a table holds: the most the
// store builds and probes.
const MaxMen = 5

// PlanMen is the most men a build plan covers (BuildPlan): the six-man
// tables are laid out, counted and costed, not built (docs/dtm.md, "Six
// men").
const PlanMen = 6

// Material is a material signature: the pieces of each side besides its
// king, strongest first (Q R B N P), as in "KQRvKR". The zero value is
// KvK.
type Material struct {
	// Pieces lists each side's non-king pieces, strongest first.
	Pieces [2][]board.PieceType
}

// pieceOrder is the order pieces are written and stored in.
var pieceOrder = []board.PieceType{board.Queen, board.Rook, board.Bishop, board.Knight, board.Pawn}

const pieceLetters = "PNBRQK"

func letter(t board.PieceType) byte { return pieceLetters[t-1] }

// ParseMaterial reads a signature such as "KQRvKR" (or "KQRKR", or
// lower case). Each side has one king, written first; at most MaxMen men
// in all.
func ParseMaterial(s string) (Material, error) {
	m, err := ParsePlannedMaterial(s)
	if err == nil && m.Men() > MaxMen {
		return m, fmt.Errorf("material %q: %d men, tables hold at most %d", s, m.Men(), MaxMen)
	}
	return m, err
}

// ParsePlannedMaterial is ParseMaterial for a build plan: at most PlanMen
// men.
func ParsePlannedMaterial(s string) (Material, error) {
	var m Material
	text := strings.ToUpper(strings.TrimSpace(s))
	var sides []string
	if i := strings.Index(text, "V"); i >= 0 {
		sides = []string{text[:i], text[i+1:]}
	} else if i := strings.LastIndex(text, "K"); i > 0 {
		sides = []string{text[:i], text[i:]}
	} else {
		return m, fmt.Errorf("material %q: want two sides, as in KQvKR", s)
	}
	for c, side := range sides {
		if len(side) == 0 || side[0] != 'K' {
			return m, fmt.Errorf("material %q: each side starts with its king K", s)
		}
		for i := 1; i < len(side); i++ {
			j := strings.IndexByte(pieceLetters[:5], side[i])
			if j < 0 {
				return m, fmt.Errorf("material %q: %q is not a piece (K Q R B N P)", s, side[i])
			}
			m.Pieces[c] = append(m.Pieces[c], board.PieceType(j+1))
		}
		sortPieces(m.Pieces[c])
	}
	if n := m.Men(); n > PlanMen {
		return m, fmt.Errorf("material %q: %d men, tables hold at most %d", s, n, PlanMen)
	}
	return m, nil
}

func sortPieces(p []board.PieceType) {
	sort.Slice(p, func(i, j int) bool { return rank(p[i]) < rank(p[j]) })
}

func rank(t board.PieceType) int {
	for i, u := range pieceOrder {
		if u == t {
			return i
		}
	}
	return len(pieceOrder)
}

// MaterialOf returns the signature of a position.
func MaterialOf(pos *board.Position) Material {
	var m Material
	for c := board.White; c <= board.Black; c++ {
		for _, t := range pieceOrder {
			for n := pos.Pieces(c, t).Count(); n > 0; n-- {
				m.Pieces[c] = append(m.Pieces[c], t)
			}
		}
	}
	return m
}

// Men counts the men, kings included.
func (m Material) Men() int { return 2 + len(m.Pieces[0]) + len(m.Pieces[1]) }

// String writes the signature as "KQRvKR".
func (m Material) String() string {
	var b strings.Builder
	for c := 0; c < 2; c++ {
		if c == 1 {
			b.WriteByte('v')
		}
		b.WriteByte('K')
		for _, t := range m.Pieces[c] {
			b.WriteByte(letter(t))
		}
	}
	return b.String()
}

// HasPawns reports whether either side has a pawn.
func (m Material) HasPawns() bool {
	for c := 0; c < 2; c++ {
		for _, t := range m.Pieces[c] {
			if t == board.Pawn {
				return true
			}
		}
	}
	return false
}

// value orders sides by strength, to pick which colour a table stores as
// White.
func sideValue(p []board.PieceType) int {
	v := 0
	for _, t := range p {
		v += [...]int{0, 1, 3, 3, 5, 9, 0}[t]*100 + int(t)
	}
	return v*10 + len(p)
}

// Canonical returns the signature a table is stored under (the stronger
// side as White) and whether the colours were swapped to get it.
func (m Material) Canonical() (Material, bool) {
	a, b := sideValue(m.Pieces[0]), sideValue(m.Pieces[1])
	if a > b || a == b && m.Side(0) <= m.Side(1) {
		return m, false
	}
	return Material{Pieces: [2][]board.PieceType{m.Pieces[1], m.Pieces[0]}}, true
}

func (m Material) Side(c int) string {
	b := []byte{'K'}
	for _, t := range m.Pieces[c] {
		b = append(b, letter(t))
	}
	return string(b)
}

// Bare reports whether each side has its king only (a draw without a
// table).
func (m Material) Bare() bool { return len(m.Pieces[0])+len(m.Pieces[1]) == 0 }

// Children returns the canonical signatures a move can lead to from m:
// one piece captured, a pawn promoted, or both. Tables for these must
// exist before m's table is built.
func (m Material) Children() []Material {
	seen := map[string]bool{m.canonicalString(): true}
	var out []Material
	add := func(c Material) {
		k := c.canonicalString()
		if !seen[k] {
			seen[k] = true
			cc, _ := c.Canonical()
			out = append(out, cc)
		}
	}
	for c := 0; c < 2; c++ {
		for i := range m.Pieces[c] {
			add(m.without(c, i)) // a capture of this piece
		}
		for i, t := range m.Pieces[c] {
			if t != board.Pawn {
				continue
			}
			for _, q := range Promotions {
				promoted := m.replaced(c, i, q)
				add(promoted)
				for j := range promoted.Pieces[1-c] { // promotion with capture
					add(promoted.without(1-c, j))
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func (m Material) canonicalString() string {
	c, _ := m.Canonical()
	return c.String()
}

func (m Material) clone() Material {
	var c Material
	for s := 0; s < 2; s++ {
		c.Pieces[s] = append([]board.PieceType(nil), m.Pieces[s]...)
	}
	return c
}

func (m Material) without(c, i int) Material {
	n := m.clone()
	n.Pieces[c] = append(n.Pieces[c][:i], n.Pieces[c][i+1:]...)
	return n
}

func (m Material) replaced(c, i int, t board.PieceType) Material {
	n := m.clone()
	n.Pieces[c][i] = t
	sortPieces(n.Pieces[c])
	return n
}

// AllUpTo returns every canonical signature of at most men men (and at
// least one piece besides the kings), in an order where each table's
// children come before it.
func AllUpTo(men int) []Material {
	var out []Material
	seen := map[string]bool{}
	var sides [][]board.PieceType
	var gen func(prefix []board.PieceType, from, left int)
	gen = func(prefix []board.PieceType, from, left int) {
		sides = append(sides, append([]board.PieceType(nil), prefix...))
		if left == 0 {
			return
		}
		for i := from; i < len(pieceOrder); i++ {
			gen(append(prefix, pieceOrder[i]), i, left-1)
		}
	}
	gen(nil, 0, men-2)
	for _, w := range sides {
		for _, b := range sides {
			m := Material{Pieces: [2][]board.PieceType{w, b}}
			if m.Men() > men || m.Bare() {
				continue
			}
			c, _ := m.Canonical()
			if !seen[c.String()] {
				seen[c.String()] = true
				out = append(out, c)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Men() != out[j].Men() {
			return out[i].Men() < out[j].Men()
		}
		// promotions lead to siblings with more pieces' worth: pawnless first,
		// then fewer pawns
		if pi, pj := out[i].pawns(), out[j].pawns(); pi != pj {
			return pi < pj
		}
		return out[i].String() < out[j].String()
	})
	return out
}

func (m Material) pawns() int {
	n := 0
	for c := 0; c < 2; c++ {
		for _, t := range m.Pieces[c] {
			if t == board.Pawn {
				n++
			}
		}
	}
	return n
}
