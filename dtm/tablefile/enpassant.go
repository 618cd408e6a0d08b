package tablefile

import "mateline.dev/mateline/board"

// Lookup reads the value of a position of some table.
type Lookup func(nd *Node) (Value, error)

// EPScratch is the room ValueOf needs: the nodes it hands to base (as
// locals they would escape to the heap) and a move list. One per
// goroutine.
type EPScratch struct {
	plain, child Node
	moves        []Move
}

// ValueOf reads a position that may have an en-passant right: without
// one it is base's; with one it is the best of its moves (one ply ahead).
// It allocates nothing once sc.moves has grown.
func ValueOf(nd *Node, base Lookup, sc *EPScratch) (Value, error) {
	if nd.Ep == board.NoSquare {
		return base(nd)
	}
	sc.moves = nd.Moves(sc.moves[:0])
	hasEP, hasOther := false, false
	for _, m := range sc.moves {
		if m.Ep {
			hasEP = true
		} else {
			hasOther = true
		}
	}
	sc.plain = *nd
	sc.plain.Ep = board.NoSquare
	if !hasEP {
		return base(&sc.plain)
	}
	best := BestMove{Wide: true} // (a value of two bytes read exactly)
	if hasOther {
		v, err := base(&sc.plain)
		if err != nil {
			return Draw, err
		}
		best.V, best.Have = v, true // (the value of the other moves)
	}
	for _, m := range sc.moves {
		if !m.Ep {
			continue
		}
		// after an en-passant capture no en-passant right is left: base
		// reads the child at once, and sc.moves is not touched again
		sc.child = nd.Play(m)
		v, err := base(&sc.child)
		if err != nil {
			return Draw, err
		}
		best.Add(v)
	}
	return best.Value()
}
