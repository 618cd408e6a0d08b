package book

import (
	"strings"
	"sync"

	"github.com/corentings/chess/v2/opening"

	"mateline.dev/mateline/board"
)

// Opening is a named opening of the ECO classification.
type Opening struct {
	Code string `json:"code"` // such as "C60"
	Name string `json:"name"` // such as "Ruy Lopez"
}

type ecoMove struct {
	move   board.Move
	weight uint32
}

// ecoIndex maps position keys (Zobrist, ignoring clocks) to the opening
// named at that position and to the moves that continue some named line.
type ecoIndex struct {
	names     map[uint64]*Opening
	next      map[uint64][]ecoMove
	minPieces int // the fewest pieces of a position on a line
}

var (
	ecoOnce sync.Once
	eco     ecoIndex
)

// loadECO lays out every line of the chess library's ECO data as book
// moves: the weight of a move is the number of named lines through it.
func loadECO() {
	eco = ecoIndex{names: map[uint64]*Opening{}, next: map[uint64][]ecoMove{}, minPieces: 32}
	data, err := opening.DefaultBook()
	if err != nil {
		return
	}
	for _, o := range data.Possible(nil) {
		pos := board.StartPosition()
		ok := true
		for _, u := range strings.Fields(o.PGN()) {
			m, err := pos.ParseUCI(u)
			if err != nil {
				ok = false
				break
			}
			eco.addMove(pos.Key(), m)
			pos.Play(m)
			eco.minPieces = min(eco.minPieces, pos.Occupied().Count())
		}
		if ok {
			if _, dup := eco.names[pos.Key()]; !dup {
				eco.names[pos.Key()] = &Opening{Code: o.Code(), Name: o.Title()}
			}
		}
	}
}

func (x *ecoIndex) addMove(key uint64, m board.Move) {
	list := x.next[key]
	for i := range list {
		if list[i].move == m {
			list[i].weight++
			return
		}
	}
	x.next[key] = append(list, ecoMove{m, 1})
}

// ecoMinPieces is the fewest pieces of any position on a line of the ECO
// data (22: TestECOMinPieces checks it). A position with fewer has no
// entry, and is answered without loading the data, which takes about
// 0.1 s: a solve of an endgame or a problem never pays for it.
const ecoMinPieces = 22

// ecoCovers reports whether pos has enough pieces to be in the ECO data.
func ecoCovers(pos *board.Position) bool { return pos.Occupied().Count() >= ecoMinPieces }

// OpeningOf names the opening of pos, if the ECO data names it.
func OpeningOf(pos *board.Position) *Opening {
	if !ecoCovers(pos) {
		return nil
	}
	ecoOnce.Do(loadECO)
	return eco.names[pos.Key()]
}

func ecoContinuations(pos *board.Position) []ecoMove {
	if !ecoCovers(pos) {
		return nil
	}
	ecoOnce.Do(loadECO)
	return eco.next[pos.Key()]
}
