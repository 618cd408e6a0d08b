package puzzles

import (
	"context"
	"fmt"
	"io"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/solver"
)

// Tree is a solution tree as JSON (--json --tree) and text (--tree): the
// solver's tree in SAN.
type Tree struct {
	Mate      solver.Mate `json:"mate"`
	FullDepth int         `json:"full_depth"` // attacker moves shown with every defence
	Cut       bool        `json:"main_lines_below,omitempty"`
	Note      string      `json:"note,omitempty"`
	// Keys (a mate) or Defences (a mated position: every move of the side
	// to move).
	Keys     []*TreeMove    `json:"keys,omitempty"`
	Defences []*TreeDefence `json:"defences,omitempty"`

	root board.Position
}

// TreeMove is an attacker move of the tree.
type TreeMove struct {
	SAN      string         `json:"san"`
	UCI      string         `json:"uci"`
	MateIn   int            `json:"mate_in"`
	Threat   *TreeThreat    `json:"threat,omitempty"`
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
// up to mate in 4, two beyond).
func AddTree(ctx context.Context, sv *solver.Solver, rec *Record, o *Outcome, opt solver.Options, fullDepth int) error {
	if o.Status != "mate" || rec.Err != nil {
		return nil
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
	o.Tree = NewTree(rec.Pos, st)
	return nil
}

// NewTree writes the solver's tree in SAN.
func NewTree(root board.Position, st *solver.SolutionTree) *Tree {
	t := &Tree{Mate: st.Mate, FullDepth: st.FullDepth, Cut: st.Cut, root: root}
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
	tm := &TreeMove{SAN: pos.SAN(n.Move), UCI: n.Move.UCI(), MateIn: n.MateIn}
	after := pos
	after.Play(n.Move)
	if th := n.Threat; th != nil {
		null := passedFEN(after)
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

// passedFEN is pos with the other side to move (the threat's position).
func passedFEN(pos board.Position) board.Position {
	f := strings.Fields(pos.FEN())
	f[1] = map[string]string{"w": "b", "b": "w"}[f[1]]
	f[3] = "-"
	p, err := board.ParseFEN(strings.Join(f, " "))
	if err != nil {
		return pos
	}
	return p
}

func sanMoves(pos board.Position, moves []board.Move) []string {
	var out []string
	for _, m := range moves {
		out = append(out, pos.SAN(m))
		pos.Play(m)
	}
	return out
}

// WriteText prints the tree the way problemists read it: move numbers from
// 1, each defence indented under the attacker move it answers.
func (t *Tree) WriteText(w io.Writer) error {
	var b strings.Builder
	if t.Note != "" {
		fmt.Fprintf(&b, "  solution tree (%s):\n", t.Note)
	} else {
		b.WriteString("  solution tree:\n")
	}
	white := t.root.Side() == board.White
	for _, k := range t.Keys {
		writeMove(&b, k, "  ", 1, white, true)
	}
	for _, d := range t.Defences {
		writeDefence(&b, d, "  ", 1, white)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// number is the move number text of the move-th move, made by White or
// Black.
func number(move int, white bool) string {
	if white {
		return fmt.Sprintf("%d.", move)
	}
	return fmt.Sprintf("%d...", move)
}

// writeMove prints an attacker move at full move number move; white says
// who makes it; key marks the root's moves with "!".
func writeMove(b *strings.Builder, m *TreeMove, indent string, move int, white, key bool) {
	fmt.Fprintf(b, "%s%s%s", indent, number(move, white), m.SAN)
	if key {
		b.WriteString("!")
	}
	writeTail(b, m, move, white)
	b.WriteByte('\n')
	next := move
	if !white {
		next++
	}
	for _, d := range m.Defences {
		writeDefence(b, d, indent+"    ", next, !white)
	}
}

// writeTail prints what follows an attacker move on its line: the threat,
// or the main line below the full depth.
func writeTail(b *strings.Builder, m *TreeMove, move int, white bool) {
	if m.Threat != nil {
		fmt.Fprintf(b, " threat: %s", lineText(m.Threat.Line, move+1, white))
		if len(m.Threat.Moves) > 1 {
			fmt.Fprintf(b, " (also %s)", strings.Join(m.Threat.Moves[1:], ", "))
		}
	}
	if len(m.MainLine) > 0 {
		next := move
		if !white {
			next++
		}
		fmt.Fprintf(b, " ... %s (main line)", lineText(m.MainLine, next, !white))
	}
}

// writeDefence prints a defence at move number move, made by White if
// white, with its answers on the same line.
func writeDefence(b *strings.Builder, d *TreeDefence, indent string, move int, white bool) {
	fmt.Fprintf(b, "%s%s%s", indent, number(move, white), d.SAN)
	next := move
	if !white {
		next++
	}
	for i, a := range d.Answers {
		sep := " "
		if i > 0 {
			sep = ", "
		}
		fmt.Fprintf(b, "%s%s%s", sep, number(next, !white), a.SAN)
	}
	if d.Dual {
		fmt.Fprintf(b, " (dual: %d answers)", len(d.Answers))
	}
	if len(d.Answers) > 0 {
		writeTail(b, d.Answers[0], next, !white)
	}
	b.WriteByte('\n')
	if len(d.Answers) > 0 {
		following := next
		if white {
			following++
		}
		for _, dd := range d.Answers[0].Defences {
			writeDefence(b, dd, indent+"    ", following, white)
		}
	}
}

// lineText numbers a line whose first move is the move-th, made by White
// if white.
func lineText(line []string, move int, white bool) string {
	var b strings.Builder
	for i, s := range line {
		if i > 0 {
			b.WriteByte(' ')
		}
		if white || i == 0 {
			b.WriteString(number(move, white))
		}
		b.WriteString(s)
		if !white {
			move++
		}
		white = !white
	}
	return b.String()
}
