package puzzles

import (
	"fmt"
	"slices"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/stipulation"
)

// solutionTexts writes each solution as UCI moves and as a line of text,
// in Popeye's order (it sorts sols).
func solutionTexts(pos board.Position, sols []stipulation.Line, san bool, st problem.Stipulation) ([][]string, []string) {
	// the last move is a mate generator's, unless the other side is
	// forced to it (hs#, hr#, ser-s#, ser-r#: a defence)
	byMate := st.Kind != problem.HelpSelf && st.Kind != problem.HelpReflex &&
		st.Kind != problem.SeriesSelf && st.Kind != problem.SeriesReflex
	popeyeOrder(pos, sols, byMate)
	if st.Kind == problem.HelpReciprocal {
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
func SolutionText(pos board.Position, line []board.Move, st problem.Stipulation, san bool) string {
	var text string
	if st.IsSeries() {
		var b strings.Builder
		steps := seriesSteps(pos, line, st)
		for i, m := range line {
			num, pass := steps[i].num, steps[i].pass
			switch {
			case num == 0: // the other side's move: a parry, or the last
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
	if st.Aim == problem.Stalemate {
		text += " ="
	}
	return text
}

// seriesStep is a move of a series-mover's solution as Popeye prints
// it: its number (introductory moves from 1, then the series from 1; 0
// for a move of the other side: a parry of pser-, or the last move) and
// whether the other side passes after it (between the moves of a series).
type seriesStep struct {
	num  int
	pass bool
}

// seriesSteps gives the steps of the moves of line, a solution of st
// from pos: in a parry series a series move that checks before the last
// is followed by the other side's parry, not by a pass.
func seriesSteps(pos board.Position, line []board.Move, st problem.Stipulation) []seriesStep {
	steps := make([]seriesStep, len(line))
	played, parry := 0, false
	for i, m := range line {
		pos.Play(m)
		switch {
		case i < st.Intro:
			steps[i] = seriesStep{i + 1, i+1 < st.Intro}
		case parry:
			parry = false
		case played < st.Moves:
			played++
			steps[i].num = played
			if played < st.Moves {
				parry = st.Parry && pos.InCheck()
				steps[i].pass = !parry
			}
		}
		if steps[i].pass {
			pos.Pass()
		}
	}
	return steps
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
