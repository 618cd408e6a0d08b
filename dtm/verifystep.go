package dtm

import (
	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// stepAgrees reports whether v is the value nd's moves give it (oneStep's
// value), reading no more than that needs. A move into a side its table
// does not store (format 3 or 5, where each such value is a search of
// its own moves) is read only until its value is known to be no better
// for nd than v and, once another move has matched v, not needed to
// match it: the first replies that show it are enough. Every other move
// is read exactly, as oneStep reads it.
func (s *Store) stepAgrees(nd *tablefile.Node, v tablefile.Value, w *stepScratch) (bool, error) {
	w.moves = nd.Moves(w.moves[:0])
	if len(w.moves) == 0 {
		if nd.InCheck() {
			return v == tablefile.LossIn(0), nil
		}
		return v == tablefile.Draw, nil
	}
	matched := false
	for _, m := range w.moves {
		w.child = nd.Play(m)
		after, exact, err := s.moveValueAgainst(&w.child, v, matched, w)
		if err != nil {
			return false, err
		}
		if after.Better(v) {
			return false, nil
		}
		if exact && after == v {
			matched = true
		}
	}
	return matched, nil
}

// moveValueAgainst is the value for the side that moved of the move that
// led to child (exact), or, for a child in a side not stored, a bound on
// it once its replies show the move is worse than v, or no better than v
// when matched (not exact: the value is at most the one returned).
func (s *Store) moveValueAgainst(child *tablefile.Node, v tablefile.Value, matched bool, w *stepScratch) (tablefile.Value, bool, error) {
	x, searched, err := s.unstoredNode(child)
	if err != nil {
		return tablefile.Draw, false, err
	}
	if !searched {
		cv, err := tablefile.ValueOf(child, s.lookupHeld, &w.ep)
		if err != nil {
			return tablefile.Draw, false, err
		}
		after, err := cv.BeforeWide()
		return after, true, err
	}
	var buf [64]tablefile.Move
	replies := x.Moves(buf[:0])
	best := tablefile.BestMove{Wide: true}
	for _, r := range replies {
		gc := x.Play(r)
		gv, err := tablefile.ValueOf(&gc, s.lookupHeld, &w.replyEP)
		if err != nil {
			return tablefile.Draw, false, err
		}
		best.Add(gv)
		if best.Long {
			continue // (left to the exact value below)
		}
		after, err := best.V.BeforeWide()
		if err != nil {
			return tablefile.Draw, false, err
		}
		if v.Better(after) || matched && after == v {
			return after, false, nil
		}
	}
	var cv tablefile.Value
	switch {
	case best.Have:
		if cv, err = best.Value(); err != nil {
			return tablefile.Draw, false, err
		}
	case x.InCheck():
		cv = tablefile.LossIn(0)
	default:
		cv = tablefile.Draw
	}
	after, err := cv.BeforeWide()
	return after, true, err
}

// unstoredNode finds child's table: when the table answers child's side
// to move by searching its moves (a side its file does not store), it
// returns child as that table numbers it (colours flipped when the table
// is the other colouring) and true.
func (s *Store) unstoredNode(child *tablefile.Node) (tablefile.Node, bool, error) {
	if child.Ep != board.NoSquare {
		return tablefile.Node{}, false, nil
	}
	r, err := s.resolve(child, s.buildMax)
	if err != nil || r.t == nil || r.t.z == nil || r.t.rawData() != nil {
		return tablefile.Node{}, false, err
	}
	x := *child
	if r.flip {
		x = child.Flipped()
	}
	h := r.t.z.Header
	return x, h.Decides() && !h.Stores(int(x.Stm)), nil
}
