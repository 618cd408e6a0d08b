package board

import (
	"fmt"
	"strings"
)

// Diagram draws the position as text, White at the bottom, with the FEN,
// the key and the squares of any checking pieces underneath: what a
// "d" command of a UCI engine prints.
func (p *Position) Diagram() string {
	var b strings.Builder
	const rule = "\n +---+---+---+---+---+---+---+---+\n"
	b.WriteString(rule)
	for r := 7; r >= 0; r-- {
		for f := 0; f < 8; f++ {
			pc := p.PieceAt(Square(r*8 + f))
			fmt.Fprintf(&b, " | %s", pc)
		}
		fmt.Fprintf(&b, " | %d", r+1)
		b.WriteString(rule)
	}
	b.WriteString("   a   b   c   d   e   f   g   h\n\n")
	fmt.Fprintf(&b, "Fen: %s\nKey: %016X\nCheckers:", p.FEN(), p.Key())
	for c := p.Checkers(); c != 0; {
		fmt.Fprintf(&b, " %s", c.PopFirst())
	}
	b.WriteByte('\n')
	return b.String()
}
