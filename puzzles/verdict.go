package puzzles

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
)

// Verdict is what validate says of a record's claim.
type Verdict string

// The verdicts of validate (docs/formats.md).
const (
	VerdictOK         Verdict = "ok"
	VerdictShorter    Verdict = "shorter"     // a shorter mate exists
	VerdictLonger     Verdict = "longer"      // the claimed length cannot be forced, a longer mate can
	VerdictNoMate     Verdict = "no-mate"     // no mate within the claim
	VerdictNoSolution Verdict = "no-solution" // a helpmate or selfmate without a solution
	VerdictCooked     Verdict = "cooked"      // more than one key
	VerdictWrongKey   Verdict = "wrong-key"   // the claimed key does not mate in N, another move does
	VerdictIllegal    Verdict = "illegal"     // the position cannot occur, or has no move
	VerdictUnreadable Verdict = "unreadable"  // the line could not be read
	VerdictTimeout    Verdict = "timeout"     // a limit stopped the proof: no verdict on the claim (Cut says where)
	VerdictSkipped    Verdict = "skipped"     // not a mate puzzle (no claim), or no solution to check
)

// Cut says which part of a claim's check a limit cut, with the verdict
// timeout.
type Cut string

// The parts of a check.
const (
	CutLength     Cut = "length"      // the mate's length: nothing was proved of the claim
	CutKeys       Cut = "keys"        // the keys: the length was proved, not that the key is the only one
	CutLine       Cut = "line"        // a Lichess line: the key was proved, not every move of the solution after it
	CutAuthorLine Cut = "author_line" // a PGN puzzle's line: the key was proved, not the author's moves after it
)

// Verdicts lists every verdict in report order.
var Verdicts = []Verdict{VerdictOK, VerdictShorter, VerdictLonger, VerdictNoMate, VerdictNoSolution, VerdictCooked,
	VerdictWrongKey, VerdictIllegal, VerdictUnreadable, VerdictTimeout, VerdictSkipped}

// Passes reports whether a record with this verdict passes validation: ok,
// or skipped (not a mate puzzle).
func (v Verdict) Passes() bool { return v == VerdictOK || v == VerdictSkipped }

// Solve runs the solver on rec and describes the result. Options come in
// adapted to the record's claim by the caller.
func Solve(ctx context.Context, sv *solver.Solver, rec *record.Record, opt solver.Options, lim *Limits) Answer {
	if rec.Err != nil {
		return NewAnswer(rec, solver.Result{})
	}
	if rec.Terminal != "" {
		return terminalAnswer(rec)
	}
	opt, ok := lim.For(opt)
	if !ok {
		return NewAnswer(rec, solver.Result{Status: solver.StatusLimit})
	}
	res := sv.Solve(ctx, rec.Pos, opt)
	lim.Spend(res.Nodes)
	o := NewAnswer(rec, res)
	o.Interrupted = interrupted(ctx, res)
	return o
}

// Validate checks rec's mate claim and gives one verdict. It looks up to
// beyond moves past the claimed length to tell "longer" from "no-mate".
// A record without a mate claim gets no verdict.
func Validate(ctx context.Context, sv *solver.Solver, rec *record.Record, opt solver.Options, beyond int) Answer {
	if rec.Err != nil {
		o := NewAnswer(rec, solver.Result{})
		o.Verdict = ErrorVerdict(rec)
		return o
	}
	claim := rec.Claim.Mate
	switch {
	case claim == 0 && rec.Claim.OnlyLastVaries:
		return skipped(rec, "no mateIn theme: not a mate puzzle")
	case claim == 0 && rec.PGN != nil:
		return skipped(rec, "no mate claim: no tag or comment says \"mate in N\", and the main line does not end in mate from a set-up position")
	case claim == 0:
		return skipped(rec, "no dm N or bm #N: not a mate puzzle")
	case rec.Claim.OnlyLastVaries && len(rec.Claim.Line) == 0:
		return skipped(rec, "the Moves field holds no solution move to check")
	case rec.Terminal != "":
		o := terminalAnswer(rec)
		o.Expected = &Expected{Mate: claim, Keys: uciMoves(rec.Claim.Keys)}
		o.Verdict = VerdictNoMate
		return o
	}
	n := claim.Moves()
	lim := NewLimits(opt)
	opt = opt.ForClaim(claim)
	opt.MaxMate = n + beyond
	opt.Aim = n // the claim is the upper bound worth proving first
	opt.AllKeys = true
	res := sv.Solve(ctx, rec.Pos, opt)
	lim.Spend(res.Nodes)
	o := NewAnswer(rec, res)
	o.Expected = &Expected{Mate: claim, Keys: uciMoves(rec.Claim.Keys)}
	if interrupted(ctx, res) {
		o.Interrupted = true
		return o
	}
	o.Verdict, o.Cut = verdict(rec, res, n)
	if o.Verdict == VerdictOK && rec.Claim.OnlyLastVaries && claim > 1 {
		if v, err := lineCook(ctx, sv, rec, opt, lim); v != "" {
			o.Verdict, o.Error = v, err
			if v == VerdictTimeout {
				o.Cut = CutLine
			}
		}
	}
	if (o.Verdict == VerdictOK || o.Verdict == VerdictCooked) && rec.PGN != nil {
		// The author's solution past the key: the main line and the
		// defences it gives.
		lopt := opt
		lopt.AllKeys, lopt.MaxMate, lopt.Aim = false, 0, 0
		switch v, why := authorLine(ctx, sv, rec, lopt, lim); {
		case v == VerdictTimeout && o.Verdict == VerdictOK:
			o.Verdict, o.Cut = VerdictTimeout, CutAuthorLine
		case why != "":
			if o.Verdict == VerdictOK {
				o.Verdict = v
			}
			o.Error = join(o.Error, "the author's line: "+why)
		}
	}
	// A signal that came while the line was checked leaves no verdict.
	o.Interrupted = ctx.Err() != nil && o.Verdict == VerdictTimeout
	return o
}

// terminalAnswer is the outcome of a position with no legal move: no
// mate for the side to move, with the reason.
func terminalAnswer(rec *record.Record) Answer {
	o := NewAnswer(rec, solver.Result{Status: solver.StatusNoMate})
	o.Note = rec.Terminal
	return o
}

// skipped is a record validate does not check, with the reason.
func skipped(rec *record.Record, why string) Answer {
	o := NewAnswer(rec, solver.Result{})
	o.Status, o.Verdict, o.Note = StatusSkipped, VerdictSkipped, why
	return o
}

// lineCook follows a Lichess solution line and checks that every attacker
// move but the last is the only one that keeps the mate on schedule. It
// returns a verdict and a reason when one is not.
func lineCook(ctx context.Context, sv *solver.Solver, rec *record.Record, opt solver.Options, lim *Limits) (Verdict, string) {
	pos := rec.Pos
	n := rec.Claim.Mate
	for i, m := range rec.Claim.Line {
		attacker := i%2 == 0
		left := n - problem.Mate(i/2)
		if attacker && i > 0 && left > 1 {
			o, ok := lim.For(opt.ForClaim(left))
			if !ok {
				return VerdictTimeout, ""
			}
			o.AllKeys = true
			res := sv.Solve(ctx, pos, o)
			lim.Spend(res.Nodes)
			if res.Status == solver.StatusLimit || res.Partial {
				return VerdictTimeout, "" // the limit came before the line was checked
			}
			if res.Mate != left {
				return VerdictWrongKey, fmt.Sprintf("after %s the solution's side has no mate in %d", rec.Pos.SANLine(rec.Claim.Line[:i]), left)
			}
			if !slices.Contains(res.Keys, m) {
				return VerdictWrongKey, fmt.Sprintf("move %d of the solution, %s, does not mate in %d", i+1, pos.SAN(m), left)
			}
			if len(res.Keys) > 1 {
				var alts []string
				for _, k := range res.Keys {
					alts = append(alts, pos.SAN(k))
				}
				return VerdictCooked, fmt.Sprintf("after %s: %s all mate in %d", rec.Pos.SANLine(rec.Claim.Line[:i]), strings.Join(alts, " "), left)
			}
		}
		pos.Play(m)
		if left <= 1 && attacker {
			break
		}
	}
	return "", ""
}

// interrupted reports whether cancellation, not the search, ended a solve.
func interrupted(ctx context.Context, res solver.Result) bool {
	return ctx.Err() != nil && (res.Status == solver.StatusLimit || res.Partial)
}

// verdict judges the claim of rec, a mate in n, by the solve's result;
// with a timeout it says which part the limit cut.
func verdict(rec *record.Record, res solver.Result, n int) (Verdict, Cut) {
	found := res.Mate.Moves()
	switch {
	case res.Status == solver.StatusLimit:
		w := res.MateWithin // of the claim's kind: the search looked for no other
		switch {
		case w != 0 && w.Moves() < n:
			return VerdictShorter, "" // a shorter mate is proved, if not yet the shortest
		case res.Depth >= n && w != 0:
			return VerdictLonger, "" // proved: none within the claim, and a longer one
		case res.Depth >= n:
			return VerdictNoMate, "" // proved: none within the claim
		}
		return VerdictTimeout, CutLength
	case res.Status == solver.StatusNoMate, res.Status == solver.StatusCapped:
		return VerdictNoMate, ""
	case found < n:
		return VerdictShorter, ""
	case found > n:
		return VerdictLonger, ""
	case rec.Claim.Mate < 0:
		return VerdictOK, "" // a defender may choose among equal defences
	case res.Partial:
		return VerdictTimeout, CutKeys // the key list is incomplete: no verdict on uniqueness
	}
	return keysVerdict(rec, res, n), ""
}

// keysVerdict judges the keys of a mate proved shortest at its claimed
// length n, every key listed.
func keysVerdict(rec *record.Record, res solver.Result, n int) Verdict {
	claimed := rec.Claim.Keys
	for _, k := range claimed {
		if !slices.Contains(res.Keys, k) {
			return VerdictWrongKey
		}
	}
	if rec.Claim.OnlyLastVaries && n == 1 {
		return VerdictOK // several mating moves at the last move are allowed
	}
	extra := 0
	for _, k := range res.Keys {
		if !slices.Contains(claimed, k) {
			extra++
		}
	}
	if len(claimed) == 0 && len(res.Keys) > 1 || len(claimed) > 0 && extra > 0 {
		return VerdictCooked
	}
	return VerdictOK
}

// join joins two texts with a space.
func join(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + " " + b
}

// ErrorVerdict is the verdict of a record that could not be read: illegal
// for a position that cannot occur, unreadable for everything else ("" when
// the record was read).
func ErrorVerdict(r *record.Record) Verdict {
	if r.Err == nil {
		return ""
	}
	if isPositionError(r.Err) {
		return VerdictIllegal
	}
	return VerdictUnreadable
}

func isPositionError(err error) bool {
	for err != nil {
		switch e := err.(type) {
		case *board.FENError:
			return e.Kind >= board.ErrKingCount
		case interface{ Unwrap() error }:
			err = e.Unwrap()
		default:
			return false
		}
	}
	return false
}
