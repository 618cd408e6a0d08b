package dtm

import (
	"errors"
	"fmt"
	"math/rand"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// VerifyReport is what Verify found in one table.
type VerifyReport struct {
	Table     string
	Positions int64 // legal positions checked (both sides to move)
	Wins      int64 // of them, won for the side to move
	Losses    int64
	// Inconsistent counts positions whose value is not the best of their
	// moves' values one ply on.
	Inconsistent int64
	// WDLChecked and WDLMismatch count the comparisons with Syzygy.
	WDLChecked, WDLMismatch int64
	// FileBlocks and FileMismatch: a file of format 3 (values left to the
	// probe) is checked block by block against a fresh build's
	FileBlocks, FileMismatch int64
	// Examples are a few failing positions, as FEN with what was found.
	Examples []string
	// Longest is the longest mate in the table.
	Longest tablefile.Value
	// Sampled is how many positions were drawn at random (VerifySample);
	// 0 when every position was checked.
	Sampled int
}

// OK reports whether the table passed.
func (r VerifyReport) OK() bool {
	return r.Inconsistent == 0 && r.WDLMismatch == 0 && r.FileMismatch == 0
}

func (r VerifyReport) String() string {
	var b strings.Builder
	status := "ok"
	if !r.OK() {
		status = "FAILED"
	}
	longest := "longest mate"
	if r.Sampled > 0 {
		fmt.Fprintf(&b, "%s\t%s\ta sample of %d positions drawn at random: ", r.Table, status, r.Sampled)
		longest = "longest mate seen"
	} else {
		fmt.Fprintf(&b, "%s\t%s\t", r.Table, status)
	}
	fmt.Fprintf(&b, "%d positions, %d won, %d lost, %s %d moves; consistency: %d wrong",
		r.Positions, r.Wins, r.Losses, longest, r.Longest.Moves(), r.Inconsistent)
	if r.WDLChecked > 0 {
		fmt.Fprintf(&b, "; Syzygy WDL: %d compared, %d differ", r.WDLChecked, r.WDLMismatch)
	} else {
		b.WriteString("; Syzygy WDL: not compared")
	}
	if r.FileBlocks > 0 {
		fmt.Fprintf(&b, "; file (format 3) against a fresh build: %d blocks, %d differ", r.FileBlocks, r.FileMismatch)
	}
	for _, e := range r.Examples {
		fmt.Fprintf(&b, "\n  %s", e)
	}
	return b.String()
}

// Cached lists the tables of up to five men present in the store's
// directory.
func (s *Store) Cached() ([]tablefile.Material, error) {
	return s.cachedWhere(func(m tablefile.Material) bool { return m.Men() <= tablefile.MaxMen })
}

// CachedSixMen lists the six-man tables in the cache (which Cached
// leaves out: a whole check of one takes hours).
func (s *Store) CachedSixMen() ([]tablefile.Material, error) {
	return s.cachedWhere(func(m tablefile.Material) bool { return m.Men() > tablefile.MaxMen && Holds(m) })
}

// cachedWhere lists the tables present in the store's directory that
// keep accepts, by men, then signature.
func (s *Store) cachedWhere(keep func(tablefile.Material) bool) ([]tablefile.Material, error) {
	names, err := filepath.Glob(filepath.Join(s.dir, "*"+tablefile.FileSuffix))
	if err != nil {
		return nil, err
	}
	var out []tablefile.Material
	for _, n := range names {
		m, err := tablefile.ParsePlannedMaterial(strings.TrimSuffix(filepath.Base(n), tablefile.FileSuffix))
		if err == nil && keep(m) {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Men() < out[j].Men() || out[i].Men() == out[j].Men() && out[i].String() < out[j].String()
	})
	return out, nil
}

// Verify checks every position of m's table (which must be built):
// its value must be the best of its moves' values one ply on, and, when
// wdl is given (Syzygy: 2 win, 1 cursed win, 0 draw, -1 blessed loss, -2
// loss), the same win, draw or loss. A file of format 3, whose values
// come from a fresh build, is first compared with that build, block by
// block.
func (s *Store) Verify(m tablefile.Material, wdl func(*board.Position) (int, bool)) (VerifyReport, error) {
	m, _ = m.Canonical()
	t, err := s.builtTable(m)
	if err != nil {
		return VerifyReport{}, err
	}
	if t.z != nil && t.z.Header.Wide() {
		// (its values are read through its blocks, never whole)
		return VerifyReport{}, fmt.Errorf("%s: its values take two bytes and are not checked whole: check a sample (mateline tables verify --sample 100000 %s)", m, m)
	}
	r := VerifyReport{Table: m.String()}
	// the children first: a fresh build of a format-3 file's values
	// reads them through these holds, not copies of its own
	held, err := s.holdChildren(m, s.buildMax)
	defer func() {
		for _, c := range held {
			s.releaseRaw(c)
		}
	}()
	if err != nil {
		return r, err
	}
	if t.z != nil && t.z.Header.Decides() {
		// its values come from a fresh build: the file is checked
		// against it, block by block
		n, err := s.checkFile(t)
		if err != nil {
			return r, err
		}
		r.FileBlocks, r.FileMismatch = int64(t.z.Header.Blocks), n
	}
	if err := s.acquireRaw(t); err != nil {
		return r, err
	}
	defer s.releaseRaw(t)
	tally := s.checkValues(t.l, t.rawData(), wdl)
	if tally.err != nil {
		return r, tally.err
	}
	tally.report(&r)
	return r, nil
}

// builtTable is m's table (canonical), which must be in the cache: a
// check builds nothing.
func (s *Store) builtTable(m tablefile.Material) (*Table, error) {
	t, err := s.table(m, 0)
	if errors.Is(err, ErrMissing) {
		return nil, fmt.Errorf("%w: %s is not in %s (mateline tables build %s)", ErrMissing, m, s.dir, m)
	}
	return t, err
}

// VerifySample checks n positions of m's table drawn at random (seeded)
// as Verify checks every one: each value against its moves' values one
// ply on, read through the probes (nothing is held whole), and against
// wdl when given. It is for a table too large to check whole in a
// sitting, such as a six-man table.
func (s *Store) VerifySample(m tablefile.Material, n int, seed int64, wdl func(*board.Position) (int, bool)) (VerifyReport, error) {
	m, _ = m.Canonical()
	t, err := s.builtTable(m)
	if err != nil {
		return VerifyReport{}, err
	}
	r := VerifyReport{Table: m.String(), Sampled: n}
	rng := rand.New(rand.NewSource(seed))
	nodes := make([]tablefile.Node, n)
	for i := range nodes {
		nodes[i] = tablefile.RandomNode(rng, t.l)
	}
	c := s.checkSample(t, nodes, wdl)
	if c.err != nil {
		return r, c.err
	}
	c.report(&r)
	return r, nil
}

// checkSample checks each of nodes (positions of t) against its moves,
// and wdl when given, on the store's workers, each taking the next
// position; an error stops them all (recorded in the tally).
func (s *Store) checkSample(t *Table, nodes []tablefile.Node, wdl func(*board.Position) (int, bool)) *verifyTally {
	c := &verifyTally{}
	workers := s.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			w := &stepScratch{}
			for i := next.Add(1) - 1; i < int64(len(nodes)) && !stop.Load(); i = next.Add(1) - 1 {
				nd := nodes[i]
				v, err := s.answer(t, &nd, 0)
				if err != nil {
					c.fail(err)
					stop.Store(true)
					return
				}
				if !s.checkPosition(&nd, v, 2*i, w, wdl, c) {
					stop.Store(true)
					return
				}
			}
		})
	}
	wg.Wait()
	return c
}

// verifyTally counts what a verify finds, from every worker at once.
type verifyTally struct {
	positions, wins, losses, bad, wdlChecked, wdlBad atomic.Int64
	longest                                          atomic.Int32
	mu                                               sync.Mutex
	examples                                         []example // the ten first in order of the positions that fail
	err                                              error     // an error that stopped a worker
}

// note keeps one failing position's description, at its place at in the
// order of the positions checked, when it is among the first ten.
func (c *verifyTally) note(at int64, format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := sort.Search(len(c.examples), func(i int) bool { return c.examples[i].at > at })
	if i >= maxExamples {
		return
	}
	c.examples = slices.Insert(c.examples, i, example{at, fmt.Sprintf(format, args...)})
	if len(c.examples) > maxExamples {
		c.examples = c.examples[:maxExamples]
	}
}

// maxExamples is how many failing positions a report describes.
const maxExamples = 10

// example is a failing position's description, at its place in the
// order of the positions checked (whichever worker found it).
type example struct {
	at   int64
	text string
}

// fail records an error that stops the check.
func (c *verifyTally) fail(err error) {
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
}

// count counts a legal position of value v.
func (c *verifyTally) count(v tablefile.Value) {
	c.positions.Add(1)
	switch {
	case v.Win():
		c.wins.Add(1)
	case v.Loss():
		c.losses.Add(1)
	}
	for {
		old := c.longest.Load()
		if int32(v.Moves()) <= old || c.longest.CompareAndSwap(old, int32(v.Moves())) {
			break
		}
	}
}

// report writes the counts into r.
func (c *verifyTally) report(r *VerifyReport) {
	r.Examples = nil
	for _, e := range c.examples {
		r.Examples = append(r.Examples, e.text)
	}
	r.Positions, r.Wins, r.Losses, r.Inconsistent = c.positions.Load(), c.wins.Load(), c.losses.Load(), c.bad.Load()
	r.WDLChecked, r.WDLMismatch = c.wdlChecked.Load(), c.wdlBad.Load()
	if r.Longest = tablefile.WinIn(int(c.longest.Load())); c.longest.Load() == 0 {
		r.Longest = tablefile.Draw
	}
}

// checkValues checks the value of every legal position of a table's
// values (data: White to move, then Black) against its moves', and
// against wdl when it is given, over the store's workers.
func (s *Store) checkValues(l *tablefile.Layout, data []byte, wdl func(*board.Position) (int, bool)) *verifyTally {
	c := &verifyTally{}
	eachChunk(s.workers, l.Size, func(w *stepScratch, from, to int64) {
		for idx := from; idx < to; idx++ {
			nd, ok := ownNode(l, idx)
			if !ok {
				continue
			}
			for side := board.White; side <= board.Black; side++ {
				nd.Stm = side
				if !nd.Legal() {
					continue
				}
				if !s.checkPosition(&nd, tablefile.Value(data[int64(side)*l.Size+idx]), 2*(2*idx+int64(side)), w, wdl, c) {
					return
				}
			}
		}
	})
	return c
}

// ownNode is the node of index idx, with ok false when idx is no
// position's own index: two men on one square, or the index of a
// position the layout files under another.
func ownNode(l *tablefile.Layout, idx int64) (tablefile.Node, bool) {
	sq := l.Decode(idx)
	var occ board.Bitboard
	for k := 0; k < l.Men; k++ {
		if occ.Has(sq[k]) {
			return tablefile.Node{}, false
		}
		occ |= board.SquareBB(sq[k])
	}
	cp := sq
	if c, ok := l.Index(&cp); !ok || c != idx {
		return tablefile.Node{}, false
	}
	return tablefile.Node{N: l.Men, Pieces: l.Pieces, Sq: sq, Ep: board.NoSquare}, true
}

// checkPosition counts one legal position of value v and checks v
// against its moves' values, and against wdl when given (a failure
// described at place at, at+1 for wdl's); false when an error stops the
// check (recorded in c).
func (s *Store) checkPosition(nd *tablefile.Node, v tablefile.Value, at int64, w *stepScratch, wdl func(*board.Position) (int, bool), c *verifyTally) bool {
	c.count(v)
	same, err := s.stepAgrees(nd, v, w)
	if err != nil {
		c.fail(err)
		return false
	}
	if !same {
		want, err := s.oneStep(nd, w)
		if err != nil {
			c.fail(err)
			return false
		}
		c.bad.Add(1)
		c.note(at, "%s: table %s, its moves give %s", nd.FEN(), v, want)
	}
	if wdl == nil {
		return true
	}
	pos, err := board.ParseFEN(nd.FEN())
	if err != nil {
		return true
	}
	if x, ok := wdl(&pos); ok {
		c.wdlChecked.Add(1)
		if sign(x) != v.Sign() {
			c.wdlBad.Add(1)
			c.note(at+1, "%s: table %s, Syzygy WDL %d", nd.FEN(), v, x)
		}
	}
	return true
}

// oneStep computes a position's value from its moves' values in the
// tables: what the table must hold.
func (s *Store) oneStep(nd *tablefile.Node, w *stepScratch) (tablefile.Value, error) {
	ms := nd.Moves(w.moves[:0])
	if len(ms) == 0 {
		if nd.InCheck() {
			return tablefile.LossIn(0), nil
		}
		return tablefile.Draw, nil
	}
	best := tablefile.BestMove{Wide: true}
	for _, m := range ms {
		w.child = nd.Play(m)
		v, err := tablefile.ValueOf(&w.child, s.lookupHeld, &w.ep)
		if err != nil {
			return tablefile.Draw, err
		}
		best.Add(v)
	}
	return best.Value()
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// stepScratch is one goroutine's room for oneStep and stepAgrees: a move
// list, the child node, the room of an en-passant read, and of one a
// move further on.
type stepScratch struct {
	moves   []tablefile.Move
	child   tablefile.Node
	ep      tablefile.EPScratch
	replyEP tablefile.EPScratch
}

// eachChunk runs f over chunks of [0, n) on workers goroutines (0: every
// core), each with its own scratch.
func eachChunk(workers int, n int64, f func(w *stepScratch, from, to int64)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	const chunk = 1 << 12
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			w := &stepScratch{}
			for {
				from := next.Add(chunk) - chunk
				if from >= n {
					return
				}
				f(w, from, min(from+chunk, n))
			}
		})
	}
	wg.Wait()
}
