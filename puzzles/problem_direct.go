package puzzles

import (
	"context"
	"fmt"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
)

// AddDirectOptions adds to the outcome of a direct mate read from a
// problem file what its options ask: set play (SetPlay) and tries (Try,
// Defence N), and its tree (Variation, already built) in Popeye's notation
// unless san. What cannot be had is a warning.
func AddDirectOptions(ctx context.Context, sv *solver.Solver, rec *record.Record, o *Answer, opt solver.Options, san bool, lim *Limits) {
	pr := rec.Problem
	if o.Tree != nil {
		o.TreeLong = !san
	}
	if pr.SetPlay {
		if err := AddDirectSetPlay(ctx, sv, rec, o, opt, lim); err != nil {
			o.Warnings = append(o.Warnings, fmt.Sprintf("no set play: %v", err))
		} else if o.SetPlay != nil {
			o.TreeLong = !san
		}
	}
	if pr.Try {
		if err := AddDirectTries(ctx, sv, rec, o, opt, max(pr.Defence, 1), lim); err != nil {
			o.Warnings = append(o.Warnings, fmt.Sprintf("no tries: %v", err))
		}
	}
}

// AddDirectTries lists the tries of a direct mate in n read from a
// problem file with Popeye's option Try: the first moves that do not mate
// in n but fail to at least one and at most maxRefutations defences (the
// defences after which no mate in n-1 follows), in Popeye's order. A move
// that leaves Black no move is no try. It needs n >= 2.
func AddDirectTries(ctx context.Context, sv *solver.Solver, rec *record.Record, o *Answer, opt solver.Options, maxRefutations int, lim *Limits) error {
	n := rec.Claim.Mate.Moves()
	if rec.Claim.Mate <= 0 || n < 2 || rec.Err != nil || rec.Terminal != "" {
		return nil
	}
	keys := map[string]bool{}
	for _, k := range o.Keys {
		keys[k] = true
	}
	opt = opt.ForClaim(problem.Mate(n - 1))
	// Many small solves: the table is kept between them (clearing it each
	// time would cost more than the solves; the answers are exact either
	// way).
	opt.AllKeys, opt.Fresh = false, false
	var l board.MoveList
	rec.Pos.LegalMoves(&l)
	moves := append([]board.Move(nil), l.Slice()...)
	sortPopeye(rec.Pos, moves)
	for _, m := range moves {
		if keys[m.UCI()] {
			continue
		}
		after := rec.Pos
		after.Play(m)
		var dl board.MoveList
		after.LegalMoves(&dl)
		if dl.N == 0 {
			continue
		}
		var refs []board.Move
		unknown := false
		for _, d := range dl.Slice() {
			next := after
			next.Play(d)
			sopt, ok := lim.For(opt)
			if !ok {
				return errLimit
			}
			res := sv.Solve(ctx, next, sopt)
			lim.Spend(res.Nodes)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			mates := res.Status == solver.StatusMate && res.Mate > 0 && res.Mate.Moves() <= n-1
			if res.Status == solver.StatusLimit {
				// a mate within the length proved is enough; without one
				// the defence is not known to refute
				mates = res.MateWithin > 0 && res.MateWithin.Moves() <= n-1
				unknown = unknown || !mates
			}
			if !mates {
				if refs = append(refs, d); len(refs) > maxRefutations {
					break
				}
			}
		}
		if unknown && len(refs) <= maxRefutations {
			o.Warnings = append(o.Warnings, "tries: a limit left some defences undecided; the list may be incomplete")
			continue
		}
		if len(refs) == 0 || len(refs) > maxRefutations {
			continue
		}
		info := TryInfo{UCI: m.UCI(), Text: moveText(rec.Pos, m, false), Refutations: uciMoves(refs)}
		for _, r := range refs {
			info.RefText = append(info.RefText, moveText(after, r, false))
		}
		o.Tries = append(o.Tries, info)
	}
	return nil
}

// AddDirectSetPlay adds the set play of a direct mate in n read from a
// problem file with Popeye's option SetPlay: the play if Black were to
// move first, each Black move after which White mates in n-1 moves or
// fewer, with White's mating moves. Nothing when White gives check (Black
// could not move first) or n < 2.
func AddDirectSetPlay(ctx context.Context, sv *solver.Solver, rec *record.Record, o *Answer, opt solver.Options, lim *Limits) error {
	n := rec.Claim.Mate.Moves()
	if rec.Claim.Mate <= 0 || n < 2 || rec.Err != nil {
		return nil
	}
	null, ok := rec.Pos.Passed()
	if !ok {
		return nil
	}
	opt = opt.ForClaim(problem.Mate(n - 1))
	opt.AllKeys, opt.Fresh = true, false
	st := &solver.SolutionTree{Mate: problem.Mate(n - 1), FullDepth: 1}
	var l board.MoveList
	null.LegalMoves(&l)
	moves := append([]board.Move(nil), l.Slice()...)
	sortPopeye(null, moves)
	for _, d := range moves {
		after := null
		after.Play(d)
		sopt, ok := lim.For(opt)
		if !ok {
			return errLimit
		}
		res := sv.Solve(ctx, after, sopt)
		lim.Spend(res.Nodes)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if res.Status == solver.StatusLimit {
			return errLimit
		}
		if res.Status != solver.StatusMate || res.Mate <= 0 {
			continue
		}
		dn := &solver.DefenceNode{Move: d}
		for _, k := range res.Keys {
			dn.Answers = append(dn.Answers, &solver.AttackerNode{Move: k, MateIn: res.Mate.Moves()})
		}
		st.Defences = append(st.Defences, dn)
	}
	o.SetPlay = &SetPlay{Tree: newTree(null, st)}
	return nil
}
