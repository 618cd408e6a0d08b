package book

import (
	"sort"

	"mateline.dev/mateline/board"
)

// Move is a book move with its weight (summed over the books that hold it)
// and its share of the position's total weight.
type Move struct {
	Move   board.Move
	Weight uint32
	Share  float64
}

// Result is what the books say about one position.
type Result struct {
	Key     uint64
	Moves   []Move // highest weight first; ties by UCI text
	Skipped int    // entries whose move is not legal here
	ECO     *Opening
}

// Book answers from Polyglot files, or, when there are none, from the
// built-in ECO data. The ECO name is given either way. A Book is safe for
// concurrent use.
type Book struct {
	files []*File
	eco   bool
}

// New returns a book over the given files; with none it answers from the
// built-in ECO data, loaded when a lookup first needs it.
func New(files ...*File) *Book {
	return &Book{files: files, eco: len(files) == 0}
}

// Open opens the Polyglot files at paths (none: the built-in default).
func Open(paths ...string) (*Book, error) {
	var files []*File
	for _, p := range paths {
		f, err := OpenFile(p)
		if err != nil {
			for _, o := range files {
				o.Close()
			}
			return nil, err
		}
		files = append(files, f)
	}
	return New(files...), nil
}

// Close closes the files.
func (b *Book) Close() error {
	var first error
	for _, f := range b.files {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Lookup returns the book moves of pos.
func (b *Book) Lookup(pos *board.Position) (Result, error) {
	res := Result{Key: Key(pos), ECO: OpeningOf(pos)}
	var moves []Move
	index := map[board.Move]int{}
	add := func(m board.Move, w uint32) {
		if i, ok := index[m]; ok {
			moves[i].Weight += w
			return
		}
		index[m] = len(moves)
		moves = append(moves, Move{Move: m, Weight: w})
	}
	if b.eco {
		for _, c := range ecoContinuations(pos) {
			add(c.move, c.weight)
		}
	}
	var legal board.MoveList
	if len(b.files) > 0 {
		pos.LegalMoves(&legal)
	}
	for _, f := range b.files {
		entries, err := f.Lookup(res.Key)
		if err != nil {
			return res, err
		}
		for _, e := range entries {
			m, ok := decodeIn(pos, &legal, e.Move)
			if !ok {
				res.Skipped++
				continue
			}
			add(m, uint32(e.Weight))
		}
	}
	// Highest weight first; ties by UCI text, as the reference tools
	// (python-chess, the shared book vectors) order them.
	sort.SliceStable(moves, func(i, j int) bool {
		if moves[i].Weight != moves[j].Weight {
			return moves[i].Weight > moves[j].Weight
		}
		return moves[i].Move.UCI() < moves[j].Move.UCI()
	})
	var total uint32
	for _, m := range moves {
		total += m.Weight
	}
	for i := range moves {
		if total > 0 {
			moves[i].Share = float64(moves[i].Weight) / float64(total)
		}
	}
	res.Moves = moves
	return res, nil
}

// BookMoves lists the book moves of pos, best first; it is the solver's
// view of the book (ordering only). Errors count as no moves.
func (b *Book) BookMoves(pos *board.Position) []board.Move {
	res, err := b.Lookup(pos)
	if err != nil {
		return nil
	}
	out := make([]board.Move, len(res.Moves))
	for i, m := range res.Moves {
		out[i] = m.Move
	}
	return out
}
