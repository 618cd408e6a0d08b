package dtm

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/generate"
	"mateline.dev/mateline/dtm/tablefile"
)

// LongestReport is what LongestMates finds: a table's longest mate and
// the positions that have it.
type LongestReport struct {
	Table string
	// Moves is the longest mate, in moves (the file's header says it).
	Moves int
	// Count is how many stored positions have it, Positions the first
	// of them in index order (FEN, side to move included).
	Count     int64
	Positions []string
	// OneSide: the file stores one side to move (format 3), and only
	// that side's positions were read
	OneSide bool
}

// String writes the report, a position a line.
func (r LongestReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: longest mate %d moves, in %d position(s)", r.Table, r.Moves, r.Count)
	if r.OneSide {
		b.WriteString(" of the side to move its file stores")
	}
	if r.Count > int64(len(r.Positions)) {
		fmt.Fprintf(&b, ", the first %d", len(r.Positions))
	}
	for _, p := range r.Positions {
		fmt.Fprintf(&b, "\n  %s", p)
	}
	return b.String()
}

// LongestMates reads every block of m's table and finds the positions
// whose mate is the table's longest, keeping up to limit of them (the
// first in index order, White to move first). In a file of format 3 a
// stored byte is taken only when the probe's answer agrees (such a file
// fills some slots with other bytes), and when the side stored has none
// of them, a pawnless table's side not stored is searched from the
// stored positions one move from them (longestUnstored).
func (s *Store) LongestMates(m tablefile.Material, limit int) (LongestReport, error) {
	m, _ = m.Canonical()
	t, err := s.builtTable(m)
	if err != nil {
		return LongestReport{}, err
	}
	z := t.z
	r := LongestReport{Table: m.String(), Moves: int(z.Header.Longest), OneSide: z.Header.SidesStored() == 1}
	if r.Moves == 0 {
		return r, nil
	}
	found, err := s.storedWith(t, func(v tablefile.Value) bool { return v.Moves() == r.Moves })
	if err != nil {
		return r, err
	}
	if len(found) == 0 && r.OneSide && !m.HasPawns() {
		if found, err = s.longestUnstored(t, r.Moves); err != nil {
			return r, err
		}
		r.OneSide = false
	}
	r.Count = int64(len(found))
	for _, nd := range found[:min(len(found), limit)] {
		r.Positions = append(r.Positions, nd.FEN())
	}
	return r, nil
}

// storedWith reads every block of t's file and returns, in the order of
// the blocks, the stored positions whose value keep accepts (in a file
// of format 3, the probe's answer: a stored byte may be a fill).
func (s *Store) storedWith(t *Table, keep func(tablefile.Value) bool) ([]tablefile.Node, error) {
	z := t.z
	perBlock := make([][]tablefile.Node, z.Header.Blocks)
	var mu sync.Mutex
	var firstErr error
	tablefile.Blocks(int64(z.Header.Blocks), s.workers, func(g int64, buf []byte) []byte {
		b, err := z.Decode(g, buf)
		if err != nil {
			mu.Lock()
			firstErr = err
			mu.Unlock()
			return buf
		}
		stm, first := z.BlockSide(g)
		for i := int64(0); i < int64(z.Entries(g)); i++ {
			v := z.ValueIn(b, i)
			if !keep(v) {
				continue
			}
			nd, ok := ownNode(t.l, first+i)
			if !ok {
				continue
			}
			nd.Stm = board.Color(stm)
			if z.Header.Decides() {
				if got, err := s.answer(t, &nd, 0); err != nil || got != v {
					continue
				}
			}
			perBlock[g] = append(perBlock[g], nd)
		}
		return b
	})
	var all []tablefile.Node
	for _, f := range perBlock {
		all = append(all, f...)
	}
	return all, firstErr
}

// longestUnstored finds, in a pawnless table whose file stores one side
// to move, the positions of the other side mating in moves, when the
// side stored has none: each wins by a move into a stored position
// mated in moves-1 (a loss in moves would need a stored win in moves),
// so it is one of their predecessors (generate.Predecessors), a man of
// the side to move put back on a square it came from. A capture could lead there too only
// when a table the captures lead to holds a mate of moves-1: then it
// fails rather than miss one.
func (s *Store) longestUnstored(t *Table, moves int) ([]tablefile.Node, error) {
	for _, c := range t.l.Mat.Children() {
		if c.Bare() {
			continue
		}
		ct, err := s.builtTable(c)
		if err != nil {
			return nil, err
		}
		if int(ct.z.Header.Longest) >= moves-1 {
			return nil, fmt.Errorf("%s: its longest mate is on the side its file does not store, and %s's mates are as long: not searched", t.l.Mat, c)
		}
	}
	seeds, err := s.storedWith(t, func(v tablefile.Value) bool { return v.Loss() && v.Moves() == moves-1 })
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	var wins []int64
	stm := board.White
	var preds []int64
	for i := range seeds {
		idx, err := t.l.IndexOf(&seeds[i])
		if err != nil {
			continue
		}
		preds = generate.Predecessors(t.l, idx, seeds[i].Stm, preds[:0])
		for _, x := range preds {
			p, ok := ownNode(t.l, x)
			if !ok || seen[x] {
				continue
			}
			seen[x] = true
			p.Stm = seeds[i].Stm.Other()
			if v, err := s.answer(t, &p, 0); err == nil && v.Win() && v.Moves() == moves {
				wins, stm = append(wins, x), p.Stm
			}
		}
	}
	// in index order, each in the form the layout stores
	sort.Slice(wins, func(i, j int) bool { return wins[i] < wins[j] })
	out := make([]tablefile.Node, 0, len(wins))
	for _, idx := range wins {
		if nd, ok := ownNode(t.l, idx); ok {
			nd.Stm = stm
			out = append(out, nd)
		}
	}
	return out, nil
}
