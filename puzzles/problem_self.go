package puzzles

import (
	"context"
	"slices"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
	"mateline.dev/mateline/stipulation"
)

// solveSelf fills o with the keys of a forced stipulation (s#N, s=N, r#N,
// semi-r#N, =N), its shortest length, its main line and (opt.Tree or the
// Variation option) its tree.
func solveSelf(ctx context.Context, rec *record.Record, o *Answer, lim stipulation.Limits, opt ProblemOptions) error {
	res, err := stipulation.Selfmates(ctx, rec.Pos, rec.Stip, lim)
	o.Nodes += res.Nodes
	if err != nil {
		return err
	}
	o.Depth = rec.Stip.Moves
	if res.Shortest == 0 {
		return nil
	}
	o.Status = StatusMate
	sortPopeye(rec.Pos, res.Keys)
	if res.Shortest < rec.Stip.Moves {
		short := rec.Stip
		short.Moves = res.Shortest
		sres, err := stipulation.Selfmates(ctx, rec.Pos, short, lim)
		o.Nodes += sres.Nodes
		if err != nil {
			return err
		}
		sortPopeye(rec.Pos, sres.Keys)
		o.Shorter = &Shorter{Stipulation: short.String(), Keys: uciMoves(sres.Keys)}
		for _, k := range sres.Keys {
			o.ShorterText = append(o.ShorterText, moveText(rec.Pos, k, opt.SAN))
		}
	}
	for _, k := range res.Keys {
		o.Keys = append(o.Keys, k.UCI())
		o.KeysSAN = append(o.KeysSAN, rec.Pos.SAN(k))
		o.KeysText = append(o.KeysText, moveText(rec.Pos, k, opt.SAN))
	}
	topt := stipulation.TreeOptions{FullDepth: opt.TreeDepth, NoThreat: rec.Problem != nil && rec.Problem.NoThreat}
	if !opt.Tree && (rec.Problem == nil || !rec.Problem.Variation) {
		topt.FullDepth, topt.NoThreat = 1, true // the main line is all that is wanted
	}
	t, err := stipulation.SelfTree(ctx, rec.Pos, rec.Stip, res, lim, topt)
	if err != nil {
		return err
	}
	if len(t.Keys) > 0 {
		k := t.Keys[0]
		line := []board.Move{k.Move}
		if len(k.MainLine) > 0 {
			line = append(line, k.MainLine...)
		} else {
			line = append(line, treeLine(k)...)
		}
		o.PV, o.PVSAN = uciMoves(line), sanMoves(rec.Pos, line)
		o.LineSAN = rec.Pos.SANLine(line)
		if rec.Stip.Aim == problem.Stalemate {
			o.LineSAN += " ="
		}
	}
	if opt.Tree || rec.Problem != nil && rec.Problem.Variation {
		o.Tree = newTree(rec.Pos, t)
		o.Tree.Stipulation, o.TreeLong = o.Stipulation, !opt.SAN
	}
	return selfExtras(ctx, rec, o, lim, opt, topt)
}

// selfExtras adds what a selfmate problem's options ask: its set play and
// its tries.
func selfExtras(ctx context.Context, rec *record.Record, o *Answer, lim stipulation.Limits, opt ProblemOptions, topt stipulation.TreeOptions) error {
	pr := rec.Problem
	if pr == nil {
		return nil
	}
	if pr.SetPlay {
		t, err := stipulation.SelfSetPlay(ctx, rec.Pos, rec.Stip, lim, topt)
		if err != nil {
			return err
		}
		if t != nil {
			null, _ := rec.Pos.Passed()
			o.SetPlay = &SetPlay{Tree: newTree(null, t)}
			o.SetPlay.Tree.Stipulation, o.TreeLong = o.Stipulation, !opt.SAN
		}
	}
	if pr.Try {
		tries, err := stipulation.SelfTries(ctx, rec.Pos, rec.Stip, lim, max(pr.Defence, 1))
		if err != nil {
			return err
		}
		slices.SortStableFunc(tries, func(a, b stipulation.Try) int {
			return compareRanks(popeyeRank(&rec.Pos, a.Move, false), popeyeRank(&rec.Pos, b.Move, false))
		})
		for _, tr := range tries {
			info := TryInfo{UCI: tr.Move.UCI(), Text: moveText(rec.Pos, tr.Move, opt.SAN), Refutations: uciMoves(tr.Refutations)}
			after := rec.Pos
			after.Play(tr.Move)
			for _, r := range tr.Refutations {
				info.RefText = append(info.RefText, moveText(after, r, opt.SAN))
			}
			o.Tries = append(o.Tries, info)
		}
	}
	return nil
}

// treeLine follows a fully shown tree's longest defences from attacker
// node n to the end.
func treeLine(n *solver.AttackerNode) []board.Move {
	var line []board.Move
	for n != nil && len(n.Defences) > 0 {
		var best *solver.DefenceNode
		bestIn := -1
		for _, d := range n.Defences {
			in := 0
			if len(d.Answers) > 0 {
				in = d.Answers[0].MateIn
			}
			if in > bestIn {
				best, bestIn = d, in
			}
		}
		line = append(line, best.Move)
		if len(best.Answers) == 0 {
			break
		}
		n = best.Answers[0]
		line = append(line, n.Move)
		if len(n.MainLine) > 0 {
			return append(line, n.MainLine...)
		}
	}
	return line
}
