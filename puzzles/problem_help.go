package puzzles

import (
	"context"
	"slices"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"

	"mateline.dev/mateline/stipulation"
)

// solveHelp fills o with every solution of a helpmate or a series-mover,
// then looks for solutions of fewer moves.
func solveHelp(ctx context.Context, rec *record.Record, o *Answer, lim stipulation.Limits, opt ProblemOptions) error {
	res, err := stipulation.Lines(ctx, rec.Pos, rec.Stip, lim)
	o.Nodes += res.Nodes
	o.SolutionCount = distinctSolutions(rec.Pos, res.Solutions, rec.Stip)
	o.Solutions, o.SolutionText = solutionTexts(rec.Pos, res.Solutions, opt.SAN, rec.Stip)
	if len(res.Solutions) > 0 {
		// the first solution is the record's line
		o.Status = StatusMate
		o.PV, o.PVSAN = uciMoves(res.Solutions[0]), sanMoves(rec.Pos, res.Solutions[0])
		o.LineSAN = rec.Pos.SANLine(res.Solutions[0])
		if rec.Stip.IsSeries() {
			// the other side passes between the series' moves
			o.PVSAN = seriesSAN(rec.Pos, res.Solutions[0], rec.Stip)
			o.LineSAN = SolutionText(rec.Pos, res.Solutions[0], rec.Stip, true)
		}
	}
	if err != nil {
		return err
	}
	o.Depth = rec.Stip.Moves
	if rec.Problem != nil && rec.Problem.SetPlay {
		if err := helpSetPlay(ctx, rec, o, lim, opt); err != nil {
			return err
		}
	}
	// The shortest solution: a helpmate solved in fewer moves, the same
	// side starting, is a cook (exact-: not looked for).
	short := rec.Stip
	short.Moves = lowest(rec.Stip)
	if rec.Stip.Exact {
		short.Moves = rec.Stip.Moves
	}
	for ; short.Moves < rec.Stip.Moves; short.Moves++ {
		sres, err := stipulation.Lines(ctx, rec.Pos, short, stipulation.Limits{Nodes: lim.Nodes})
		o.Nodes += sres.Nodes
		if err != nil {
			return err
		}
		if len(sres.Solutions) > 0 {
			o.Shorter = &Shorter{Stipulation: short.String()}
			o.Shorter.Solutions, o.ShorterText = solutionTexts(rec.Pos, sres.Solutions, opt.SAN, short)
			break
		}
	}
	return nil
}

// distinctSolutions counts the solutions of sols where one solution is
// printed as several lines: a reciprocal helpmate's help play with each
// of its endings; the play before the other side's forced last move
// (hs#, hr#, ser-s#, ser-r#: every move it has mates, or its mates);
// and a parry series where the other side chooses its parries (pser-#,
// pser-s#) up to its first parry, what follows a parry being a
// variation. 0 for the other stipulations, where each line is a
// solution.
func distinctSolutions(pos board.Position, sols []stipulation.Line, st problem.Stipulation) int {
	forcedEnd := st.Kind == problem.HelpSelf || st.Kind == problem.HelpReflex ||
		st.Kind == problem.SeriesSelf || st.Kind == problem.SeriesReflex
	forcedParry := st.Parry && (st.Kind == problem.SeriesDirect || st.Kind == problem.SeriesSelf)
	reci := st.Kind == problem.HelpReciprocal
	if !forcedEnd && !forcedParry && !reci {
		return 0
	}
	var seen []stipulation.Line
	for _, line := range sols {
		n := len(line)
		switch {
		case reci:
			n = st.Plies() - 2
		case forcedEnd:
			n--
		}
		if forcedParry {
			for i, step := range seriesSteps(pos, line, st) {
				if step.num == 0 && i < n {
					n = i
					break
				}
			}
		}
		if k := line[:n]; !slices.ContainsFunc(seen, func(s stipulation.Line) bool { return slices.Equal(s, k) }) {
			seen = append(seen, k)
		}
	}
	return len(seen)
}

// helpSetPlay fills o.SetPlay with a helpmate's set play: the other side
// moves first, and the play is one ply shorter, or shorter still when a
// shorter one exists (Popeye shows the short set play). A series
// helpmate's set play is the other side reaching the aim at once; the
// other series-movers, hs#N and hr#N have none here.
func helpSetPlay(ctx context.Context, rec *record.Record, o *Answer, lim stipulation.Limits, opt ProblemOptions) error {
	null, ok := rec.Pos.Passed()
	if !ok || rec.Stip.Plies() < 2 || rec.Stip.Kind != problem.Help && rec.Stip.Kind != problem.SeriesHelp {
		return nil
	}
	set := rec.Stip
	if set.Kind == problem.SeriesHelp {
		set = problem.Stipulation{Kind: problem.Help, Aim: set.Aim, Moves: 1, Half: false}
	}
	if set.Half {
		set.Half = false
	} else {
		set.Moves, set.Half = set.Moves-1, true
	}
	// the shortest set play, as Popeye shows it
	for n := lowest(set); n <= set.Moves; n++ {
		try := set
		try.Moves = n
		res, err := stipulation.Lines(ctx, null, try, stipulation.Limits{Nodes: lim.Nodes})
		o.Nodes += res.Nodes
		if err != nil {
			return err
		}
		if len(res.Solutions) > 0 || n == set.Moves {
			o.SetPlay = &SetPlay{Stipulation: try.String()}
			o.SetPlay.Solutions, o.SetPlayText = solutionTexts(null, res.Solutions, opt.SAN, try)
			return nil
		}
	}
	return nil
}

// lowest is the fewest moves a stipulation of st's kind can have.
func lowest(st problem.Stipulation) int {
	if st.Half {
		return 0
	}
	return 1
}

// seriesSAN writes a series solution's moves in SAN, the other side
// passing between the moves of a series (seriesStep).
func seriesSAN(pos board.Position, line []board.Move, st problem.Stipulation) []string {
	var out []string
	steps := seriesSteps(pos, line, st)
	for i, m := range line {
		out = append(out, pos.SAN(m))
		pos.Play(m)
		if steps[i].pass {
			pos.Pass()
		}
	}
	return out
}
