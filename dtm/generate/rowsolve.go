package generate

import (
	"encoding/binary"
	"math/bits"
	"sync"
	"sync/atomic"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// rowsBuilt is what a build by rows leaves: the values' low bytes by side
// to move, and when some take two bytes, the values whole as a stream
// (low then high byte) and the decided and unused bits as one.
type rowsBuilt struct {
	val   [2]tablefile.ByteArray
	wide  tablefile.ValueSource
	flags tablefile.FlagSource
}

// buildRows computes a table by rows (see rows.go), holding its values
// and its decided and unused bits in st; wide gives a table with pawns'
// values as a stream of two bytes a value even when each fits one.
func (b *builder) buildRows(st *wholeStorage, wide bool) (rowsBuilt, error) {
	l := b.l
	g := &rowGen{b: b, l: l, rowNumbering: rowNumbering{pawnless: len(l.Pawns) == 0}}
	var groups [][2]int64
	if g.pawnless {
		g.rowNumbering = pawnlessNumbering(l)
		groups = [][2]int64{{0, g.rows}}
	} else {
		for i := 0; i < l.Men; i++ {
			if l.Pieces[i].Type() == board.Pawn {
				continue
			}
			if l.Weight[i] == 1 {
				g.free = i
			} else {
				g.weight[i] = l.Weight[i] / 64
			}
		}
		g.sliceRows = l.PerSlice / 64
		g.rows = l.Size / 64
		for _, gr := range l.SliceGroups() {
			groups = append(groups, [2]int64{int64(gr[0]) * g.sliceRows, int64(gr[1]) * g.sliceRows})
		}
	}
	g.fpc = l.Pieces[g.free]
	largest := int64(0)
	for _, gr := range groups {
		largest = max(largest, gr[1]-gr[0])
	}
	for s := 0; s < 2; s++ {
		var err error
		if g.val[s], err = st.byteArray(g.rows*64, s); err != nil {
			return rowsBuilt{}, err
		}
		g.vb[s] = g.val[s].Bytes(g.rows * 64)
		g.conv[s] = make([]byte, largest*64)
		if b.decide {
			g.capc[s] = make([]byte, largest*64)
			if g.decided[s], err = st.words(g.rows, "decided", s); err != nil {
				return rowsBuilt{}, err
			}
			if g.unused[s], err = st.words(g.rows, "unused", s); err != nil {
				return rowsBuilt{}, err
			}
		}
		g.inConv[s] = newCodeSets(largest * 64)
		for _, set := range g.bitSets() {
			set[s] = make([]uint64, largest)
		}
		g.fresh[s] = newRowSet(largest)
		g.next[s] = newRowSet(largest)
	}
	g.zeroed = true
	g.high = newHighBytes(g.rows)
	b.val, b.high = g.val, g.high // conversions read the finished slices here
	start := g.resumeAt(st, groups)
	for i, gr := range groups {
		if i >= start {
			if err := g.solve(gr[0], gr[1]); err != nil {
				return rowsBuilt{}, err
			}
			if st.checkpoint != nil {
				if err := st.checkpoint.markDone(i+1, g.syncWith(st, gr[0], gr[1])); err != nil {
					return rowsBuilt{}, err
				}
			}
			st.dropPages()
		}
		if b.progress != nil {
			done := int64(1)
			if !g.pawnless {
				done = gr[1] / g.sliceRows
			}
			b.progress(done, int64(max(1, len(l.Slices))), 0)
		}
	}
	g.conv, g.capc, g.inConv = [2][]byte{}, [2][]byte{}, [2]codeSets{}
	for _, set := range g.bitSets() {
		*set = [2][]uint64{}
	}
	g.fresh, g.next = [2]rowSet{}, [2]rowSet{}
	if g.pawnless {
		if g.high.any() {
			// (a pawnless table with such a mate has six men or more,
			// built in bounded memory, whose values take two bytes)
			return rowsBuilt{}, tablefile.ErrTooLong
		}
		return rowsBuilt{val: g.toLayout()}, nil
	}
	g.clearUnstored()
	b.decided, b.unused = g.decided, g.unused
	out := rowsBuilt{val: g.val}
	if g.high.any() || wide {
		var drop func()
		if st.onDisk {
			drop = st.dropPages
		}
		out.wide = g.wideStream(drop)
		if b.decide {
			out.flags = g.flagStream()
		}
	}
	return out, nil
}

// syncWith is the sync of a checkpoint's group, rows [lo, hi): st's
// files on disk, and the high bytes in their own file.
func (g *rowGen) syncWith(st *wholeStorage, lo, hi int64) func() error {
	return func() error {
		if err := st.sync(lo, hi); err != nil {
			return err
		}
		return g.high.save(st.checkpoint.highFile())
	}
}

// resumeAt is the first group of slices to solve: after those st's
// checkpoint says are finished, when its files were all there, the high
// bytes' too (0 else, every array cleared). The rows of that group, which a killed
// build may have begun, are cleared as a fresh group's are (solved
// again, they would take the same values, but nothing need rest on
// that).
func (g *rowGen) resumeAt(st *wholeStorage, groups [][2]int64) int {
	if st.checkpoint == nil || g.pawnless {
		return 0
	}
	start := min(st.checkpoint.GroupsDone(), len(groups))
	if start == 0 {
		return 0 // (its files made afresh: zeros)
	}
	if st.resumable && g.high.load(st.checkpoint.highFile(), g.rows) != nil {
		st.resumable = false
	}
	if !st.resumable {
		// (the count goes first: a kill while the groups are solved
		// again must not leave it saying they were)
		if err := st.checkpoint.forgetGroups(); err != nil {
			g.b.fail(err)
			return 0
		}
		g.high = newHighBytes(g.rows)
		g.b.high = g.high
		// a file of the checkpoint lost: the others hold finished groups
		for s := range 2 {
			clear(g.vb[s])
			clear(g.decided[s])
			clear(g.unused[s])
		}
		return 0
	}
	if start < len(groups) {
		lo, hi := groups[start][0], groups[start][1]
		g.high.clearRows(lo, hi)
		for s := range 2 {
			clear(g.vb[s][lo*64 : hi*64])
			if g.decided[s] != nil {
				clear(g.decided[s][lo:hi])
				clear(g.unused[s][lo:hi])
			}
		}
	}
	return start
}

// pawnlessNumbering is the rows' numbering of a pawnless table: the
// white king's place in the triangle, then a digit of 64 for each other
// man, the last one free.
func pawnlessNumbering(l *tablefile.Layout) rowNumbering {
	n := rowNumbering{pawnless: true, free: l.Men - 1, fpc: l.Pieces[l.Men-1]}
	w := int64(1)
	for i := l.Men - 2; i >= 1; i-- {
		n.weight[i] = w
		w *= 64
	}
	n.weight[0] = w
	n.rows = 10 * w
	return n
}

// solve solves the rows [lo, hi): a group of slices that no pawn move
// joins, or a whole pawnless table.
func (g *rowGen) solve(lo, hi int64) error {
	g.lo, g.hi = lo, hi
	if !g.zeroed {
		g.clearGroup()
	}
	g.zeroed = false
	g.settledPlies = [2]plySet{}
	g.wideConv = [2]wideConversions{}
	g.pending, g.lastPly = 0, 0
	if err := g.setUp(); err != nil {
		return err
	}
	for s := range g.wideConv {
		g.wideConv[s].index(hi - lo)
	}
	g.addSettled(0) // the checkmates
	for p := 1; p <= 2*tablefile.MaxWideMoves; p++ {
		g.step(p)
		if g.b.failed.Load() {
			return g.b.err
		}
		changed := g.commit(p)
		if changed {
			g.lastPly = p
		}
		if !changed && p >= g.pending {
			break
		}
		if g.b.progress != nil {
			g.b.progress(lo/max(1, g.sliceRows), int64(max(1, len(g.l.Slices))), p)
		}
	}
	// a mate of MaxWideMoves may leave a longer one unstored: the plies
	// do not tell them apart, and refuse
	if g.lastPly == 2*tablefile.MaxWideMoves {
		return tablefile.ErrTooLong
	}
	if g.b.decide {
		g.markDecided()
	}
	return nil
}

// clearGroup zeroes the group's arrays a previous group left, by rows on
// the workers: a group may be most of a gigabyte.
func (g *rowGen) clearGroup() {
	g.b.parallelGrain(g.hi-g.lo, 1024, func(_ *worker, from, to int64) {
		for s := 0; s < 2; s++ {
			clear(g.conv[s][from*64 : to*64])
			if g.capc[s] != nil {
				clear(g.capc[s][from*64 : to*64])
			}
			for _, set := range g.bitSets() {
				clear(set[s][from:to])
			}
		}
	})
	for s := 0; s < 2; s++ {
		clear(g.inConv[s])
		g.fresh[s].reset()
		g.next[s].reset()
	}
}

// markDecided sets, for the group's positions, the bits of decided whose
// value their captures and promotions give.
func (g *rowGen) markDecided() {
	g.each(func(w *worker, r int64) {
		R := g.lo + r
		for s := 0; s < 2; s++ {
			set := uint64(0)
			if g.legal[s][r] != 0 {
				// (a value of two bytes is never left to its conversions:
				// its low byte alone may match their code)
				set = g.legal[s][r] & decidedRow(g.capc[s][r*64:r*64+64], g.vb[s][R*64:R*64+64]) &^ g.high.wideBits(board.Color(s), R)
			}
			g.decided[s][R] = set
			g.unused[s][R] = ^g.legal[s][r]
		}
	})
}

// each runs f over the rows of the group on the workers (r from lo).
func (g *rowGen) each(f func(w *worker, r int64)) {
	g.b.parallelGrain(g.hi-g.lo, 16, func(w *worker, from, to int64) {
		for r := from; r < to; r++ {
			f(w, r)
		}
	})
}

// eachBlock runs f over the blocks of 64 rows of the group, for each
// side to move: the two sides' work of a ply shares one start and one
// join of the workers.
func (g *rowGen) eachBlock(f func(w *worker, s board.Color, blk int64)) {
	n := (g.hi - g.lo + 63) / 64
	g.b.parallelGrain(2*n, 1, func(w *worker, from, to int64) {
		for k := from; k < to; k++ {
			f(w, board.Color(k/n), k%n)
		}
	})
}

// setUpReportRows is the fewest rows of a group whose set-up reports how
// far it is (SetUpPly): a six-man slice's 2^24 (a five-man group has
// 2^18 at most). Tests lower it.
var setUpReportRows int64 = 1 << 22

// setUp finds the legal positions, those with quiet moves, the values of
// the positions with none (checkmates, stalemates, conversions only) and
// the best conversion of the others.
func (g *rowGen) setUp() error {
	g.each(func(w *worker, r int64) {
		sq, occ, ok := g.decodeRow(g.lo + r)
		if !ok {
			return
		}
		g.legal[board.White][r] = g.legalBits(&sq, occ, board.White)
		g.legal[board.Black][r] = g.legalBits(&sq, occ, board.Black)
	})
	var mu sync.Mutex
	rows := g.hi - g.lo
	report := g.b.progress != nil && rows >= setUpReportRows
	var rowsDone atomic.Int64
	g.each(func(w *worker, r int64) {
		if g.b.failed.Load() {
			return
		}
		if !g.setUpRow(w, r) {
			return
		}
		if len(w.wideConvs[0])+len(w.wideConvs[1]) > 1024 {
			mu.Lock()
			g.flush(w)
			mu.Unlock()
		}
		if report {
			// (a six-man slice's set-up takes minutes: say how far it is)
			if n := rowsDone.Add(1); n%max(1, rows/32) == 0 {
				mu.Lock()
				g.b.progress(n, rows, SetUpPly)
				mu.Unlock()
			}
		}
	})
	for i := range g.b.scratch {
		g.flush(&g.b.scratch[i])
		g.pending = max(g.pending, g.b.scratch[i].pending)
	}
	if g.b.failed.Load() {
		return g.b.err
	}
	return nil
}

// setUpRow is the set-up of row r (from lo); false when the build failed.
func (g *rowGen) setUpRow(w *worker, r int64) bool {
	sq, occ, ok := g.decodeRow(g.lo + r)
	if !ok {
		return true
	}
	for s := board.White; s <= board.Black; s++ {
		if g.legal[s][r] != 0 && !g.setUpSide(w, r, &sq, occ, s) {
			return false
		}
	}
	return true
}

// setUpSide is the set-up of row r with side s to move: its quiet moves
// gathered, its conversions (captures, promotions, pawn pushes) valued,
// and the positions they settle written; false when the build failed.
func (g *rowGen) setUpSide(w *worker, r int64, sq *tablefile.Squares, occ board.Bitboard, s board.Color) bool {
	lg := g.legal[s][r]
	other := s.Other()
	q := g.gather(g.lo+r, sq, occ, s, g.legal[other], nil, lg)
	g.quiet[s][r] = q
	var ok bool
	w.caps, ok = g.rowCaptures(w, sq, occ, s, lg, w.caps[:0])
	if !ok {
		return false
	}
	nd := tablefile.Node{N: g.l.Men, Pieces: g.l.Pieces, Sq: *sq, Stm: s, Ep: board.NoSquare}
	w.pushes = g.pushes(sq, occ, s, w.pushes[:0])
	for k := range w.pushes {
		g.promotionReaders(w, nd, &w.pushes[k])
	}
	busy, ok := g.rowConversions(w, &nd, lg, q)
	if !ok {
		return false
	}
	g.keepConversions(w, r, s, lg&busy)
	return g.settleRow(w, r, s, lg&busy, q, lg&^g.legal[other][r])
}

// rowConversions values the conversions of the row's legal positions lg
// (nd its men, its side to move): in w.best the best move of each
// position a conversion at a time, in w.capBest the best of its captures
// and promotions alone. busy is the positions with a conversion, or with
// no quiet move (q): the others have nothing to set up.
func (g *rowGen) rowConversions(w *worker, nd *tablefile.Node, lg, q uint64) (busy uint64, ok bool) {
	other := nd.Stm.Other()
	acc, capAcc := &w.best, &w.capBest
	*acc, *capAcc = [64]tablefile.BestMove{}, [64]tablefile.BestMove{}
	for f := range acc {
		// every value exact: one of two bytes is kept (rowwide.go)
		acc[f].Wide, capAcc[f].Wide = true, true
	}
	busy = ^q
	for k := range w.caps {
		c := &w.caps[k]
		busy |= c.bits
		for y := c.bits & lg; y != 0; y &= y - 1 {
			f := board.Square(bits.TrailingZeros64(y))
			nd.Sq[g.free] = f
			if !g.captureAt(w, c, nd, f, &capAcc[f]) {
				return busy, false
			}
		}
	}
	for k := range w.pushes {
		p := &w.pushes[k]
		busy |= p.legal
		switch {
		case !p.special:
			row := g.vb[other][p.row*64 : p.row*64+64]
			var hi [64]byte
			g.high.row(other, p.row, &hi)
			for y := p.legal & lg; y != 0; y &= y - 1 {
				f := board.Square(bits.TrailingZeros64(y))
				acc[f].Add(tablefile.Value(row[f^p.flip]) | tablefile.Value(hi[f^p.flip])<<8)
			}
		case p.promote:
			for y := p.legal & lg; y != 0; y &= y - 1 {
				f := board.Square(bits.TrailingZeros64(y))
				for i := range p.rd {
					v, err := p.rd[i].at(f)
					if err != nil {
						g.b.fail(err)
						return busy, false
					}
					capAcc[f].Add(v)
				}
			}
		default:
			// a promotion counts with the captures, a double step
			// with the steps
			into := acc
			if p.to < 8 || p.to >= 56 {
				into = capAcc
			}
			for y := p.legal & lg; y != 0; y &= y - 1 {
				f := board.Square(bits.TrailingZeros64(y))
				nd.Sq[g.free] = f
				if !g.special(w, nd, p, &into[f]) {
					return busy, false
				}
			}
		}
	}
	return busy, true
}

// keepConversions keeps the captures' and promotions' best of the
// positions busy of row r, side s to move (for a file of format 3), and
// takes it into w.best.
func (g *rowGen) keepConversions(w *worker, r int64, s board.Color, busy uint64) {
	for y := busy; y != 0; y &= y - 1 {
		f := bits.TrailingZeros64(y)
		c := &w.capBest[f]
		if !c.Have {
			continue
		}
		if g.capc[s] != nil {
			g.capc[s][r*64+int64(f)] = convCode(c.V)
		}
		w.best[f].Merge(c)
	}
}

// settleRow writes what the set-up decides of the positions busy of row
// r, side s to move: a position with quiet moves (q) keeps its best
// conversion for the steps, one without is settled by its conversions,
// or checkmated (in check) or stalemate; false when the build failed.
func (g *rowGen) settleRow(w *worker, r int64, s board.Color, busy, q, check uint64) bool {
	R := g.lo + r
	for y := busy; y != 0; y &= y - 1 {
		f := bits.TrailingZeros64(y)
		bit := uint64(1) << f
		idx := R*64 + int64(f)
		best := w.best[f]
		if best.Long {
			g.b.fail(tablefile.ErrTooLong) // (past MaxWideMoves)
			return false
		}
		if q&bit != 0 {
			if best.Have {
				c := uint8(best.V)
				switch {
				case best.V == tablefile.Draw:
					c = 1
				case best.V.Wide():
					// kept apart, under a draw's code
					c = 1
					w.wideConvs[s] = append(w.wideConvs[s], wideConversion{r*64 + int64(f), best.V})
				}
				g.conv[s][r*64+int64(f)] = c
				g.convHash[s][r] |= 1 << (c & 63)
				if best.V.Win() && !best.V.Wide() {
					// found at its ply unless a quiet move mates
					// sooner (a loss is found by step)
					g.inConv[s].add(r*64+int64(f), c)
				}
				if best.V != tablefile.Draw {
					w.pending = max(w.pending, best.V.Plies())
				}
			}
			continue
		}
		v, ok := settledValue(best, check&bit != 0)
		if !ok {
			continue
		}
		// (won only at its ply: until then the other side's positions
		// moving into it are not lost)
		g.vb[s][idx] = uint8(v)
		g.high.set(s, R, f, uint8(v>>8))
		g.done[s][r] |= bit
		g.settledRows[s][r] |= bit // (the row is this worker's)
		w.settledPlies[s].add(v.Plies())
		w.pending = max(w.pending, v.Plies()+1)
	}
	return true
}

// settledValue is the value the set-up gives a position without a quiet
// move from its best conversion (inCheck: a checkmate when it has none);
// false for a stalemate or a draw, which keep no value.
func settledValue(best tablefile.BestMove, inCheck bool) (tablefile.Value, bool) {
	v := best.V
	if !best.Have {
		if !inCheck {
			return tablefile.Draw, false // stalemate
		}
		v = tablefile.LossIn(0)
	}
	return v, v != tablefile.Draw
}

// flush hands a worker's set-up findings over to the group.
func (g *rowGen) flush(w *worker) {
	for s := range w.settledPlies {
		g.settledPlies[s].merge(&w.settledPlies[s])
		w.settledPlies[s] = plySet{}
	}
	for s := range w.wideConvs {
		g.wideConv[s].add(w.wideConvs[s])
		w.wideConvs[s] = w.wideConvs[s][:0]
	}
}

// promotionReaders sets up the readers of p's four promotions in the row
// of nd, when one symmetry serves the whole row for each (p.promote).
func (g *rowGen) promotionReaders(w *worker, nd tablefile.Node, p *push) {
	p.promote = false
	if !p.special || p.to >= 8 && p.to < 56 || p.legal == 0 {
		return
	}
	nd.Sq[g.free] = board.Square(bits.TrailingZeros64(p.legal))
	for i, promo := range tablefile.Promotions {
		w.child = nd.Play(tablefile.Move{Slot: p.slot, Capture: -1, To: p.to, Promo: promo})
		if p.rd[i] = g.newReader(w, &w.child, g.free); !p.rd[i].ok {
			return
		}
	}
	p.promote = true
}

// special adds to best the value of a pawn step played in the position
// nd: the four promotions, or a double step giving an en-passant right;
// false when a table could not be read.
func (g *rowGen) special(w *worker, nd *tablefile.Node, p *push, best *tablefile.BestMove) bool {
	w.moves = w.moves[:0]
	m := tablefile.Move{Slot: p.slot, Capture: -1, To: p.to}
	if p.to >= 8 && p.to < 56 {
		m.Double = true
		w.moves = append(w.moves, m)
	} else {
		for _, promo := range tablefile.Promotions {
			m.Promo = promo
			w.moves = append(w.moves, m)
		}
	}
	return g.addMoves(w, nd, best)
}

// addMoves adds the values after the moves w.moves of nd to best.
func (g *rowGen) addMoves(w *worker, nd *tablefile.Node, best *tablefile.BestMove) bool {
	for _, m := range w.moves {
		w.child = nd.Play(m)
		v, err := g.b.childValue(w, &w.child)
		if err != nil {
			g.b.fail(err)
			return false
		}
		best.Add(v)
	}
	return true
}

// convCode is the capc code of a best capture or promotion of value v:
// 1 a draw, 0 (as none, so that its position is never decided) a value
// of two bytes, else v.
func convCode(v tablefile.Value) uint8 {
	switch {
	case v == tablefile.Draw:
		return 1
	case v.Wide():
		return 0
	}
	return uint8(v)
}

// convValue decodes a conv entry.
func convValue(c byte) tablefile.Value {
	switch c {
	case 0:
		return tablefile.LossIn(0) // no conversion: nothing holds a loss back
	case 1:
		return tablefile.Draw
	}
	return tablefile.Value(c)
}

// step finds, for each side to move, the positions that take a value at
// ply p: at an odd ply those with a quiet move into a position just lost,
// or a conversion mating now; at an even ply those a successor just
// became a win for the other side, every quiet move leading to a position
// the other side wins, and the conversions losing no later. A position
// whose conversions lose later waits (in waiting, its conv code in
// inConv) until their ply: inConv holds only the codes of conversions
// that win, and of those that lose for waiting positions.
func (g *rowGen) step(p int) {
	for s := range g.next {
		g.next[s].reset()
	}
	g.eachBlock(func(w *worker, s board.Color, blk int64) {
		next, fresh := g.next[s], g.fresh[s.Other()]
		if !fresh.marked(blk) {
			return
		}
		for r := blk * 64; r < min(blk*64+64, g.hi-g.lo); r++ {
			if x := fresh.w[r]; x != 0 {
				g.scatter(g.lo+r, x, s, next)
			}
		}
	})
	// the conv codes are of one byte: past the plies a byte reaches, the
	// conversions of value p are the wide ones
	byteCode := p <= 2*tablefile.MaxMoves
	code := uint8(tablefile.FromPlies(p))
	win := p%2 == 1
	var wideDue [2]bool
	for s := range wideDue {
		wideDue[s] = g.wideConv[s].dueAt(p)
	}
	g.eachBlock(func(w *worker, s board.Color, blk int64) {
		next, inConv, other := g.next[s], g.inConv[s], s.Other()
		from, to := blk*64, min(blk*64+64, g.hi-g.lo)
		byConv := false
		for i := from * 64; byteCode && i < to*64; i += blockSize {
			byConv = byConv || inConv.has(i, code)
		}
		wide := g.wideConv[s].due
		byWide := wideDue[s] && wide.marked(blk)
		if !byConv && !byWide && !next.marked(blk) {
			return
		}
		for r := from; r < to; r++ {
			c := next.w[r] & g.quiet[s][r]
			due := uint64(0) // waiting positions whose conversions lose now
			if byConv && g.convHash[s][r]>>(code&63)&1 != 0 {
				switch {
				case win:
					c |= g.convIs(s, r, code)
				case g.waiting[s][r] != 0:
					due = g.convIs(s, r, code) & g.waiting[s][r]
				}
			}
			if byWide {
				if win {
					c |= wide.w[r]
				} else {
					due |= wide.w[r] & g.waiting[s][r]
				}
			}
			c &^= g.done[s][r] | due
			if c != 0 && !win {
				sq, occ, _ := g.decodeRow(g.lo + r)
				c &^= g.gather(g.lo+r, &sq, occ, s, g.legal[other], g.won[other], c)
				for y := c; y != 0; y &= y - 1 {
					f := bits.TrailingZeros64(y)
					if cv := g.convAt(s, r, f); !lossNoLater(cv, p) {
						c &^= 1 << f
						if cv.Loss() {
							// every quiet move loses sooner: lost when
							// the conversions are (this worker has the
							// rows of inConv's blocks here; a wide
							// conversion is found by its ply)
							g.waiting[s][r] |= 1 << f
							if !cv.Wide() {
								inConv.add(r*64+int64(f), uint8(cv))
							}
						}
					}
				}
			}
			next.w[r] = c | due
		}
		if byConv || byWide {
			next.mark(blk)
		}
	})
}

// decidedRow returns the positions of a row of 64 whose conversion (a
// capc code: 0 none, 1 a draw, else the value) gives their value (vb):
// eight positions a word, as markDecided does for every row of a table.
func decidedRow(capc, vb []byte) uint64 {
	set := uint64(0)
	for k := 0; k < 64; k += 8 {
		code := binary.LittleEndian.Uint64(capc[k:])
		none := zeroBytes(code)
		// a draw's code 1 compares as the draw's value 0
		c := code &^ (zeroBytes(code^0x0101010101010101) >> 7 * 0xff)
		eq := zeroBytes(c^binary.LittleEndian.Uint64(vb[k:])) &^ none
		set |= (eq >> 7 * 0x0102040810204080 >> 56) << k
	}
	return set
}

// zeroBytes returns the high bit of each byte of x that is zero (and
// no other bit).
func zeroBytes(x uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((x&low7 + low7) | x | low7)
}

// convIs returns the positions of row r (from lo, s to move) whose
// conversions' value is code.
func (g *rowGen) convIs(s board.Color, r int64, code uint8) uint64 {
	return bytesEqual(g.conv[s][r*64:r*64+64], code)
}

// bytesEqual is the set of the places of the 64 bytes of row that hold
// code.
func bytesEqual(row []byte, code uint8) uint64 {
	pattern := uint64(code) * 0x0101010101010101
	c := uint64(0)
	for k := 0; k < 64; k += 8 {
		zero := zeroBytes(binary.LittleEndian.Uint64(row[k:]) ^ pattern)
		// bit 8i+7 of zero becomes bit i of a byte
		c |= (zero >> 7 * 0x0102040810204080 >> 56) << k
	}
	return c
}

// commit gives the positions found at ply p their value, and makes them
// (with those the set-up valued at p) the next ply's frontier. It
// reports whether any position took a value.
func (g *rowGen) commit(p int) bool {
	value := tablefile.FromPlies(p)
	code, high := uint8(value), uint8(value>>8)
	win := p%2 == 1
	for s := range g.fresh {
		g.fresh[s], g.next[s] = g.next[s], g.fresh[s]
	}
	g.eachBlock(func(w *worker, s board.Color, blk int64) {
		fresh := g.fresh[s]
		if !fresh.marked(blk) {
			return
		}
		for r := blk * 64; r < min(blk*64+64, g.hi-g.lo); r++ {
			x := fresh.w[r]
			if x == 0 {
				continue
			}
			w.set += int64(bits.OnesCount64(x))
			g.done[s][r] |= x
			if win {
				g.won[s][r] |= x
			}
			base := (g.lo + r) * 64
			for y := x; y != 0; y &= y - 1 {
				g.vb[s][base+int64(bits.TrailingZeros64(y))] = code
			}
			if high != 0 {
				g.high.setAll(s, g.lo+r, x, high)
			}
		}
	})
	changed := g.b.setCount() > 0
	return g.addSettled(p) || changed
}

// addSettled adds to the frontier (and, at a ply of mates, to the won
// positions) the positions the set-up valued at ply p, and reports
// whether there were any.
func (g *rowGen) addSettled(p int) bool {
	found := false
	value := tablefile.FromPlies(p)
	for s := board.White; s <= board.Black; s++ {
		if !g.settledPlies[s].has(p) {
			continue
		}
		found = true
		set := g.settledRows[s]
		g.each(func(w *worker, r int64) {
			x := set[r]
			if x == 0 {
				return
			}
			hits := x & bytesEqual(g.vb[s][(g.lo+r)*64:(g.lo+r)*64+64], uint8(value))
			if hits == 0 {
				return
			}
			if hits = g.high.rowsMatching(s, g.lo+r, value, hits); hits == 0 {
				return
			}
			set[r] = x &^ hits
			g.fresh[s].or(r, hits)
			if p%2 == 1 {
				g.won[s][r] |= hits
			}
		})
	}
	return found
}

// toLayout copies a pawnless table's values into its layout: each
// canonical king pair's block of positions is the block of its white
// king's triangle square and black king's square. Slots the layout does
// not store (a symmetric position's other forms, identical men out of
// order) are left 0.
func (g *rowGen) toLayout() [2]tablefile.ByteArray {
	l := g.l
	var out [2]tablefile.ByteArray
	var ob [2][]byte
	for s := 0; s < 2; s++ {
		out[s] = tablefile.NewByteArray(l.Size)
		ob[s] = out[s].Bytes(l.Size)
	}
	block := l.KkWeight
	var dec, unused [2][]uint64
	if g.b.decide {
		for s := 0; s < 2; s++ {
			dec[s] = make([]uint64, (l.Size+63)/64)
			unused[s] = make([]uint64, (l.Size+63)/64)
		}
	}
	g.b.parallel(tablefile.KkPairCount, func(w *worker, from, to int64) {
		for kk := from; kk < to; kk++ {
			pair := tablefile.KkPairs[kk]
			src := (int64(triCode[pair[0]])*64 + int64(pair[1])) * block
			dst := kk * block
			onlyIdentity := tablefile.KkTransforms[pair[0]][pair[1]]&(tablefile.KkTransforms[pair[0]][pair[1]]-1) == 0
			check := len(l.Groups) > 0 || !onlyIdentity
			if !g.b.decide {
				for s := 0; s < 2; s++ {
					g.pairValues(kk, g.vb[s][src:src+block], ob[s][dst:dst+block])
				}
				continue
			}
			if g.b.decide {
				// (a block is a multiple of 64 positions: whole words)
				for s := 0; s < 2; s++ {
					copy(dec[s][dst/64:(dst+block)/64], g.decided[s][src/64:(src+block)/64])
					copy(unused[s][dst/64:(dst+block)/64], g.unused[s][src/64:(src+block)/64])
				}
			}
			if check && onlyIdentity {
				// identical men, kings off the diagonals: which slots are
				// stored is read a row of the last man's 64 squares at a
				// time, not decoded index by index
				for r := int64(0); r < block; r += 64 {
					mask := l.RowStored(dst + r)
					for s := 0; s < 2; s++ {
						if g.b.decide {
							unused[s][(dst+r)/64] |= ^mask
						}
						for m := mask; m != 0; m &= m - 1 {
							j := int64(bits.TrailingZeros64(m))
							ob[s][dst+r+j] = g.vb[s][src+r+j]
						}
					}
				}
				continue
			}
			for s := 0; s < 2; s++ {
				if !check {
					copy(ob[s][dst:dst+block], g.vb[s][src:src+block])
					continue
				}
				for i := int64(0); i < block; i++ {
					v := g.vb[s][src+i]
					if v == 0 && !g.b.decide {
						continue // a draw: its slot holds 0 whether stored or not
					}
					if _, ok := l.Stored(dst + i); ok {
						ob[s][dst+i] = v
					} else if g.b.decide {
						unused[s][(dst+i)/64] |= 1 << ((dst + i) % 64)
					}
				}
			}
		}
	})
	g.b.decided, g.b.unused = dec, unused
	return out
}

// pairStorage is how the layout stores the slots of a king pair of a
// pawnless table.
type pairStorage int

const (
	storesAll    pairStorage = iota // every slot: no identical men, no symmetry of the kings
	storesByRows                    // identical men, kings off the diagonals: l.RowStored a row at a time
	storesByIdx                     // kings on a diagonal: l.Stored slot by slot
)

// storageOf says how the layout stores king pair kk's slots.
func (g *rowGen) storageOf(kk int64) pairStorage {
	pair := tablefile.KkPairs[kk]
	tr := tablefile.KkTransforms[pair[0]][pair[1]]
	switch onlyIdentity := tr&(tr-1) == 0; {
	case len(g.l.Groups) == 0 && onlyIdentity:
		return storesAll
	case onlyIdentity:
		return storesByRows
	}
	return storesByIdx
}

// markUnstored sets in unused (the bits of king pair kk's block of one
// side) the slots the layout does not store, as toLayout does.
func (g *rowGen) markUnstored(kk int64, unused []uint64) {
	l := g.l
	base := kk * l.KkWeight
	switch g.storageOf(kk) {
	case storesByRows:
		for r := int64(0); r < l.KkWeight; r += 64 {
			unused[r/64] |= ^l.RowStored(base + r)
		}
	case storesByIdx:
		for i := int64(0); i < l.KkWeight; i++ {
			if _, ok := l.Stored(base + i); !ok {
				unused[i/64] |= 1 << (i % 64)
			}
		}
	}
}

// pairValues copies the values of king pair kk of a pawnless table from
// the rows' order (src) into the layout's (dst, the pair's block of one
// side), leaving 0 in the slots the layout does not store.
func (g *rowGen) pairValues(kk int64, src, dst []byte) {
	l := g.l
	base := kk * l.KkWeight
	switch g.storageOf(kk) {
	case storesAll:
		copy(dst, src)
	case storesByRows:
		// which slots are stored is read a row of the last man's 64
		// squares at a time
		clear(dst)
		for r := int64(0); r < l.KkWeight; r += 64 {
			for m := l.RowStored(base + r); m != 0; m &= m - 1 {
				j := r + int64(bits.TrailingZeros64(m))
				dst[j] = src[j]
			}
		}
	default:
		clear(dst)
		for i, v := range src {
			if v == 0 {
				continue // a draw: its slot holds 0 whether stored or not
			}
			if _, ok := l.Stored(base + int64(i)); ok {
				dst[i] = v
			}
		}
	}
}

// clearUnstored clears, in a table with pawns, the slots the layout does
// not store: the mirror forms of a symmetric pawn placement's positions,
// identical men out of order.
func (g *rowGen) clearUnstored() {
	l := g.l
	pieceGroups := false
	for _, gr := range l.Groups {
		pieceGroups = pieceGroups || l.Pieces[gr[0]].Type() != board.Pawn
	}
	g.b.parallel(int64(len(l.Slices)), func(w *worker, from, to int64) {
		for slice := from; slice < to; slice++ {
			if !pieceGroups && !l.Symmetric(int(slice)) {
				continue
			}
			base := slice * l.PerSlice
			for i := base; i < base+l.PerSlice; i++ {
				if g.vb[0][i] == 0 && g.vb[1][i] == 0 && !g.b.decide && !g.high.hasRow(board.White, i/64) && !g.high.hasRow(board.Black, i/64) {
					continue
				}
				if _, ok := l.Stored(i); !ok {
					g.vb[0][i], g.vb[1][i] = 0, 0
					g.high.set(board.White, i/64, int(i%64), 0)
					g.high.set(board.Black, i/64, int(i%64), 0)
					if g.b.decide {
						g.unused[0][i/64] |= 1 << (i % 64)
						g.unused[1][i/64] |= 1 << (i % 64)
					}
				}
			}
		}
	})
}
