package generate

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// The generator works slice by slice (a pawnless table is one slice), the
// most advanced pawn placements first, so that a pawn move always leads to
// a slice already solved. In a slice only quiet moves (no capture, no pawn
// move) stay inside; every other move is a conversion, whose result is
// read from a finished slice or another table.
//
// 1. Each position is set up once: a checkmate is mated in 0; a position
//    whose moves are all conversions gets its value at once; the others
//    keep the number of distinct quiet successors (cnt) and the best value
//    the conversions alone give (conv).
// 2. Then ply by ply, p = 1, 2, ...: at an odd p, every position with a
//    quiet move into a position mated in (p-1)/2 moves, or with conv a mate
//    in (p+1)/2, mates in (p+1)/2; at an even p, each quiet successor that
//    became a mate in p/2 for the opponent takes one from its
//    predecessors' counts, and a position whose count reaches 0 while its
//    conversions lose no later is mated in p/2 (a position whose
//    conversions lose later is picked up at that ply). Predecessors are
//    found by moving the men backwards.
// 3. What is left is a draw.
//
// Two goroutines or more share the work of every step. Entries change by
// compare-and-swap, so two workers reaching one position agree.

// Source is a finished table a build reads its conversions from.
type Source interface {
	// Layout is the table's layout.
	Layout() *tablefile.Layout
	// Values are its values whole, White to move then Black, while a
	// build holds them; nil otherwise.
	Values() []byte
	// Read reads one position's value from the table's file, for a
	// table whose values are not held whole.
	Read(nd *tablefile.Node) (tablefile.Value, error)
	// ReadIndex reads the value at index idx of side to move side from
	// the table's file, as Read does.
	ReadIndex(side board.Color, idx int64) (tablefile.Value, error)
}

// Resolved is the table of one material as nodes see it: Flip when the
// table holds the colours swapped. Table is nil for bare kings.
type Resolved struct {
	Table Source
	Flip  bool
}

// ResolveFunc finds the table of a node's material (none for bare
// kings), loading or building it.
type ResolveFunc func(nd *tablefile.Node) (Resolved, error)

// builder holds one table's build.
type builder struct {
	l        *tablefile.Layout
	key      uint32 // the table's materialKey
	lookup   tablefile.Lookup
	resolve  ResolveFunc
	workers  int
	progress func(done, total int64, ply int)

	// how many positions of the slices being solved hold each value, and
	// each conv
	count, convCount [2][256]int64

	val [2]tablefile.ByteArray // the whole table, by side to move
	// high: the high bytes of val's values that take two (by rows), or nil
	high *highBytes
	// the row generator's: per side, a bit per position of the layout
	// (index order) whose value its captures and promotions give; nil
	// from the position-by-position generator
	decided [2][]uint64
	unused  [2][]uint64            // the slots no probe reads (rowGen.unused, in index order)
	decide  bool                   // find decided and unused (for a file of format 3)
	cnt     [2]tablefile.ByteArray // the slices being solved
	conv    [2]tablefile.ByteArray
	// the values present in each block of val, and of conv
	inVal, inConv [2]codeSets

	scratch []worker // one per goroutine, kept from step to step

	errOnce sync.Once
	err     error
	failed  atomic.Bool
	// a conversion of the slices being solved leads to a position mated
	// in maxMoves: a mate too long to store, unless a quicker one is found
	longConversion atomic.Bool
}

// maxChunk is the most indices a worker takes at once; a small slice is
// cut finer, so that every worker has a share (chunks are multiples of 4:
// the frontier scan reads four entries at once).
const maxChunk = 1 << 12

// Options say how a build runs.
type Options struct {
	// Workers is how many goroutines solve the table (0: every core).
	Workers int
	// Progress hears of the slices solved (done of total) after each
	// group of them, and of each ply inside a group (ply > 0; done is
	// then the slices finished before the group).
	Progress func(done, total int64, ply int)
	// ByPositions asks for the generator of build.go, position by
	// position: the tests' reference, and the generator of a big-endian
	// machine (the rows write values through a byte view of ByteArray).
	// Tables are otherwise built by rows (rows.go).
	ByPositions bool
	// Bounded builds a pawnless table in bounded memory (bounded.go):
	// five bits a position and side, the rest in a scratch file in
	// ScratchDir ("" for the system's); with Decide, the bits come
	// through Built.Flags as the values are read.
	Bounded    bool
	ScratchDir string
	// SetsOnDisk keeps two of a bounded build's five bit sets (done and
	// blocked, read and written row after row) in shared mappings of
	// scratch files in ScratchDir, paged by the system: 5.4 of a six-man
	// build's 13.4 GB (SetsOnDiskShare).
	SetsOnDisk bool
	// Wide makes a bounded build's values, or a table with pawns' built
	// by rows, two bytes each even when every mate fits one (Built.Wide):
	// the tests' way to the wide format
	Wide bool
	// Decide finds the bits of the positions whose value a capture or a
	// promotion gives and of the slots no probe reads (for a file of
	// format 3); without it the set-up keeps no second best.
	Decide bool
	// ValuesOnDisk keeps a table with pawns' values, two bytes a
	// position, and its decided and unused bits in shared mappings of
	// scratch files in ScratchDir, paged by the system, until
	// Built.Release: the heap holds the group of slices being solved
	// (wholeStorage). Ignored for a pawnless table.
	ValuesOnDisk bool
	// Checkpoint, for a table with pawns, counts the groups of slices
	// finished and keeps what they found in files under its names, so
	// that a killed build goes on after the last: with ValuesOnDisk the
	// mapped files themselves (nil: unlinked scratch files), else files
	// each group's rows are written to as it finishes. A bounded build
	// keeps its scratch files under its names, and its bit sets every
	// CheckpointEvery (0: BoundedCheckpointEvery) from its start,
	// between two plies (boundedcheckpoint.go).
	Checkpoint      *Checkpoint
	CheckpointEvery time.Duration
}

// Built is a table's values by side to move, and with Options.Decide
// (by rows) its decided and unused bits in index order. A bounded build
// gives its values as a Stream instead, read in index order, and holds a
// scratch file until Release; so does a build with ValuesOnDisk, its
// values and bits mapped. (Release is nil when nothing is held.) A build
// by rows where a value takes two bytes gives them as a Stream too (Wide,
// and its bits as Flags), Values holding only their low bytes.
type Built struct {
	Values          [2]tablefile.ByteArray
	Decided, Unused [2][]uint64
	Stream          tablefile.ValueSource
	Wide            bool // Stream gives two bytes a value (tablefile.ZFormatWide)
	// Flags gives a bounded build's decided and unused bits, after
	// Stream the values (with Options.Decide)
	Flags   tablefile.FlagSource
	Release func()
}

// Build computes the table of layout l: lookup reads the tables its
// conversions lead to, resolve finds them for a row at once.
func Build(l *tablefile.Layout, lookup tablefile.Lookup, resolve ResolveFunc, o Options) (Built, error) {
	if o.Bounded {
		if len(l.Pawns) > 0 {
			return Built{}, fmt.Errorf("%s: a bounded build is of a pawnless table", l.Mat)
		}
		return newBuilder(l, lookup, resolve, o.Workers, o.Progress, false).buildBounded(o.ScratchDir, o.Wide, o.Decide, o.SetsOnDisk, o.Checkpoint, o.CheckpointEvery)
	}
	return buildDecided(l, lookup, resolve, o)
}

// newBuilder makes the builder of layout l (workers <= 0: every core).
func newBuilder(l *tablefile.Layout, lookup tablefile.Lookup, resolve ResolveFunc, workers int, progress func(done, total int64, ply int), decide bool) *builder {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	b := &builder{l: l, lookup: lookup, resolve: resolve, workers: workers, progress: progress, decide: decide}
	nd := tablefile.Node{N: l.Men, Pieces: l.Pieces}
	b.key = nd.MaterialKey()
	return b
}

// buildDecided is Build of a table held whole (by rows, or with
// o.ByPositions position by position).
func buildDecided(l *tablefile.Layout, lookup tablefile.Lookup, resolve ResolveFunc, o Options) (Built, error) {
	b := newBuilder(l, lookup, resolve, o.Workers, o.Progress, o.Decide)
	if !o.ByPositions && tablefile.LittleEndian {
		st := &wholeStorage{onDisk: o.ValuesOnDisk && len(l.Pawns) > 0, dir: o.ScratchDir}
		if len(l.Pawns) > 0 && o.Checkpoint != nil {
			if o.Checkpoint.GroupsDone() == 0 {
				o.Checkpoint.Remove() // another build's, or none finished: start from zeros
			}
			st.checkpoint, st.resumable = o.Checkpoint, true
		}
		rb, err := b.buildRows(st, o.Wide)
		release := st.release()
		if err != nil && release != nil {
			release()
			release = nil
		}
		built := Built{Values: rb.val, Decided: b.decided, Unused: b.unused, Release: release}
		if rb.wide != nil {
			built.Stream, built.Wide, built.Flags = rb.wide, true, rb.flags
		}
		return built, err
	}
	groups := l.SliceGroups()
	largest := 0
	for _, g := range groups {
		largest = max(largest, g[1]-g[0])
	}
	for s := 0; s < 2; s++ {
		b.val[s] = tablefile.NewByteArray(l.Size)
		b.cnt[s] = tablefile.NewByteArray(int64(largest) * l.PerSlice)
		b.conv[s] = tablefile.NewByteArray(int64(largest) * l.PerSlice)
		b.inVal[s] = newCodeSets(l.Size)
		b.inConv[s] = newCodeSets(int64(largest) * l.PerSlice)
	}
	for _, g := range groups {
		if err := b.solveSlices(g[0], g[1]); err != nil {
			return Built{Values: b.val}, err
		}
		if o.Progress != nil {
			o.Progress(int64(g[1]), int64(len(l.Slices)), 0)
		}
	}
	return Built{Values: b.val}, nil
}

func (b *builder) fail(err error) {
	b.errOnce.Do(func() { b.err = err; b.failed.Store(true) })
}

// parallel runs f over the chunks of [0, n) on the workers.
func (b *builder) parallel(n int64, f func(w *worker, from, to int64)) {
	b.parallelGrain(n, 64, f)
}

// parallelGrain is parallel with chunks of at least grain items (a
// multiple of 4).
func (b *builder) parallelGrain(n, grain int64, f func(w *worker, from, to int64)) {
	if b.scratch == nil {
		b.scratch = make([]worker, b.workers)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	chunk := min(maxChunk, max(grain, n/int64(8*b.workers)&^3))
	for i := 0; i < b.workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &b.scratch[i]
			w.pending, w.set = 0, 0
			for !b.failed.Load() {
				from := next.Add(chunk) - chunk
				if from >= n {
					return
				}
				f(w, from, min(from+chunk, n))
			}
		}()
	}
	wg.Wait()
}

// worker is one goroutine's scratch space.
type worker struct {
	moves []tablefile.Move
	child tablefile.Node
	ep    tablefile.EPScratch
	// the tables conversions led to, by material key (a handful)
	tables  []keyedTable
	flipped tablefile.Node
	seen    smallSet
	preds   []int64
	// the largest plies a value set up front or a conversion will reach
	pending int
	// positions given a value by this worker in the current parallel call
	set int64
	// the row generator's set-up: the plies at which it valued
	// positions, conversions whose value takes two bytes, not yet handed
	// over; a row's pawn steps and captures
	settledPlies [2]plySet
	wideConvs    [2][]wideConversion
	pushes       []push
	caps         []capture
	best         [64]tablefile.BestMove // a row's best conversions, by square
	capBest      [64]tablefile.BestMove // the same, of its captures and promotions only
	// positions set up by this worker with each value, and each conv
	count, convCount [2][256]int64
}

// tally adds the workers' counts of the set-up step to the builder's
// (kept apart while the workers run: shared counters would make their
// cores fight over cache lines at every position).
func (b *builder) tally() {
	for i := range b.scratch {
		w := &b.scratch[i]
		for c := 0; c < 2; c++ {
			for v := 0; v < 256; v++ {
				b.count[c][v] += w.count[c][v]
				b.convCount[c][v] += w.convCount[c][v]
			}
		}
		w.count, w.convCount = [2][256]int64{}, [2][256]int64{}
	}
}

// setCount is how many positions the workers gave a value in the last
// parallel call.
func (b *builder) setCount() int64 {
	n := int64(0)
	for i := range b.scratch {
		n += b.scratch[i].set
	}
	return n
}

// solveSlices solves the slices [from, to) together.
func (b *builder) solveSlices(from, to int) error {
	l := b.l
	base := int64(from) * l.PerSlice
	n := int64(to-from) * l.PerSlice
	for c := 0; c < 2; c++ {
		clear(b.cnt[c][:(n+3)/4])
		clear(b.conv[c][:(n+3)/4])
		clear(b.inConv[c])
	}
	b.count, b.convCount = [2][256]int64{}, [2][256]int64{}
	b.longConversion.Store(false)
	var mu sync.Mutex
	pending := 0
	b.parallel(n, func(w *worker, from, to int64) {
		for i := from; i < to; i++ {
			b.setUp(w, base, i)
		}
		mu.Lock()
		pending = max(pending, w.pending)
		mu.Unlock()
	})
	if b.failed.Load() {
		return b.err
	}
	b.tally()
	// Ply 2*maxMoves+1 would give mates in maxMoves+1 moves, which no
	// value holds: the plies stop before it, and tooLong checks that no
	// position needed it.
	for p := 1; p <= 2*tablefile.MaxMoves; p++ {
		changed := false
		for side := board.White; side <= board.Black; side++ {
			if b.ply(base, n, p, side) {
				changed = true
			}
		}
		if b.failed.Load() {
			return b.err
		}
		if !changed && p >= pending {
			break
		}
		if b.progress != nil {
			b.progress(int64(from), int64(len(l.Slices)), p)
		}
	}
	if b.tooLong(base, n) {
		return tablefile.ErrTooLong
	}
	return nil
}

// setUp is step 1 for the position at base+i.
func (b *builder) setUp(w *worker, base, i int64) {
	l := b.l
	idx := base + i
	sq, ok := l.Stored(idx)
	if !ok {
		return
	}
	nd := tablefile.Node{N: l.Men, Pieces: l.Pieces, Sq: sq, Ep: board.NoSquare}
	unique := l.Unique(&sq)
	// threats[c]: the other side's threats to c's king; the side to move
	// may not have the other king in its danger
	threats := [2]tablefile.Threats{nd.ThreatsTo(board.White), nd.ThreatsTo(board.Black)}
	for side := board.White; side <= board.Black; side++ {
		nd.Stm = side
		if threats[side.Other()].Danger.Has(sq[side.Other()]) {
			continue // the side not to move is in check
		}
		// With no symmetry to tell quiet successors apart, they are only
		// counted.
		dedupe := l.FixedBySymmetry(&sq, side.Other())
		quiet := 0
		if dedupe {
			w.moves = nd.Moves(w.moves[:0])
		} else {
			w.moves, quiet = nd.Conversions(w.moves[:0], threats[side])
		}
		if len(w.moves) == 0 && quiet == 0 {
			if threats[side].Danger.Has(sq[side]) { // checkmate
				b.val[side].Set(idx, uint8(tablefile.LossIn(0)))
				b.inVal[side].add(idx, uint8(tablefile.LossIn(0)))
				w.count[side][tablefile.LossIn(0)]++
				w.pending = max(w.pending, 1)
			}
			continue
		}
		w.seen.clear()
		var best tablefile.BestMove // of the conversions
		for _, m := range w.moves {
			if m.Quiet(&nd) {
				c, ok := int64(0), false
				if unique {
					c, ok = l.Step(idx, int(m.Slot), nd.Sq[m.Slot], m.To)
				}
				if !ok {
					c, ok = l.KingStep(idx, &sq, int(m.Slot), m.To)
				}
				if !ok {
					ch := nd.Play(m)
					c, _ = l.Index(&ch.Sq)
				}
				w.seen.add(c)
				continue
			}
			w.child = nd.Play(m) // (in w: a local would escape to the heap)
			v, err := b.childValue(w, &w.child)
			if err != nil {
				b.fail(err)
				return
			}
			best.Add(v)
		}
		// a conversion mating too late counts as a draw: the position
		// cannot be lost, and tooLong checks at the end that a quicker
		// mate was found
		conv := best.V
		if best.Long {
			b.longConversion.Store(true)
		}
		if dedupe {
			quiet = w.seen.n
		}
		if quiet == 0 {
			b.val[side].Set(idx, uint8(conv))
			b.inVal[side].add(idx, uint8(conv))
			w.count[side][conv]++
			if conv != tablefile.Draw {
				w.pending = max(w.pending, conv.Plies()+1)
			}
			continue
		}
		if quiet > 255 {
			b.fail(fmt.Errorf("%d quiet moves in one position", quiet))
			return
		}
		b.cnt[side].Set(i, uint8(quiet))
		if !best.Have {
			conv = tablefile.LossIn(0) // no conversion: nothing holds a loss back
		}
		b.conv[side].Set(i, uint8(conv))
		b.inConv[side].add(i, uint8(conv))
		w.convCount[side][conv]++
		if conv.Win() || conv.Loss() {
			w.pending = max(w.pending, conv.Plies())
		}
	}
}

// ply is step 2 at ply p for the n positions from base with side to move.
func (b *builder) ply(base, n int64, p int, side board.Color) bool {
	code := uint8(tablefile.FromPlies(p))
	prev := uint8(tablefile.FromPlies(p - 1))
	val, cnt, conv := b.val[side], b.cnt[side], b.conv[side]
	inVal, inConv := b.inVal[side], b.inConv[side]
	win := p%2 == 1
	set := int64(0)
	defer func() { b.count[side][code] += set }()
	if b.count[side.Other()][prev] > 0 {
		b.parallel(n, func(w *worker, from, to int64) {
			b.frontier(w, base, from, to, prev, side, code)
		})
		set += b.setCount()
	}
	if b.convCount[side][code] == 0 {
		return set > 0
	}
	// conversions that decide at this ply
	pattern := uint32(code) * 0x01010101
	b.parallel(n, func(w *worker, from, to int64) {
		for i := from; i < to; i++ {
			if i&(blockSize-1) == 0 && i+blockSize <= to && !inConv.has(i, code) {
				i += blockSize - 1 // no conversion of the block decides now
				continue
			}
			if i&3 == 0 && i+4 <= to && !hasByte(conv[i>>2], pattern) {
				i += 3 // none of the four is code
				continue
			}
			if conv.Get(i) != code || val.Load(base+i) != 0 {
				continue
			}
			if !win && cnt.Load(i) != 0 {
				continue
			}
			if val.Cas(base+i, 0, code) {
				inVal.add(base+i, code)
				w.set++
			}
		}
	})
	set += b.setCount()
	return set > 0
}

// frontier runs the backward step from the positions of [from, to) of
// the other side whose value is prev.
func (b *builder) frontier(w *worker, base, from, to int64, prev uint8, side board.Color, code uint8) {
	val, other := b.val[side], b.val[side.Other()]
	inVal := b.inVal[side]
	cnt, conv := b.cnt[side], b.conv[side]
	win := code > 128
	pattern := uint32(prev) * 0x01010101
	inOther := b.inVal[side.Other()]
	for i := from; i < to; i++ {
		if (base+i)&(blockSize-1) == 0 && i+blockSize <= to && !inOther.has(base+i, prev) {
			i += blockSize - 1 // none of the block is prev
			continue
		}
		if i&3 == 0 && i+4 <= to && !hasByte(other[(base+i)>>2], pattern) {
			i += 3 // none of the four is prev
			continue
		}
		if other.Get(base+i) != prev {
			continue
		}
		w.preds = b.predecessors(w, base+i, side.Other(), w.preds[:0])
		for _, x := range w.preds {
			if win {
				// (a plain read first: most predecessors already have
				// their value, and a compare-and-swap costs more)
				if val.Load(x) == 0 && val.Cas(x, 0, code) {
					inVal.add(x, code)
					w.set++
				}
				continue
			}
			if val.Load(x) != 0 {
				continue
			}
			if cnt.Dec(x-base) == 0 && lossNoLater(tablefile.Value(conv.Load(x-base)), p(code)) && val.Cas(x, 0, code) {
				inVal.add(x, code)
				w.set++
			}
		}
	}
}

// tooLong reports whether a position of the n from base mates in more
// than maxMoves moves: one still without a value has a quiet move into a
// position mated in maxMoves, or a conversion that mates too late (which
// the set-up counted as a draw).
func (b *builder) tooLong(base, n int64) bool {
	var found atomic.Bool
	last := uint8(tablefile.LossIn(tablefile.MaxMoves))
	for side := board.White; side <= board.Black; side++ {
		if b.count[side.Other()][last] == 0 {
			continue
		}
		val, other := b.val[side], b.val[side.Other()]
		b.parallel(n, func(w *worker, from, to int64) {
			for i := from; i < to; i++ {
				if other.Get(base+i) != last {
					continue
				}
				w.preds = b.predecessors(w, base+i, side.Other(), w.preds[:0])
				for _, x := range w.preds {
					if val.Load(x) == 0 {
						found.Store(true)
					}
				}
			}
		})
	}
	if b.longConversion.Load() {
		b.parallel(n, func(w *worker, from, to int64) {
			for i := from; i < to; i++ {
				if b.openLongConversion(w, base+i) {
					found.Store(true)
				}
			}
		})
	}
	return found.Load()
}

// openLongConversion reports whether the position at idx, for a side to
// move whose value is not a mate, has a conversion into a position mated
// in maxMoves, or one whose value takes two bytes (read from a wide
// table: a mate past what a byte holds, for one side or the other).
func (b *builder) openLongConversion(w *worker, idx int64) bool {
	l := b.l
	sq, ok := l.Stored(idx)
	if !ok {
		return false
	}
	nd := tablefile.Node{N: l.Men, Pieces: l.Pieces, Sq: sq, Ep: board.NoSquare}
	for side := board.White; side <= board.Black; side++ {
		nd.Stm = side
		if tablefile.Value(b.val[side].Load(idx)).Win() || !nd.Legal() {
			continue
		}
		w.moves = nd.Moves(w.moves[:0])
		for _, m := range w.moves {
			if m.Quiet(&nd) {
				continue
			}
			w.child = nd.Play(m)
			v, err := b.childValue(w, &w.child)
			if err == tablefile.ErrTooLong || err == nil && (v == tablefile.LossIn(tablefile.MaxMoves) || v.Wide()) {
				return true
			}
		}
	}
	return false
}

// hasByte reports whether one of the four bytes of word is the byte that
// pattern repeats four times.
func hasByte(word, pattern uint32) bool {
	x := word ^ pattern
	return (x-0x01010101)&^x&0x80808080 != 0
}

// p is the ply count of a value code.
func p(code uint8) int { return tablefile.Value(code).Plies() }

// lossNoLater reports whether the conversions' value c lets a position be
// mated at ply p: they all lose, in at most p plies.
func lossNoLater(c tablefile.Value, p int) bool { return c.Loss() && c.Plies() <= p }

// predecessors appends the distinct positions (indices, with the other
// side to move) from which a quiet move of that side leads to idx, whose
// side to move is side.
func (b *builder) predecessors(w *worker, idx int64, side board.Color, out []int64) []int64 {
	return predecessorsIn(b.l, idx, side, &w.seen, out)
}

// Predecessors appends to out the distinct positions of layout l
// (indices, the other side to move) from which a quiet move of a man
// other than a pawn leads to idx, whose side to move is side.
func Predecessors(l *tablefile.Layout, idx int64, side board.Color, out []int64) []int64 {
	return predecessorsIn(l, idx, side, new(smallSet), out)
}

// predecessorsIn is Predecessors, seen the set that drops the forms of
// a position symmetric to itself found twice.
func predecessorsIn(l *tablefile.Layout, idx int64, side board.Color, seen *smallSet, out []int64) []int64 {
	sq := l.Decode(idx)
	nd := tablefile.Node{N: l.Men, Pieces: l.Pieces, Sq: sq, Stm: side.Other(), Ep: board.NoSquare}
	mover := side.Other()
	occ := nd.Occupied()
	king := 0 // slot of the king of side
	if side == board.Black {
		king = 1
	}
	seen.clear()
	dedupe := l.FixedBySymmetry(&sq, side)
	unique := l.Unique(&sq)
	for i := 0; i < l.Men; i++ {
		pc := l.Pieces[i]
		if pc.Color() != mover || pc.Type() == board.Pawn {
			continue
		}
		from := sq[i]
		targets := board.Attacks(pc.Type(), mover, from, occ) &^ occ
		// The predecessor is legal when the side's king is not attacked
		// by the mover. Without the man on from, if no other man of the
		// mover attacks it, none does once the man stands on t (a man
		// only blocks), so only the man itself can: from the squares its
		// kind reaches from the king.
		ks := sq[king]
		vacated := occ &^ board.SquareBB(from)
		full := nd.Attacked(ks, mover, vacated, i)
		if !full {
			targets &^= board.Attacks(pc.Type(), mover, ks, vacated)
		}
		for targets != 0 {
			t := targets.PopFirst()
			nd.Sq[i] = t
			ok := true
			if full {
				ok = !nd.Attacked(ks, mover, vacated|board.SquareBB(t), -1)
			}
			if ok {
				x, found := int64(0), false
				if unique {
					x, found = l.Step(idx, i, from, t)
				}
				if !found {
					x, found = l.KingStep(idx, &sq, i, t)
				}
				if !found {
					x, found = l.Index(&nd.Sq)
				}
				if found && (!dedupe || seen.add(x)) {
					out = append(out, x)
				}
			}
			nd.Sq[i] = from
		}
	}
	return out
}

// childValue reads the value of a position a conversion leads to.
func (b *builder) childValue(w *worker, ch *tablefile.Node) (tablefile.Value, error) {
	if ch.Ep != board.NoSquare {
		return tablefile.ValueOf(ch, b.baseValue, &w.ep)
	}
	key := ch.MaterialKey()
	if key == b.key {
		return b.baseValue(ch)
	}
	r, err := b.tableOf(w, ch)
	if err != nil {
		return tablefile.Draw, err
	}
	if r.Table == nil { // bare kings
		return tablefile.Draw, nil
	}
	x := ch
	if r.Flip {
		w.flipped = ch.Flipped()
		x = &w.flipped
	}
	// the build holds the tables it reads whole (a file of format 3
	// leaves values to the probe: its bytes alone are not the values)
	if raw := r.Table.Values(); raw != nil {
		l := r.Table.Layout()
		idx, err := l.IndexOf(x)
		if err != nil {
			return tablefile.Draw, err
		}
		return tablefile.Value(raw[int64(x.Stm)*l.Size+idx]), nil
	}
	return r.Table.Read(x)
}

// tableOf finds the table of another material than the build's (none for
// bare kings): once per worker, not in the store's map at every
// conversion.
func (b *builder) tableOf(w *worker, ch *tablefile.Node) (Resolved, error) {
	key := ch.MaterialKey()
	for _, e := range w.tables {
		if e.key == key {
			return e.r, nil
		}
	}
	r, err := b.resolve(ch)
	if err != nil {
		return Resolved{}, err
	}
	w.tables = append(w.tables, keyedTable{key, r})
	return r, nil
}

// keyedTable is a table found for a material key.
type keyedTable struct {
	key uint32
	r   Resolved
}

// baseValue reads a position with no en-passant right: from this table's
// finished slices when the material is the same, else from another table.
func (b *builder) baseValue(nd *tablefile.Node) (tablefile.Value, error) {
	if nd.MaterialKey() != b.key {
		return b.lookup(nd)
	}
	if nd.Pieces == b.l.Pieces {
		// a pawn's step: the men are still in the layout's slots
		sq := nd.Sq
		if idx, ok := b.l.Index(&sq); ok {
			return b.valueAt(nd.Stm, idx), nil
		}
	}
	idx, err := b.l.IndexOf(nd)
	if err != nil {
		return tablefile.Draw, err
	}
	return b.valueAt(nd.Stm, idx), nil
}

// valueAt is the value at index idx of the table being built, side s to
// move: its byte, and its high byte when it takes two.
func (b *builder) valueAt(s board.Color, idx int64) tablefile.Value {
	lo := b.val[s].Get(idx)
	if b.high == nil {
		return tablefile.Value(lo)
	}
	return b.high.value(s, idx/64, int(idx%64), lo)
}
