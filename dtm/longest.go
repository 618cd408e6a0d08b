package dtm

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"mateline.dev/mateline/board"
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
// first in index order, White to move first). In a file of format 3 the
// side not stored is not read, and a stored byte is taken only when the
// probe's answer agrees (such a file fills some slots with other bytes).
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
	type found struct {
		g    int64
		fens []string
		n    int64
	}
	var mu sync.Mutex
	var all []found
	var firstErr error
	tablefile.Blocks(int64(z.Header.Blocks), s.workers, func(g int64, buf []byte) []byte {
		b, err := z.Decode(g, buf)
		if err != nil {
			mu.Lock()
			firstErr = err
			mu.Unlock()
			return buf
		}
		f := found{g: g}
		stm, first := z.BlockSide(g)
		for i := int64(0); i < int64(z.Entries(g)); i++ {
			v := z.ValueIn(b, i)
			if v.Moves() != r.Moves {
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
			f.n++
			if len(f.fens) < limit {
				f.fens = append(f.fens, nd.FEN())
			}
		}
		if f.n > 0 {
			mu.Lock()
			all = append(all, f)
			mu.Unlock()
		}
		return b
	})
	if firstErr != nil {
		return r, firstErr
	}
	sort.Slice(all, func(i, j int) bool { return all[i].g < all[j].g })
	for _, f := range all {
		r.Count += f.n
		for _, fen := range f.fens {
			if len(r.Positions) < limit {
				r.Positions = append(r.Positions, fen)
			}
		}
	}
	return r, nil
}
