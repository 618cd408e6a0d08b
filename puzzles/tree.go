package puzzles

import (
	"context"
	"fmt"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
)

// Tree is a solution tree as JSON (--json --tree) and text (--tree): the
// solver's tree in SAN.
type Tree struct {
	Mate      problem.Mate `json:"mate"`
	FullDepth int          `json:"full_depth"` // attacker moves shown with every defence
	Cut       bool         `json:"main_lines_below,omitempty"`
	Note      string       `json:"note,omitempty"`
	// Stipulation is a selfmate's ("s#3"): mate_in then counts the
	// attacker's moves to the selfmate. Empty for a direct mate.
	Stipulation string `json:"stipulation,omitempty"`
	// Keys (a mate) or Defences (a mated position: every move of the side
	// to move).
	Keys     []*TreeMove    `json:"keys,omitempty"`
	Defences []*TreeDefence `json:"defences,omitempty"`
}

// TreeMove is an attacker move of the tree.
type TreeMove struct {
	SAN      string         `json:"san"`
	UCI      string         `json:"uci"`
	MateIn   int            `json:"mate_in"`
	Threat   *TreeThreat    `json:"threat,omitempty"`
	Zugzwang bool           `json:"zugzwang,omitempty"` // a quiet move that threatens nothing
	Defences []*TreeDefence `json:"defences,omitempty"`
	MainLine []string       `json:"main_line,omitempty"` // below the full depth
}

// TreeDefence is a defence with the attacker's answers; Dual when more
// than one answer mates soonest.
type TreeDefence struct {
	SAN     string      `json:"san"`
	UCI     string      `json:"uci"`
	Answers []*TreeMove `json:"answers"`
	Dual    bool        `json:"dual,omitempty"`
}

// TreeThreat is the mate threatened after a quiet move.
type TreeThreat struct {
	MateIn int      `json:"mate_in"`
	Moves  []string `json:"moves"`
	Line   []string `json:"line"`
}

// AddTree builds the solution tree of an outcome whose mate was proved
// shortest, with every key (solve with AllKeys), and attaches it.
// fullDepth bounds the attacker moves shown with every defence (0: all
// up to mate in 4, two beyond). It is built within the record's limits.
func AddTree(ctx context.Context, sv *solver.Solver, rec *record.Record, o *Answer, opt solver.Options, fullDepth int, lim *Limits) error {
	if o.Status != "mate" || rec.Err != nil {
		return nil
	}
	opt, ok := lim.For(opt)
	if !ok {
		return errLimit
	}
	res := solver.Result{Status: solver.StatusMate, Mate: o.Mate}
	for _, k := range o.Keys {
		m, err := rec.Pos.ParseUCI(k)
		if err != nil {
			return err
		}
		res.Keys = append(res.Keys, m)
	}
	st, err := sv.Tree(ctx, rec.Pos, res, opt, fullDepth)
	if err != nil {
		return err
	}
	o.Tree = newTree(rec.Pos, st)
	return nil
}

// newTree writes the solver's tree in SAN.
func newTree(root board.Position, st *solver.SolutionTree) *Tree {
	t := &Tree{Mate: st.Mate, FullDepth: st.FullDepth, Cut: st.Cut}
	if st.Cut {
		t.Note = fmt.Sprintf("every defence is shown to move %d; below, the main line only", st.FullDepth)
	}
	for _, k := range st.Keys {
		t.Keys = append(t.Keys, treeMove(root, k))
	}
	for _, d := range st.Defences {
		t.Defences = append(t.Defences, treeDefence(root, d))
	}
	return t
}

func treeMove(pos board.Position, n *solver.AttackerNode) *TreeMove {
	tm := &TreeMove{SAN: pos.SAN(n.Move), UCI: n.Move.UCI(), MateIn: n.MateIn, Zugzwang: n.Zugzwang}
	after := pos
	after.Play(n.Move)
	if th := n.Threat; th != nil {
		null, ok := after.Passed()
		if !ok {
			null = after
		}
		tt := &TreeThreat{MateIn: th.MateIn}
		for _, m := range th.Moves {
			tt.Moves = append(tt.Moves, null.SAN(m))
		}
		tt.Line = sanMoves(null, th.Line)
		tm.Threat = tt
	}
	for _, d := range n.Defences {
		tm.Defences = append(tm.Defences, treeDefence(after, d))
	}
	if len(n.MainLine) > 0 {
		tm.MainLine = sanMoves(after, n.MainLine)
	}
	return tm
}

func treeDefence(pos board.Position, n *solver.DefenceNode) *TreeDefence {
	td := &TreeDefence{SAN: pos.SAN(n.Move), UCI: n.Move.UCI(), Dual: len(n.Answers) > 1, Answers: []*TreeMove{}}
	after := pos
	after.Play(n.Move)
	for _, a := range n.Answers {
		td.Answers = append(td.Answers, treeMove(after, a))
	}
	return td
}

func sanMoves(pos board.Position, moves []board.Move) []string {
	return notate(pos, moves, (*board.Position).SAN)
}

// LongMove is a tree's move in Popeye's long notation, with " =" after a
// move that stalemates (the aim of =N and s=N; in a proved tree of a
// mate no move stalemates, as nothing follows it).
func LongMove(pos *board.Position, m board.Move) string {
	text := pos.LongNotation(m)
	after := *pos
	after.Play(m)
	if after.IsStalemate() {
		text += " ="
	}
	return text
}

// LongLine writes a line given in SAN from pos in Popeye's long notation
// (the SAN itself from the first move that does not read).
func LongLine(pos board.Position, sans []string) []string {
	out := make([]string, 0, len(sans))
	for i, san := range sans {
		m, err := pos.ParseSAN(san)
		if err != nil {
			return append(out, sans[i:]...)
		}
		out = append(out, LongMove(&pos, m))
		pos.Play(m)
	}
	return out
}

// notate writes each move of a line from pos with write.
func notate(pos board.Position, moves []board.Move, write func(*board.Position, board.Move) string) []string {
	var out []string
	for _, m := range moves {
		out = append(out, write(&pos, m))
		pos.Play(m)
	}
	return out
}
