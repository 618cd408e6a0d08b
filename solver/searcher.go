package solver

import "mateline.dev/mateline/board"

// searcher is one thread's working memory: the path, the move lists, the
// ordering heuristics and its counters. What a search is asked comes in a
// query; what the threads of a solve share comes in env.
type searcher struct {
	env       *env
	nodes     uint64
	published uint64 // nodes already added to the solve's count
	// budgetEnd, when not 0, is the node count at which every query the
	// searcher starts stops: the budget of reading keys and lines.
	budgetEnd   uint64
	nextCheck   uint64 // the node count at which the limits are looked at next
	selDepth    int    // the deepest ply reached
	tbHits      uint64
	tbPublished uint64 // table hits already reported
	ttProbes    uint64
	ttHits      uint64

	pos     [MaxPly + 2]board.Position
	frames  [MaxPly + 1]node // the alpha-beta search's node at each ply
	lists   [MaxPly + 1]board.MoveList
	scores  [MaxPly + 1][256]int32
	killers [MaxPly + 1][2]board.Move
	history [2][64][64]int32

	deferred [MaxPly + 1][256]board.Move // moves put off because another thread searches them

	pnPhi   [MaxPly + 1][256]uint32
	pnDelta [MaxPly + 1][256]uint32
}

// begin readies the searcher for a new solve.
func (s *searcher) begin(e *env) {
	s.env = e
	s.nodes, s.published, s.tbHits, s.tbPublished, s.ttProbes, s.ttHits = 0, 0, 0, 0, 0, 0
	s.nextCheck = checkInterval
	s.budgetEnd = 0
	s.selDepth = 0
	clear(s.killers[:])
	clear(s.history[:])
}

// clockSalt mixes the half-move clock into a key under the 50-move rule.
const clockSalt = 0x9e3779b97f4a7c15

// ttKey is the position key, with the half-move clock mixed in when the
// 50-move rule is on (the clock then changes what can be proved).
func (s *searcher) ttKey(pos *board.Position) uint64 {
	k := pos.Key() ^ s.env.salt
	if s.env.rule50 {
		k ^= uint64(pos.HalfmoveClock()+1) * clockSalt
	}
	return k
}

// childKey is ttKey of the position after m, computed without playing m
// (exact in most positions; see board.KeyAfter). It serves to fetch table
// entries ahead, never to read them.
func (s *searcher) childKey(pos *board.Position, m board.Move) uint64 {
	k := pos.KeyAfter(m) ^ s.env.salt
	if s.env.rule50 {
		clock := pos.HalfmoveClock() + 1
		if pos.PieceAt(m.To()) != board.NoPiece || pos.PieceAt(m.From()).Type() == board.Pawn {
			clock = 0
		}
		k ^= uint64(clock+1) * clockSalt
	}
	return k
}

// probeTT looks key up in the shared table, counting the probe.
func (s *searcher) probeTT(key uint64) (ttEntry, bool) {
	s.ttProbes++
	e, ok := s.env.tt.probe(key)
	if ok {
		s.ttHits++
	}
	return e, ok
}
