package generate

import (
	"encoding/binary"
	"math/bits"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

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

// BoundedSetBytes is the bytes of one bit set of one side to move in a
// bounded build of a pawnless table of men men: a word of 64 positions
// for each of its 10 × 64^(men-2) rows (1.25 GiB for six men). The build
// holds BoundedSets of them a side, BoundedSetsOnDisk of those in files
// with Options.SetsOnDisk.
func BoundedSetBytes(men int) int64 {
	rows := int64(10)
	for range men - 2 {
		rows *= 64
	}
	return rows * 8
}

// BoundedSets is how many bit sets a side a bounded build holds, and
// BoundedSetsOnDisk how many of them Options.SetsOnDisk puts in files.
const BoundedSets, BoundedSetsOnDisk = 5, 2

// boundedGen is the state of one bounded build.
type boundedGen struct {
	*rowGen
	open, blocked [2][]uint64
	events        *spill // the set-up's findings, by eventBucket
	values        *spill // the positions valued, by valueBucket
	pending       int    // the last ply an event reaches
	wide          bool   // a mate longer than a byte holds: two bytes a value
	// checkpoint, when set, keeps the scratch files and the sets of the
	// last checkpoint (boundedcheckpoint.go), of generation generation
	checkpoint *Checkpoint
	generation int64
	started    time.Time // when the build began or went on
	// checkpointEvery: the least time to the first checkpoint and
	// between two
	checkpointEvery time.Duration
}

// SetUpPly is the ply a bounded build's progress reports during its
// set-up, and a build by rows' during a large group's (done and total
// counting the rows of the table or of the group); WritePly while its values
// are read back for the file, with done and total counting king pairs
// (of both sides).
const (
	SetUpPly = -1
	WritePly = -2
)

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

// plyBuckets is how many plies a bucket kind spans: a bounded build
// follows mates to tablefile.MaxWideMoves.
const plyBuckets = 2*tablefile.MaxWideMoves + 2

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
// layout's order, a king pair at a time, two bytes a value when a mate
// is longer than a byte holds or wide asks; with decide the Built's
// Flags gives each pair's decided and unused bits, its captures valued
// again as it is read (their tables must still be held). Release lets
// the scratch file go.
func (b *builder) buildBounded(dir string, wide, decide, setsOnDisk bool, c *Checkpoint, every time.Duration) (Built, error) {
	l := b.l
	if every <= 0 {
		every = BoundedCheckpointEvery
	}
	g := &boundedGen{rowGen: &rowGen{b: b, l: l, rowNumbering: pawnlessNumbering(l)}, checkpoint: c, started: time.Now(), checkpointEvery: every}
	g.lo, g.hi = 0, g.rows
	unmap, err := g.allocateSets(dir, setsOnDisk)
	if err != nil {
		return Built{}, err
	}
	from, resumed := 0, false
	if c != nil {
		from, resumed = g.resumeBounded()
	}
	if !resumed {
		if g.events, g.values, err = g.newSpills(dir); err != nil {
			unmap()
			return Built{}, err
		}
	}
	defer g.events.close()
	release := func() { g.values.close() }
	if !resumed {
		if err := g.setUpBounded(); err != nil {
			unmap()
			release()
			return Built{}, err
		}
	}
	if err := g.solveBounded(from, resumed); err != nil {
		unmap()
		release()
		return Built{}, err
	}
	g.wide = g.wide || wide
	g.done, g.open, g.blocked = [2][]uint64{}, [2][]uint64{}, [2][]uint64{}
	g.fresh, g.next = [2]rowSet{}, [2]rowSet{}
	unmap()
	// the bit sets (13.4 GB for six men) are garbage now: give them back
	// before the values are read back and compressed
	debug.FreeOSMemory()
	st := &pairStream{g: g, kk: -1, decide: decide}
	built := Built{Stream: st.values, Wide: g.wide, Release: release}
	if st.decide {
		built.Flags = st.flags
	}
	return built, nil
}

// newSpills makes the scratch files of the set-up's events and of the
// values: unlinked in dir, or a checkpoint's.
func (g *boundedGen) newSpills(dir string) (events, values *spill, err error) {
	if g.checkpoint == nil {
		if events, err = newSpill(dir); err != nil {
			return nil, nil, err
		}
		if values, err = newSpill(dir); err != nil {
			events.close()
			return nil, nil, err
		}
		return events, values, nil
	}
	g.checkpoint.Remove() // (another build's, or one that cannot go on)
	if events, err = namedSpill(g.checkpoint.boundedFile("events")); err != nil {
		return nil, nil, err
	}
	if values, err = namedSpill(g.checkpoint.boundedFile("values")); err != nil {
		events.close()
		return nil, nil, err
	}
	return events, values, nil
}

// allocateSets makes the five bit sets of both sides. With onDisk the
// done and blocked sets, two fifths of the bits, are shared mappings of
// scratch files in dir, which the system pages: they are read and
// written a row after another (the set-up, a ply's events, its gather
// and its commit), while the open, fresh and next sets, which the
// scatter and the gather reach at random, stay in memory. It returns
// what unmaps the files.
func (g *boundedGen) allocateSets(dir string, onDisk bool) (func(), error) {
	var unmaps []func()
	unmapAll := func() {
		for _, u := range unmaps {
			u()
		}
	}
	for s := 0; s < 2; s++ {
		g.open[s] = make([]uint64, g.rows)
		g.fresh[s] = newRowSet(g.rows)
		g.next[s] = newRowSet(g.rows)
		for _, set := range []*[]uint64{&g.done[s], &g.blocked[s]} {
			if !onDisk {
				*set = make([]uint64, g.rows)
				continue
			}
			words, unmap, err := mappedWords(dir, g.rows)
			if err != nil {
				unmapAll()
				return nil, err
			}
			*set, unmaps = words, append(unmaps, unmap)
		}
	}
	return unmapAll, nil
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

// solveBounded runs the plies until no position takes a value, after
// ply from when a checkpoint was resumed; a mate longer than a byte
// holds makes the table wide. With a checkpoint it saves one between two
// plies once checkpointEvery has passed since the build began
// (or went on), and again each time as much has passed since.
func (g *boundedGen) solveBounded(from int, resumed bool) error {
	if !resumed {
		if _, err := g.commitBounded(0); err != nil { // the checkmates
			return err
		}
	}
	saved := g.started
	if g.checkpoint != nil && !resumed && time.Since(saved) >= g.checkpointEvery {
		if err := g.saveBounded(0); err != nil {
			return err
		}
		saved = time.Now()
	}
	for p := from + 1; p <= 2*tablefile.MaxWideMoves; p++ {
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
		if g.checkpoint != nil && time.Since(saved) >= g.checkpointEvery {
			if err := g.saveBounded(p); err != nil {
				return err
			}
			saved = time.Now()
		}
		if g.b.progress != nil {
			g.b.progress(0, 1, p)
		}
	}
	// a mate of MaxWideMoves may leave a longer one unstored: the
	// bounded build does not tell them apart, and refuses
	if g.lastPly == 2*tablefile.MaxWideMoves {
		return tablefile.ErrTooLong
	}
	g.wide = g.lastPly > 2*tablefile.MaxMoves
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
// scratch file, then copied into the layout's order; a wide table's low
// and high bytes each so.
type pairStream struct {
	g        *boundedGen
	kk, side int64
	rows     [2][]byte // the pair's values in the rows' order: low bytes, high bytes
	pair     [2][]byte // the same in the layout's order
	// decide: the pair's decided and unused bits are found as it is
	// loaded (a file of format 3, or 5 when wide)
	decide          bool
	decided, unused []uint64 // in the layout's order
	loaded          int64    // king pairs loaded, for the progress
}

// values fills dst with the values of side from layout index from on, a
// byte each, or two (little-endian) in a wide table.
func (st *pairStream) values(side int, from int64, dst []byte) error {
	block := st.g.l.KkWeight
	width := int64(1)
	if st.g.wide {
		width = 2
	}
	n := int64(len(dst)) / width
	for off := int64(0); off < n; {
		idx := from + off
		if kk := idx / block; kk != st.kk || int64(side) != st.side {
			if err := st.load(kk, board.Color(side)); err != nil {
				return err
			}
		}
		at := idx % block
		k := min(n-off, block-at)
		if width == 1 {
			copy(dst[off:off+k], st.pair[0][at:])
		} else {
			lo, hi := st.pair[0][at:at+k], st.pair[1][at:at+k]
			out := dst[2*off : 2*(off+k)]
			for i := range lo {
				out[2*i], out[2*i+1] = lo[i], hi[i]
			}
		}
		off += k
	}
	return nil
}

// load replays king pair kk's values of side s.
func (st *pairStream) load(kk int64, s board.Color) error {
	g := st.g
	block := g.l.KkWeight
	planes := 1
	if g.wide {
		planes = 2
	}
	for i := range planes {
		if st.rows[i] == nil {
			st.rows[i], st.pair[i] = make([]byte, block), make([]byte, block)
		}
		clear(st.rows[i])
	}
	pair := tablefile.KkPairs[kk]
	part := int(triCode[pair[0]])*64 + int(pair[1])
	base := int64(part) * g.weight[1]
	lo, hi := st.rows[0], st.rows[1]
	for p := 0; p <= g.lastPly; p++ {
		code := tablefile.FromPlies(p)
		err := g.values.each(valueBucket(s, p, part), func(row uint32, mask uint64) {
			at := (int64(row) - base) * 64
			for y := mask; y != 0; y &= y - 1 {
				i := at + int64(bits.TrailingZeros64(y))
				lo[i] = byte(code)
				if code.Wide() {
					hi[i] = byte(code >> 8)
				}
			}
		})
		if err != nil {
			return err
		}
	}
	for i := range planes {
		g.pairValues(kk, st.rows[i], st.pair[i])
	}
	if st.decide {
		if err := st.pairFlags(kk, s, base); err != nil {
			return err
		}
	}
	st.kk, st.side = kk, int64(s)
	if st.loaded++; g.b.progress != nil {
		total := int64(2 * tablefile.KkPairCount)
		g.b.progress(min(st.loaded, total), total, WritePly)
	}
	return nil
}

// flags fills decided and unused with the bits of side's positions from
// layout index from on (a multiple of 64), as values just gave them.
func (st *pairStream) flags(side int, from int64, decided, unused []uint64) error {
	block := st.g.l.KkWeight
	n := int64(len(decided))
	for off := int64(0); off < n; {
		idx := from + 64*off
		if kk := idx / block; kk != st.kk || int64(side) != st.side {
			if err := st.load(kk, board.Color(side)); err != nil {
				return err
			}
		}
		at := idx % block / 64
		k := copy(decided[off:], st.decided[at:])
		copy(unused[off:off+int64(k)], st.unused[at:])
		off += int64(k)
	}
	return nil
}

// wideRow is the positions of row r (of a king pair's values in the
// rows' order) whose high bytes hi are not zero: a mate longer than a
// byte holds, which no capture gives (its tables' mates fit a byte), so
// never decided, whatever its low byte. nil hi (a table of one-byte
// values): none.
func wideRow(hi []byte, r int64) uint64 {
	if hi == nil {
		return 0
	}
	set := uint64(0)
	for k := 0; k < 64; k += 8 {
		nonzero := ^zeroBytes(binary.LittleEndian.Uint64(hi[r*64+int64(k):])) & 0x8080808080808080
		set |= (nonzero >> 7 * 0x0102040810204080 >> 56) << k
	}
	return set
}

// pairFlags finds the decided and unused bits of king pair kk, side s to
// move, whose rows start at row base: as the rows generator's
// markDecided does, each row's captures valued again (their tables are
// still held) and compared with the values, then the slots the layout
// does not store marked unused (as toLayout does).
func (st *pairStream) pairFlags(kk int64, s board.Color, base int64) error {
	g := st.g
	words := g.l.KkWeight / 64
	if st.decided == nil {
		st.decided, st.unused = make([]uint64, words), make([]uint64, words)
	}
	vals := st.rows[0]
	g.b.parallelGrain(words, 16, func(w *worker, from, to int64) {
		for r := from; r < to && !g.b.failed.Load(); r++ {
			st.decided[r], st.unused[r] = 0, ^uint64(0)
			sq, occ, ok := g.decodeRow(base + r)
			if !ok {
				continue
			}
			lg := g.legalBits(&sq, occ, s)
			st.unused[r] = ^lg
			if lg == 0 {
				continue
			}
			if w.caps, ok = g.rowCaptures(w, &sq, occ, s, lg, w.caps[:0]); !ok {
				return
			}
			nd := tablefile.Node{N: g.l.Men, Pieces: g.l.Pieces, Sq: sq, Stm: s, Ep: board.NoSquare}
			w.pushes = w.pushes[:0]
			if _, ok := g.rowConversions(w, &nd, lg, 0); !ok {
				return
			}
			var capc [64]byte
			for y := lg; y != 0; y &= y - 1 {
				f := bits.TrailingZeros64(y)
				if c := w.capBest[f]; c.Have {
					capc[f] = convCode(c.V)
				}
			}
			st.decided[r] = lg & decidedRow(capc[:], vals[r*64:r*64+64]) &^ wideRow(st.rows[1], r)
		}
	})
	if g.b.failed.Load() {
		return g.b.err
	}
	g.markUnstored(kk, st.unused)
	return nil
}
