package puzzles

import (
	"context"
	"fmt"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/pgn"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
)

// authorLine checks a PGN puzzle's solution beyond its key: along the main
// line and the variations given for the defences, every move of the
// mating side must keep the mate within the moves the claim leaves, and
// the last must mate. It returns "" when they do, or a verdict and a
// reason that names the first move that fails (in the order a reader
// meets them: the main line first) and the defence that refutes it. A
// limit that stops a check gives timeout.
func authorLine(ctx context.Context, sv *solver.Solver, rec *record.Record, opt solver.Options, lim *Limits) (Verdict, string) {
	if rec.PGN == nil || rec.PGN.Tree == nil {
		return "", ""
	}
	g := rec.PGN.Tree
	claim := rec.Claim.Mate
	attacker := claim.Winner(rec.Pos.Side())
	lc := lineChecker{ctx: ctx, sv: sv, opt: opt, lim: lim, root: rec.Pos}
	// The attacker's moves to check, with the moves they have left.
	type todo struct {
		n    *pgn.Node
		pos  board.Position
		left int
	}
	var queue []todo
	// push queues the attacker's moves from pos, whose moves are n's
	// children: the author's own (the first child; the others are tries,
	// not claims), or after each defence the author gives (every child,
	// variations too) the author's answer to it.
	push := func(n *pgn.Node, pos board.Position, left int) {
		if pos.Side() == attacker {
			if len(n.Children) > 0 && n.Children[0].Move != board.NoMove {
				queue = append(queue, todo{n.Children[0], pos, left})
			}
			return
		}
		for _, d := range n.Children {
			if d.Move == board.NoMove || len(d.Children) == 0 || d.Children[0].Move == board.NoMove {
				continue
			}
			after := pos
			after.Play(d.Move)
			queue = append(queue, todo{d.Children[0], after, left})
		}
	}
	left := claim.Moves()
	if rec.Pos.Side() != attacker {
		push(g.Root, rec.Pos, left) // a mated-in-N puzzle: the line starts with a defence
	} else if len(g.Root.Children) > 0 {
		// The key is checked by the verdict already: start after it.
		key := g.Root.Children[0]
		if key.Move == board.NoMove {
			return "", ""
		}
		pos := rec.Pos
		pos.Play(key.Move)
		if pos.IsCheckmate() {
			return "", ""
		}
		push(key, pos, left-1)
	}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		v, why, stop := lc.check(g, t.n, t.pos, t.left)
		if stop {
			return VerdictTimeout, ""
		}
		if v != "" {
			return v, why
		}
		after := t.pos
		after.Play(t.n.Move)
		if !after.IsCheckmate() {
			push(t.n, after, t.left-1)
		}
	}
	return "", ""
}

// lineChecker asks the solver about the moves of an author's line.
type lineChecker struct {
	ctx  context.Context
	sv   *solver.Solver
	opt  solver.Options
	lim  *Limits
	root board.Position
}

// solve asks the solver about pos, within the record's limits; ok is false
// when nothing is left of them.
func (lc *lineChecker) solve(pos board.Position, claim problem.Mate) (res solver.Result, ok bool) {
	o, ok := lc.lim.For(lc.opt.ForClaim(claim))
	if !ok {
		return res, false
	}
	res = lc.sv.Solve(lc.ctx, pos, o)
	lc.lim.Spend(res.Nodes)
	return res, true
}

// check judges the attacker's move n, played from pos with left moves to
// mate (this one included). stop says a limit came first: no verdict.
func (lc *lineChecker) check(g *pgn.Game, n *pgn.Node, pos board.Position, left int) (Verdict, string, bool) {
	after := pos
	after.Play(n.Move)
	if after.IsCheckmate() {
		return "", "", false
	}
	where := lc.where(g, n)
	if left <= 1 {
		return VerdictWrongKey, fmt.Sprintf("%s does not mate, and the claim leaves no more moves", where), false
	}
	// Does every defence lose within left-1 moves?
	res, ok := lc.solve(after, problem.Mate(-(left - 1)))
	switch {
	case !ok:
		return "", "", true
	case res.Status == solver.StatusMate:
		return "", "", false
	case res.Status == solver.StatusLimit && res.Depth < left-1:
		return "", "", true
	}
	// It does not: name a defence after which no mate comes in time.
	var l board.MoveList
	after.LegalMoves(&l)
	for _, d := range l.Slice() {
		next := after
		next.Play(d)
		r, ok := lc.solve(next, problem.Mate(left-1))
		if !ok || r.Status == solver.StatusLimit && r.Depth < left-1 {
			return "", "", true
		}
		if r.Status != solver.StatusMate {
			return VerdictWrongKey, fmt.Sprintf("%s does not mate in %d: %s holds out", where, left, moveNumbered(&after, d)), false
		}
	}
	if len(l.Slice()) == 0 {
		return VerdictWrongKey, fmt.Sprintf("%s stalemates", where), false
	}
	return VerdictWrongKey, fmt.Sprintf("%s does not mate in %d", where, left), false
}

// where names a move of the author's line by the moves that lead to it:
// "after 1. Qg4+ Kh8, 2. Qg7+".
func (lc *lineChecker) where(g *pgn.Game, n *pgn.Node) string {
	var path []board.Move
	for p := n; p != nil && p != g.Root; p = p.Parent {
		path = append(path, p.Move)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	line := lc.root.SANLine(path)
	if len(path) == 1 {
		return line
	}
	before := g.Start
	for _, m := range path[:len(path)-1] {
		before.Play(m)
	}
	return fmt.Sprintf("after %s, %s", lc.root.SANLine(path[:len(path)-1]), moveNumbered(&before, n.Move))
}

// moveNumbered writes one move with its number, as SANLine does: "2.
// Qg7+", "2... Kh8".
func moveNumbered(pos *board.Position, m board.Move) string {
	if pos.Side() == board.White {
		return fmt.Sprintf("%d. %s", pos.FullmoveNumber(), pos.SAN(m))
	}
	return fmt.Sprintf("%d... %s", pos.FullmoveNumber(), pos.SAN(m))
}
