package board

// Perft counts the leaf nodes of the legal move tree to depth plies. At the
// last ply it counts the generated moves without playing them (bulk
// counting), as Stockfish's "go perft" does.
func Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	// One child position per ply, allocated once: a child declared inside
	// the recursion would escape to the heap.
	stack := make([]Position, depth)
	return perft(p, depth, stack)
}

func perft(p *Position, depth int, stack []Position) uint64 {
	var l MoveList
	p.LegalMoves(&l)
	if depth == 1 {
		return uint64(l.N)
	}
	child := &stack[0]
	var n uint64
	for _, m := range l.Moves[:l.N] {
		*child = *p
		child.Play(m)
		n += perft(child, depth-1, stack[1:])
	}
	return n
}

// DivideEntry is one root move and the leaves below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide runs Perft below each root move.
func Divide(p *Position, depth int) []DivideEntry {
	var l MoveList
	p.LegalMoves(&l)
	out := make([]DivideEntry, 0, l.N)
	for _, m := range l.Moves[:l.N] {
		child := *p
		child.Play(m)
		out = append(out, DivideEntry{m, Perft(&child, depth-1)})
	}
	return out
}
