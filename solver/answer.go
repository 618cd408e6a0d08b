package solver

import (
	"slices"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// The answer of a solve: once the proofs are over, the keys and main lines
// of what they proved are read off the proof tree and the tables, with
// further exact questions where those forgot. A mate proved shortest is
// answered when it has its keys (one, or every one with AllKeys) and a
// main line of its full length ending in mate; reading them is bounded by
// the limits and, beyond what the answer needs, by a budget of as many
// nodes as the proofs took (readBudgetFor), so that an answer proved at
// once is written at once, with a limit or without.

// minAnswerBudget is the least node budget for reading the keys and the
// line beyond what the answer needs: about a fifth of a second.
const minAnswerBudget = 1 << 20

// answer fills res's keys and lines from what sc proved, searching with s.
func answer(s *searcher, pos board.Position, sc *schedule, opt Options, res *Result) {
	all := opt.AllKeys || opt.Lines > 1
	lines := max(opt.Lines, 1)
	switch {
	case res.Status == StatusMate:
		r := reader{s: s, pos: pos, sc: sc, mate: res.Mate, budget: max(s.env.lim.nodes.Load(), minAnswerBudget)}
		r.tree = sc.tree != nil && sc.mateWithin == res.Mate && len(sc.line) == res.Mate.Plies()
		r.mateAnswer(all, lines, res)
	case res.Status == StatusLimit && res.MateWithin != 0:
		withinKeys(s, pos, sc, all, lines, res)
	}
	if len(res.Lines) > 0 {
		res.PV = res.Lines[0]
	}
}

// reader reads the keys and lines of a mate proved shortest.
type reader struct {
	s    *searcher
	pos  board.Position
	sc   *schedule
	mate problem.Mate
	// tree says the proof tree of the schedule proves this mate: its line
	// has the mate's plies, its first move is a key.
	tree bool
	// budget is what each step that the answer can do without may spend.
	budget uint64
}

// budgeted runs f with the searcher's queries bounded by the budget.
func (r *reader) budgeted(f func()) {
	r.s.budgetEnd = r.s.nodes + r.budget
	defer func() { r.s.budgetEnd = 0 }()
	f()
}

// limited reports whether the solve's limits (not a budget) have stopped
// its queries.
func (r *reader) limited() bool { return r.s.env.lim.over.Load() }

// mateAnswer fills the keys and lines of the mate: Partial when a limit
// cut either short, ProofLine when the main line is the proof's.
func (r *reader) mateAnswer(all bool, lines int, res *Result) {
	keys, complete := r.keys(all)
	if !complete && len(keys) == 0 && r.tree && r.mate > 0 {
		keys = r.sc.line[:1] // the limit came first: the proof's key stands
	}
	res.Keys, res.AllKeys = keys, all && complete
	res.Partial = !complete
	for i, k := range keys {
		if i == lines {
			break
		}
		line, longest, ok := r.line(k)
		if !ok {
			res.Partial = true
			break
		}
		if i == 0 {
			res.ProofLine = !longest
		}
		res.Lines = append(res.Lines, line)
	}
	if len(res.Lines) == 0 && r.tree && len(keys) > 0 && keys[0] == r.sc.line[0] {
		res.Lines, res.ProofLine = [][]board.Move{r.sc.line}, true
	}
	if res.Partial {
		completeLine(r.s, r.pos, res)
	}
}

// keys proves the keys: every one with all (within the limits only: they
// are the answer), else one, the proof tree's when it has one.
func (r *reader) keys(all bool) (keys []board.Move, complete bool) {
	s, sc := r.s, r.sc
	switch {
	case all:
		return s.keys(r.pos, r.mate, sc.rootMoves, true, sc.book)
	case r.tree && r.mate > 0:
		return sc.line[:1], true
	}
	r.budgeted(func() { keys, complete = s.keys(r.pos, r.mate, sc.rootMoves, false, sc.book) })
	if complete || r.limited() {
		return keys, complete
	}
	// The budget ran out, not the limit: a key is part of the answer, and
	// the tables keep what the budget paid for.
	return s.keys(r.pos, r.mate, sc.rootMoves, false, sc.book)
}

// line reads the main line after key: the loser's longest resistance
// (longest), else a line of the proof, of the full length and ending in
// mate; ok is false when the limit came first.
func (r *reader) line(key board.Move) (line []board.Move, longest, ok bool) {
	s := r.s
	if r.tree {
		r.budgeted(func() { line, longest, ok = s.proofLine(r.sc.tree, r.pos, key, r.mate) })
		if ok {
			return line, longest, true
		}
	}
	var complete bool
	r.budgeted(func() { line, complete = s.line(r.pos, key, r.mate) })
	if complete || r.limited() {
		return line, complete, complete
	}
	line, complete = s.line(r.pos, key, r.mate)
	return line, complete, complete
}

// withinKeys fills the keys and lines of a mate proved but not proved
// shortest: the proof's line, and with all every move that keeps the mate
// (while the limits allow), each of the first lines of them with a line
// of its own proof.
func withinKeys(s *searcher, pos board.Position, sc *schedule, all bool, lines int, res *Result) {
	if sc.line != nil {
		res.Keys, res.Lines = sc.line[:1], [][]board.Move{sc.line}
	} else {
		// The tree could not be read: the tables may still name a first
		// move of the proved mate.
		res.Keys, _ = s.keys(pos, res.MateWithin, sc.rootMoves, false, res.Book)
		res.Partial = true
	}
	if !all {
		return
	}
	keys, complete := s.keys(pos, res.MateWithin, sc.rootMoves, true, res.Book)
	if !complete {
		res.Partial = true
		return
	}
	if len(res.Keys) > 0 {
		// The proved line's key stays first.
		keys = append([]board.Move{res.Keys[0]}, slices.DeleteFunc(keys, func(m board.Move) bool { return m == res.Keys[0] })...)
	}
	res.Keys, res.AllKeys = keys, true
	if res.MateWithin < 0 {
		return
	}
	for _, k := range keys[1:] {
		if len(res.Lines) >= lines || s.env.lim.over.Load() {
			break
		}
		if _, line, err := s.provedLine(pos, res.MateWithin, []board.Move{k}, readBudget); err == nil {
			res.Lines = append(res.Lines, line)
		}
	}
}
