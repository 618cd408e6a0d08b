package puzzles

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/solver"
	"mateline.dev/mateline/stipulation"
)

// Problem is what a problem file (Popeye's language) says of a record
// besides its position and stipulation.
type Problem struct {
	Title  string `json:"title,omitempty"`
	Author string `json:"author,omitempty"`
	Origin string `json:"origin,omitempty"`
	// Twin names the twin as Popeye prints it ("b) wRd1-->d2"); empty
	// for a problem without twins.
	Twin string `json:"twin,omitempty"`
	// The options mateline acts on.
	Variation    bool `json:"-"` // Variation: the solution tree
	NoThreat     bool `json:"-"` // NoThreat: no threats in the tree
	MaxSolutions int  `json:"-"` // MaxSolutions N: stop after N solutions (0: all)
	SetPlay      bool `json:"-"` // SetPlay: the play if the other side moved first
	Try          bool `json:"-"` // Try: a selfmate's tries
	Defence      int  `json:"-"` // Defence N: a try fails to at most N defences (0: 1)
	MaxFlights   int  `json:"-"` // MaxFlightsquares N, as N+1: selfmates, a king with that many flights has defended
}

// SetPlay is the play of a problem if the side that does not start moved
// first: a helpmate's solutions (one ply shorter), or a selfmate's set
// defences with the attacker's answers.
type SetPlay struct {
	Stipulation string     `json:"stipulation,omitempty"` // helpmates: the set play's own ("h#1.5")
	Solutions   [][]string `json:"solutions,omitempty"`
	Tree        *Tree      `json:"tree,omitempty"`

	Text []string `json:"-"` // the helpmate's solutions as text
}

// TryInfo is a selfmate's try: a first move that fails to few defences.
type TryInfo struct {
	UCI         string   `json:"uci"`
	Text        string   `json:"text"`
	Refutations []string `json:"refutations"`      // UCI
	RefText     []string `json:"refutations_text"` // as the report writes them
}

// ProblemOptions are the command line's settings for helpmates and
// selfmates.
type ProblemOptions struct {
	Timeout   time.Duration // 0: none
	Nodes     uint64        // 0: none
	Tree      bool          // the selfmate's solution tree
	TreeDepth int           // attacker moves shown with every defence (0: the default)
	SAN       bool          // moves in SAN, not Popeye's long notation
	Threads   int           // helpmates: threads sharing the first moves out (0, 1: one)
}

// Shorter is a solution of fewer moves than the stipulation asks.
type Shorter struct {
	Stipulation string     `json:"stipulation"`
	Solutions   [][]string `json:"solutions,omitempty"` // helpmates
	Keys        []string   `json:"keys,omitempty"`      // selfmates

	Text []string `json:"-"` // the solutions as the text report prints them
}

// IsProblem reports whether rec is a helpmate or a selfmate, solved by
// SolveProblem rather than the mate prover.
func (rec *Record) IsProblem() bool { return rec.Stip.Kind != stipulation.Direct }

// SolveProblem solves a helpmate or selfmate record: every solution (h#)
// or every key (s#), the shortest length that has one, and the selfmate's
// line and tree.
func SolveProblem(ctx context.Context, rec *Record, opt ProblemOptions) Outcome {
	o := NewOutcome(rec, solver.Result{})
	if rec.Err != nil {
		return o
	}
	o.Status, o.Stipulation, o.Problem = "", rec.Stip.String(), rec.Problem
	if rec.Terminal != "" {
		o.Status, o.Note = StatusNoMate, rec.Terminal
		return o
	}
	if opt.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Timeout)
		defer cancel()
	}
	start := time.Now()
	lim := stipulation.Limits{Nodes: opt.Nodes, Threads: opt.Threads}
	if pr := rec.Problem; pr != nil {
		lim.MaxSolutions, lim.MaxFlights = pr.MaxSolutions, pr.MaxFlights
	}
	var err error
	if rec.Stip.Kind == stipulation.Help {
		err = solveHelp(ctx, rec, &o, lim, opt)
	} else {
		err = solveSelf(ctx, rec, &o, lim, opt)
	}
	o.MS = float64(time.Since(start).Microseconds()) / 1000
	switch {
	case errors.Is(err, stipulation.ErrMaxSolutions):
		o.Partial = true
		o.Note = fmt.Sprintf("stopped after %d solutions (MaxSolutions)", lim.MaxSolutions)
	case err != nil:
		o.Status, o.Partial = StatusLimit, true
		o.Interrupted = ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded)
	case o.Status == "":
		o.Status = StatusNoMate
	}
	return o
}

// solveHelp fills o with every solution of a helpmate, then looks for
// solutions of fewer moves.
func solveHelp(ctx context.Context, rec *Record, o *Outcome, lim stipulation.Limits, opt ProblemOptions) error {
	res, err := stipulation.Helpmates(ctx, rec.Pos, rec.Stip, lim)
	o.Nodes += res.Nodes
	o.Solutions, o.SolutionText = solutionTexts(rec.Pos, res.Solutions, opt.SAN, rec.Stip.Half)
	if len(res.Solutions) > 0 {
		// the first solution is the record's line
		o.Status = StatusMate
		o.PV, o.PVSAN = uciMoves(res.Solutions[0]), sanMoves(rec.Pos, res.Solutions[0])
		o.LineSAN = rec.Pos.SANLine(res.Solutions[0])
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
	// side starting, is a cook.
	short := rec.Stip
	for short.Moves = lowest(rec.Stip); short.Moves < rec.Stip.Moves; short.Moves++ {
		sres, err := stipulation.Helpmates(ctx, rec.Pos, short, stipulation.Limits{Nodes: lim.Nodes})
		o.Nodes += sres.Nodes
		if err != nil {
			return err
		}
		if len(sres.Solutions) > 0 {
			o.Shorter = &Shorter{Stipulation: short.String()}
			o.Shorter.Solutions, o.Shorter.Text = solutionTexts(rec.Pos, sres.Solutions, opt.SAN, short.Half)
			break
		}
	}
	return nil
}

// helpSetPlay fills o.SetPlay with a helpmate's set play: the other side
// moves first, and the play is one ply shorter, or shorter still when a
// shorter one exists (Popeye shows the short set play).
func helpSetPlay(ctx context.Context, rec *Record, o *Outcome, lim stipulation.Limits, opt ProblemOptions) error {
	null, ok := rec.Pos.Passed()
	if !ok || rec.Stip.Plies() < 2 {
		return nil
	}
	set := rec.Stip
	if set.Half {
		set.Half = false
	} else {
		set.Moves, set.Half = set.Moves-1, true
	}
	// the shortest set play, as Popeye shows it
	for n := lowest(set); n <= set.Moves; n++ {
		try := set
		try.Moves = n
		res, err := stipulation.Helpmates(ctx, null, try, stipulation.Limits{Nodes: lim.Nodes})
		o.Nodes += res.Nodes
		if err != nil {
			return err
		}
		if len(res.Solutions) > 0 || n == set.Moves {
			o.SetPlay = &SetPlay{Stipulation: try.String()}
			o.SetPlay.Solutions, o.SetPlay.Text = solutionTexts(null, res.Solutions, opt.SAN, try.Half)
			return nil
		}
	}
	return nil
}

// lowest is the fewest moves a stipulation of st's kind can have.
func lowest(st stipulation.Stipulation) int {
	if st.Half {
		return 0
	}
	return 1
}

// solveSelf fills o with a selfmate's keys, its shortest length, its main
// line and (opt.Tree or the Variation option) its tree.
func solveSelf(ctx context.Context, rec *Record, o *Outcome, lim stipulation.Limits, opt ProblemOptions) error {
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
	keys := res.Keys
	if res.Shortest < rec.Stip.Moves {
		short := rec.Stip
		short.Moves = res.Shortest
		sres, err := stipulation.Selfmates(ctx, rec.Pos, short, lim)
		o.Nodes += sres.Nodes
		if err != nil {
			return err
		}
		o.Shorter = &Shorter{Stipulation: short.String(), Keys: uciMoves(sres.Keys)}
		for _, k := range sres.Keys {
			o.Shorter.Text = append(o.Shorter.Text, moveText(rec.Pos, k, opt.SAN))
		}
	}
	for _, k := range keys {
		o.Keys = append(o.Keys, k.UCI())
		o.KeysSAN = append(o.KeysSAN, rec.Pos.SAN(k))
		o.KeysText = append(o.KeysText, moveText(rec.Pos, k, opt.SAN))
	}
	topt := stipulation.TreeOptions{FullDepth: opt.TreeDepth, NoThreat: rec.Problem != nil && rec.Problem.NoThreat}
	if !opt.Tree && (rec.Problem == nil || !rec.Problem.Variation) {
		topt.FullDepth = 1 // the main line is all that is wanted
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
	}
	if opt.Tree || rec.Problem != nil && rec.Problem.Variation {
		o.Tree = newTree(rec.Pos, t)
		o.Tree.Stipulation, o.Tree.Long = o.Stipulation, !opt.SAN
	}
	return selfExtras(ctx, rec, o, lim, opt, topt)
}

// selfExtras adds what a selfmate problem's options ask: its set play and
// its tries.
func selfExtras(ctx context.Context, rec *Record, o *Outcome, lim stipulation.Limits, opt ProblemOptions, topt stipulation.TreeOptions) error {
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
			o.SetPlay.Tree.Stipulation, o.SetPlay.Tree.Long = o.Stipulation, !opt.SAN
		}
	}
	if pr.Try {
		tries, err := stipulation.SelfTries(ctx, rec.Pos, rec.Stip, lim, max(pr.Defence, 1))
		if err != nil {
			return err
		}
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

// solutionTexts writes each solution as UCI moves and as a line of text.
func solutionTexts(pos board.Position, sols []stipulation.Line, san, lone bool) ([][]string, []string) {
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

// ValidateProblem checks a helpmate or selfmate record: ok when it has
// exactly one solution (h#) or key (s#), the author's when given, and
// none shorter; cooked with more; shorter when fewer moves suffice;
// no-solution when it has none.
func ValidateProblem(ctx context.Context, rec *Record, opt ProblemOptions) Outcome {
	o := SolveProblem(ctx, rec, opt)
	if rec.Err != nil {
		o.Verdict = rec.errorVerdict()
		return o
	}
	o.Expected = &Expected{Keys: uciMoves(rec.Claim.Keys)}
	if len(rec.Claim.Line) > 0 {
		o.Expected.Line = uciMoves(rec.Claim.Line)
	}
	o.Verdict = problemVerdict(rec, &o)
	return o
}

// problemVerdict judges a solved problem against its stipulation and the
// author's solution.
func problemVerdict(rec *Record, o *Outcome) Verdict {
	switch {
	case o.Status == StatusLimit:
		return VerdictTimeout
	case o.Shorter != nil:
		return VerdictShorter
	case o.Status == StatusNoMate:
		return VerdictNoSolution
	}
	firsts := o.Keys // selfmates: the keys
	if rec.Stip.Kind == stipulation.Help {
		firsts = nil
		for _, s := range o.Solutions {
			firsts = append(firsts, s[0])
		}
	}
	for _, k := range uciMoves(rec.Claim.Keys) {
		if !slices.Contains(firsts, k) {
			return VerdictWrongKey
		}
	}
	if line := uciMoves(rec.Claim.Line); len(line) > 0 && rec.Stip.Kind == stipulation.Help {
		if !slices.ContainsFunc(o.Solutions, func(s []string) bool { return slices.Equal(s, line) }) {
			return VerdictWrongKey
		}
	}
	n := len(o.Keys)
	if rec.Stip.Kind == stipulation.Help {
		n = len(o.Solutions)
	}
	if n > 1 {
		return VerdictCooked
	}
	return VerdictOK
}
