package puzzles

import (
	"fmt"
	"slices"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/stipulation"
)

// solutionTexts writes each solution as UCI moves and as a line of text,
// in Popeye's order (it sorts sols).
func solutionTexts(pos board.Position, sols []stipulation.Line, san bool, st stipulation.Stipulation) ([][]string, []string) {
	// the last move is a mate generator's, unless the other side is
	// forced to it (hs#, hr#, ser-s#, ser-r#: a defence)
	byMate := st.Kind != stipulation.HelpSelf && st.Kind != stipulation.HelpReflex &&
		st.Kind != stipulation.SeriesSelf && st.Kind != stipulation.SeriesReflex
	popeyeOrder(pos, sols, byMate)
	if st.Kind == stipulation.HelpReciprocal {
		reciprocalOrder(sols, st.Plies()-2)
	}
	var ucis [][]string
	var texts []string
	for _, s := range sols {
		ucis = append(ucis, uciMoves(s))
		texts = append(texts, SolutionText(pos, s, st, san))
	}
	return ucis, texts
}

// reciprocalOrder puts, among the solutions of a reciprocal helpmate
// that share their first plies (the help play before its two endings),
// those that end in a helpmate before those that end in a mate, as
// Popeye prints them; sols is in Popeye's order otherwise.
func reciprocalOrder(sols []stipulation.Line, plies int) {
	for i := 0; i < len(sols); {
		j := i + 1
		for j < len(sols) && slices.Equal(sols[j][:plies], sols[i][:plies]) {
			j++
		}
		slices.SortStableFunc(sols[i:j], func(a, b stipulation.Line) int { return len(b) - len(a) })
		i = j
	}
}

// SolutionText writes a solution of st as Popeye prints it: LineText for
// helpmates, each series move numbered on its own for series-movers
// ("1.Kg1*f1   2.Tg2-g1 ... 5.Lf4-d2 Kd1*d2 ="), and " =" after a
// stalemate.
func SolutionText(pos board.Position, line []board.Move, st stipulation.Stipulation, san bool) string {
	var text string
	if st.IsSeries() {
		var b strings.Builder
		for i, m := range line {
			num, pass := seriesStep(st, i)
			switch {
			case num == 0: // the other side's last move
				b.WriteByte(' ')
			case i > 0 && san:
				b.WriteByte(' ')
			case i > 0:
				b.WriteString("   ")
			}
			if num > 0 {
				fmt.Fprintf(&b, "%d.", num)
			}
			b.WriteString(moveText(pos, m, san))
			pos.Play(m)
			if pass {
				pos.Pass()
			}
		}
		text = b.String()
	} else {
		text = LineText(pos, line, san, st.Half)
	}
	if st.Aim == stipulation.Stalemate {
		text += " ="
	}
	return text
}

// seriesStep tells, for the i-th move of a series-mover's solution, its
// number as Popeye prints it (introductory moves from 1, then the series
// from 1; 0 for the other side's last move) and whether the other side
// passes after it (between the moves of a series).
func seriesStep(st stipulation.Stipulation, i int) (num int, pass bool) {
	if i < st.Intro {
		return i + 1, i+1 < st.Intro
	}
	if k := i - st.Intro; k < st.Moves {
		return k + 1, k+1 < st.Moves
	}
	return 0, false
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
