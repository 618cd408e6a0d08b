package puzzles

import (
	"fmt"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/stipulation"
)

// solutionTexts writes each solution as UCI moves and as a line of text,
// in Popeye's order (it sorts sols).
func solutionTexts(pos board.Position, sols []stipulation.Line, san, lone bool) ([][]string, []string) {
	popeyeOrder(pos, sols)
	var ucis [][]string
	var texts []string
	for _, s := range sols {
		ucis = append(ucis, uciMoves(s))
		texts = append(texts, LineText(pos, s, san, lone))
	}
	return ucis, texts
}

// moveText is one move in Popeye's long notation, or SAN.
func moveText(pos board.Position, m board.Move, san bool) string {
	if san {
		return pos.SAN(m)
	}
	return pos.LongNotation(m)
}

// LineText writes a line from pos as Popeye prints a solution: moves in
// Popeye's long notation with three spaces before each move number (or
// SAN, with one), numbered in pairs from 1; with lone (h#N.5) the first move stands alone
// as "1..." and the pairs are numbered from 2.
func LineText(pos board.Position, line []board.Move, san, lone bool) string {
	var b strings.Builder
	move, off := 1, 0
	for i, m := range line {
		switch {
		case lone && i == 0:
			b.WriteString("1...")
			move, off = 2, 1
		case (i-off)%2 == 0:
			if i > 0 && san {
				b.WriteByte(' ')
			} else if i > 0 {
				b.WriteString("   ")
			}
			fmt.Fprintf(&b, "%d.", move)
			move++
		default:
			b.WriteByte(' ')
		}
		b.WriteString(moveText(pos, m, san))
		pos.Play(m)
	}
	return b.String()
}
