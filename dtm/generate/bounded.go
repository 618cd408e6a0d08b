package generate

import (
	"math/bits"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// The bounded generator solves a pawnless table by rows, as buildRows
// does, but keeps in memory only five bits a position and side to move:
//
//   - done: the position has its value, or is no legal position;
//   - open: the position is legal and not won (what a loss's quiet moves
//     must not lead to);
//   - blocked: a conversion holds a loss back (it draws, wins, or loses
//     at a ply not reached yet);
//   - fresh and next: the positions valued at the last ply and those
//     found at this one.
//
// What the rows generator keeps a byte a position for goes to a scratch
// file on disk (spill.go) instead: the plies at which conversions win or
// lose, and the positions the set-up values, bucketed by side and ply and
// read back at that ply; and each ply's newly valued positions, read back
// once at the end to write the values. A loss held back by a conversion
// is found again at the conversion's ply, where its quiet moves are
// checked anew (they only ever become won), so no position waits.
//
// A pawnless six-man table numbered by rows holds 10 × 64^5 positions a
// side: the five bits are 13.4 GB for both sides (the store's plan counts
// them, boundedMemory).

// boundedGen is the state of one bounded build.
type boundedGen struct {
	*rowGen
	open, blocked [2][]uint64
	events        *spill // the set-up's findings, by eventBucket
	values        *spill // the positions valued, by valueBucket
	pending       int    // the last ply an event reaches
}

// SetUpPly is the ply a bounded build's progress reports during its
// set-up, with done and total counting rows.
const SetUpPly = -1

// eventKind says what a set-up event is.
type eventKind int

const (
	// convWins: a conversion mates at the ply, unless a quiet move
	// mates sooner
	convWins eventKind = iota
	// convLoses: every conversion loses by the ply; the position is
	// lost then if its quiet moves all lose by then
	convLoses
	// settled: the position has no quiet move and its conversions (or
	// its checkmate) give its value at the ply
	settled
)

// plyBuckets is how many plies a bucket kind spans.
const plyBuckets = 2*tablefile.MaxMoves + 2

// eventBucket is the bucket of an event of kind k for side s at ply p.
func eventBucket(k eventKind, s board.Color, p int) int {
	return (int(k)*2+int(s))*plyBuckets + p
}

// kingPairs is how many parts the values are written in: one per square
// of the white king's triangle and of the black king, the part of a
// layout's king pair.
const kingPairs = 10 * 64

// valueBucket is the bucket of the positions of side s valued at ply p
// in the rows of king pair part.
func valueBucket(s board.Color, p, part int) int { return (int(s)*plyBuckets+p)*kingPairs + part }

// buildBounded computes a pawnless table in bounded memory, its scratch
// file in dir. Its values are read from the Built's Stream, in the
// layout's order, a king pair at a time; Release lets the scratch file go.
func (b *builder) buildBounded(dir string) (Built, error) {
	l := b.l
	g := &boundedGen{rowGen: &rowGen{b: b, l: l, rowNumbering: pawnlessNumbering(l)}}
	g.lo, g.hi = 0, g.rows
	var err error
	if g.events, err = newSpill(dir); err != nil {
		return Built{}, err
	}
	defer g.events.close()
	if g.values, err = newSpill(dir); err != nil {
		return Built{}, err
	}
	release := func() { g.values.close() }
	for s := 0; s < 2; s++ {
		g.done[s] = make([]uint64, g.rows)
		g.open[s] = make([]uint64, g.rows)
		g.blocked[s] = make([]uint64, g.rows)
		g.fresh[s] = newRowSet(g.rows)
		g.next[s] = newRowSet(g.rows)
	}
	if err := g.setUpBounded(); err != nil {
		release()
		return Built{}, err
	}
	if err := g.solveBounded(); err != nil {
		release()
		return Built{}, err
	}
	g.done, g.open, g.blocked = [2][]uint64{}, [2][]uint64{}, [2][]uint64{}
	g.fresh, g.next = [2]rowSet{}, [2]rowSet{}
	// the bit sets (13.4 GB for six men) are garbage now: give them back
	// before the values are read back and compressed
	debug.FreeOSMemory()
	st := &pairStream{g: g, kk: -1}
	return Built{Stream: st.values, Release: release}, nil
}

// setUpBounded finds the legal positions, then values each row's
// conversions and writes what they decide as events.
func (g *boundedGen) setUpBounded() error {
	g.each(func(w *worker, r int64) {
		sq, occ, ok := g.decodeRow(r)
		for s := board.White; s <= board.Black; s++ {
			lg := uint64(0)
			if ok {
				lg = g.legalBits(&sq, occ, s)
			}
			g.open[s][r], g.done[s][r] = lg, ^lg
		}
	})
	var rowsDone atomic.Int64
	var reportMu sync.Mutex
	g.b.parallelGrain(g.rows, 16, func(w *worker, from, to int64) {
		defer func() {
			// (a six-man set-up takes minutes: say how far it is)
			if n := rowsDone.Add(to - from); g.b.progress != nil && n>>16 != (n-(to-from))>>16 {
				reportMu.Lock()
				g.b.progress(n, g.rows, SetUpPly)
				reportMu.Unlock()
			}
		}()
		var es []spillEntry
		for r := from; r < to && !g.b.failed.Load(); r++ {
			sq, occ, ok := g.decodeRow(r)
			if !ok {
				continue
			}
			for s := board.White; s <= board.Black; s++ {
				if g.open[s][r] != 0 && !g.setUpBoundedSide(w, r, &sq, occ, s, &es) {
					return
				}
			}
		}
		if err := g.events.addAll(es); err != nil {
			g.b.fail(err)
		}
	})
	for i := range g.b.scratch {
		g.pending = max(g.pending, g.b.scratch[i].pending)
	}
	if g.b.failed.Load() {
		return g.b.err
	}
	return nil
}

// setUpBoundedSide is the set-up of row r with side s to move: its
// quiet moves gathered, its conversions valued, and what they decide
// added to es; false when the build failed.
func (g *boundedGen) setUpBoundedSide(w *worker, r int64, sq *tablefile.Squares, occ board.Bitboard, s board.Color, es *[]spillEntry) bool {
	lg := g.open[s][r]
	other := s.Other()
	// (open is still the legal positions: nothing is won yet)
	q := g.gather(r, sq, occ, s, g.open[other], nil, lg)
	var ok bool
	w.caps, ok = g.rowCaptures(w, sq, occ, s, lg, w.caps[:0])
	if !ok {
		return false
	}
	nd := tablefile.Node{N: g.l.Men, Pieces: g.l.Pieces, Sq: *sq, Stm: s, Ep: board.NoSquare}
	w.pushes = w.pushes[:0]
	busy, ok := g.rowConversions(w, &nd, lg, q)
	if !ok {
		return false
	}
	g.keepConversions(w, r, s, lg&busy)
	return g.settleBounded(w, r, s, lg&busy, q, lg&^g.open[other][r], es)
}

// settleBounded writes what the set-up decides of the positions busy of
// row r, side s to move, as events: a position with quiet moves keeps
// its best conversion for the plies, one without is settled by its
// conversions, or checkmated (in check) or stalemate; false when the
// build failed.
func (g *boundedGen) settleBounded(w *worker, r int64, s board.Color, busy, q, check uint64, es *[]spillEntry) bool {
	// this row's events, by bucket (at most one per position)
	var found [64]spillEntry
	n := 0
	add := func(k eventKind, p int, bit uint64) {
		bucket := eventBucket(k, s, p)
		for i := 0; i < n; i++ {
			if found[i].bucket == bucket {
				found[i].mask |= bit
				return
			}
		}
		found[n] = spillEntry{bucket, uint32(r), bit}
		n++
	}
	for y := busy; y != 0; y &= y - 1 {
		f := bits.TrailingZeros64(y)
		bit := uint64(1) << f
		best := w.best[f]
		if best.Long {
			g.b.fail(tablefile.ErrTooLong)
			return false
		}
		if q&bit != 0 {
			if !best.Have {
				continue
			}
			g.blocked[s][r] |= bit
			switch {
			case best.V.Win():
				add(convWins, best.V.Plies(), bit)
			case best.V.Loss():
				add(convLoses, best.V.Plies(), bit)
			}
			if best.V != tablefile.Draw {
				w.pending = max(w.pending, best.V.Plies())
			}
			continue
		}
		v, ok := settledValue(best, check&bit != 0)
		if !ok {
			continue
		}
		g.done[s][r] |= bit
		add(settled, v.Plies(), bit)
		w.pending = max(w.pending, v.Plies()+1)
	}
	*es = append(*es, found[:n]...)
	return true
}

// solveBounded runs the plies until no position takes a value.
func (g *boundedGen) solveBounded() error {
	if _, err := g.commitBounded(0); err != nil { // the checkmates
		return err
	}
	for p := 1; p <= 2*tablefile.MaxMoves; p++ {
		if err := g.stepBounded(p); err != nil {
			return err
		}
		if g.b.failed.Load() {
			return g.b.err
		}
		changed, err := g.commitBounded(p)
		if err != nil {
			return err
		}
		if changed {
			g.lastPly = p
		}
		if !changed && p >= g.pending {
			break
		}
		if g.b.progress != nil {
			g.b.progress(0, 1, p)
		}
	}
	// a mate of maxMoves may leave a longer one unstored: the bounded
	// build does not tell them apart, and refuses
	if g.lastPly == 2*tablefile.MaxMoves {
		return tablefile.ErrTooLong
	}
	return nil
}

// stepBounded finds the positions that take a value at ply p: at an odd
// ply those with a quiet move into a position just lost or a conversion
// mating now; at an even ply those a successor just became a win for the
// other side, or whose conversions lose now, every quiet move leading to
// a position the other side won and no conversion holding it back.
func (g *boundedGen) stepBounded(p int) error {
	for s := range g.next {
		g.next[s].reset()
	}
	g.eachBlock(func(w *worker, s board.Color, blk int64) {
		next, fresh := g.next[s], g.fresh[s.Other()]
		if !fresh.marked(blk) {
			return
		}
		for r := blk * 64; r < min(blk*64+64, g.rows); r++ {
			if x := fresh.w[r]; x != 0 {
				g.scatter(r, x, s, next)
			}
		}
	})
	win := p%2 == 1
	for s := board.White; s <= board.Black; s++ {
		k := convLoses
		if win {
			k = convWins
		}
		next, blocked := g.next[s], g.blocked[s]
		err := g.events.each(eventBucket(k, s, p), func(row uint32, mask uint64) {
			if !win {
				blocked[row] &^= mask
			}
			next.or(int64(row), mask)
		})
		if err != nil {
			return err
		}
	}
	g.eachBlock(func(w *worker, s board.Color, blk int64) {
		next, other := g.next[s], s.Other()
		if !next.marked(blk) {
			return
		}
		for r := blk * 64; r < min(blk*64+64, g.rows); r++ {
			c := next.w[r] &^ g.done[s][r]
			if c != 0 && !win {
				c &^= g.blocked[s][r]
				if c != 0 {
					sq, occ, _ := g.decodeRow(r)
					c &^= g.gather(r, &sq, occ, s, g.open[other], nil, c)
				}
			}
			next.w[r] = c
		}
	})
	return nil
}

// commitBounded gives the positions found at ply p their value: they
// are done, a win leaves the open positions, and they are written to
// the values' scratch file; with those the set-up valued at p they are
// the next ply's frontier. It reports whether any position took one.
func (g *boundedGen) commitBounded(p int) (bool, error) {
	win := p%2 == 1
	for s := range g.fresh {
		g.fresh[s], g.next[s] = g.next[s], g.fresh[s]
	}
	for s := board.White; s <= board.Black; s++ {
		// (done since the set-up; open until now)
		fresh := g.fresh[s]
		err := g.events.each(eventBucket(settled, s, p), func(row uint32, mask uint64) { fresh.or(int64(row), mask) })
		if err != nil {
			return false, err
		}
	}
	var changed bool
	var mu sync.Mutex
	var spillErr error
	g.eachBlock(func(w *worker, s board.Color, blk int64) {
		fresh := g.fresh[s]
		if !fresh.marked(blk) {
			return
		}
		var es []spillEntry
		for r := blk * 64; r < min(blk*64+64, g.rows); r++ {
			x := fresh.w[r]
			if x == 0 {
				continue
			}
			g.done[s][r] |= x
			if win {
				g.open[s][r] &^= x
			}
			es = append(es, spillEntry{valueBucket(s, p, int(r/g.weight[1])), uint32(r), x})
		}
		if len(es) == 0 {
			return
		}
		err := g.values.addAll(es)
		mu.Lock()
		changed = true
		if err != nil && spillErr == nil {
			spillErr = err
		}
		mu.Unlock()
	})
	if spillErr == nil {
		spillErr = g.values.flushAll()
	}
	return changed, spillErr
}

// pairStream reads a bounded build's values back in the layout's order,
// a king pair at a time: the pair's rows replayed from the values'
// scratch file, then copied into the layout's order.
type pairStream struct {
	g        *boundedGen
	kk, side int64
	rows     []byte // the pair's values in the rows' order
	pair     []byte // the same in the layout's order
}

// values fills dst with the values of side from layout index from on.
func (st *pairStream) values(side int, from int64, dst []byte) error {
	block := st.g.l.KkWeight
	for off := int64(0); off < int64(len(dst)); {
		idx := from + off
		if kk := idx / block; kk != st.kk || int64(side) != st.side {
			if err := st.load(kk, board.Color(side)); err != nil {
				return err
			}
		}
		n := copy(dst[off:], st.pair[idx%block:])
		off += int64(n)
	}
	return nil
}

// load replays king pair kk's values of side s.
func (st *pairStream) load(kk int64, s board.Color) error {
	g := st.g
	block := g.l.KkWeight
	if st.rows == nil {
		st.rows, st.pair = make([]byte, block), make([]byte, block)
	}
	clear(st.rows)
	pair := tablefile.KkPairs[kk]
	part := int(triCode[pair[0]])*64 + int(pair[1])
	base := int64(part) * g.weight[1]
	for p := 0; p < plyBuckets; p++ {
		code := uint8(tablefile.FromPlies(p))
		err := g.values.each(valueBucket(s, p, part), func(row uint32, mask uint64) {
			at := (int64(row) - base) * 64
			for y := mask; y != 0; y &= y - 1 {
				st.rows[at+int64(bits.TrailingZeros64(y))] = code
			}
		})
		if err != nil {
			return err
		}
	}
	g.pairValues(kk, st.rows, st.pair)
	st.kk, st.side = kk, int64(s)
	return nil
}
