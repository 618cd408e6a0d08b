package pgn

import (
	"strings"

	"mateline.dev/mateline/board"
)

// Game is one game as read: its tags, the position it starts from, and
// the tree of its moves.
type Game struct {
	Number int // 1-based place in its file
	Line   int // the line it starts on
	Tags   []Tag
	// Start is the position of the FEN tag, or the initial position.
	Start board.Position
	// Root stands for the start position: its Children are the first
	// moves, Children[0] the main line's and the others alternatives to it.
	Root *Node
	// Result is the game termination marker: 1-0, 0-1, 1/2-1/2 or *
	// ("" when the movetext ends without one).
	Result string
	// Warnings name what was read leniently: a FEN tag's castling rights
	// or en-passant square that contradict its position.
	Warnings []string
}

// Tag is a tag pair.
type Tag struct{ Name, Value string }

// Node is a move of the tree, with what was written around it.
type Node struct {
	Move board.Move
	// SAN is the move as written; Line the line it is on.
	SAN  string
	Line int
	// Before is a comment written before the move, After one after it.
	Before, After string
	NAGs          []int
	// Children are the moves from the position after this one:
	// Children[0] continues the line, the others are alternatives to it
	// (variations).
	Children []*Node
	Parent   *Node
}

// Tag returns the value of the named tag (names compare without regard
// to case), or "".
func (g *Game) Tag(name string) string {
	for _, t := range g.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value
		}
	}
	return ""
}

// SetTag sets a tag's value, adding the tag at the end when it is not
// there.
func (g *Game) SetTag(name, value string) {
	for i, t := range g.Tags {
		if strings.EqualFold(t.Name, name) {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{name, value})
}

// MainLine returns the moves of the main line and their nodes.
func (g *Game) MainLine() ([]board.Move, []*Node) {
	var moves []board.Move
	var nodes []*Node
	for n := g.Root; n != nil && len(n.Children) > 0; {
		n = n.Children[0]
		moves = append(moves, n.Move)
		nodes = append(nodes, n)
	}
	return moves, nodes
}

// Position returns the position before n's move (for the root: the start
// position).
func (g *Game) Position(n *Node) board.Position {
	var path []*Node
	for p := n.Parent; p != nil && p != g.Root; p = p.Parent {
		path = append(path, p)
	}
	pos := g.Start
	for i := len(path) - 1; i >= 0; i-- {
		pos.Play(path[i].Move)
	}
	return pos
}

// Add appends a move to n's children and returns its node.
func (n *Node) Add(m board.Move) *Node {
	c := &Node{Move: m, Parent: n}
	n.Children = append(n.Children, c)
	return c
}

// Ply is the number of moves from the start position to n, n included.
func (n *Node) Ply() int {
	k := 0
	for p := n; p.Parent != nil; p = p.Parent {
		k++
	}
	return k
}
