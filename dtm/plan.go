package dtm

import (
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"mateline.dev/mateline/dtm/generate"
	"mateline.dev/mateline/dtm/tablefile"
)

// buildPlan is the order of a set build (Store.Plan): it tells which of
// the raw copies kept for builds (keepRaw) a later build of the set
// reads, and how soon.
type buildPlan struct {
	keys  []string          // every table the set builds, children first
	reads []map[string]bool // the children each reads
	done  map[string]bool   // the tables there (built or found)
}

// Plan orders sigs for a set build so that each table comes soon after
// the tables it reads: the tables are visited children first, from the
// last of sigs (the most men and pawns, in AllUpTo's order) back, so
// that a table with pawns follows the tables its promotions read. It
// also gives the store that order: while the set is built, the raw
// copies of format-3 tables it keeps for the builds that read them are
// dropped once no later build reads them, and, over the bound, those
// read last go first (not the oldest); and a six-man table a later
// build reads through its file is written in format 2 (readThroughFile).
func (s *Store) Plan(sigs []tablefile.Material) []tablefile.Material {
	want := map[string]bool{}
	for _, m := range sigs {
		c, _ := m.Canonical()
		want[c.String()] = true
	}
	p := &buildPlan{done: map[string]bool{}}
	var out []tablefile.Material
	for _, t := range planOrder(sigs) {
		k := t.m.String()
		reads := map[string]bool{}
		for _, c := range t.reads {
			reads[c.String()] = true
		}
		p.keys = append(p.keys, k)
		p.reads = append(p.reads, reads)
		if _, err := os.Stat(s.Path(t.m)); err == nil {
			p.done[k] = true // built before (a resumed set)
		}
		if want[k] {
			out = append(out, t.m)
		}
	}
	s.rawMu.Lock()
	s.plan = p
	s.rawMu.Unlock()
	return out
}

// plannedRead is a table of a plan and the tables it reads.
type plannedRead struct {
	m     tablefile.Material
	reads []tablefile.Material
}

// planOrder is every table building sigs needs, children first, visited
// from the last of sigs back (Plan's order), each with the tables its
// captures and promotions lead to.
func planOrder(sigs []tablefile.Material) []plannedRead {
	var out []plannedRead
	seen := map[string]bool{}
	var visit func(m tablefile.Material)
	visit = func(m tablefile.Material) {
		k := m.String()
		if seen[k] || m.Bare() {
			return
		}
		seen[k] = true
		var reads []tablefile.Material
		for _, c := range m.Children() {
			visit(c)
			if !c.Bare() {
				reads = append(reads, c)
			}
		}
		out = append(out, plannedRead{m, reads})
	}
	for _, m := range slices.Backward(sigs) {
		c, _ := m.Canonical()
		visit(c)
	}
	return out
}

// PlannedTable is one table of a build plan (Store.BuildPlan).
type PlannedTable struct {
	Material tablefile.Material
	// Positions is the layout's positions per side to move.
	Positions int64
	// Reads are the tables its captures and promotions lead to.
	Reads []tablefile.Material
	// Built says its file is in the cache; Bytes is then its size, else
	// about what it will take (EstimatedBytes).
	Built bool
	Bytes int64
	// Time is about how long its build takes on two cores, Memory about
	// the build's peak resident memory in bytes.
	Time   time.Duration
	Memory int64
	// SetsOnDisk says two of a bounded build's bit sets go to files to
	// keep it within the store's bound (Options.MemoryBound).
	SetsOnDisk bool
	// ValuesOnDisk says a build of a table with pawns keeps its values
	// and bits in scratch files (generate.Options.ValuesOnDisk), which
	// take ScratchBytes of disk while it runs; Memory is then its group
	// of slices'. A six-man table with pawns held in memory takes as
	// much disk for its checkpoint.
	ValuesOnDisk bool
	ScratchBytes int64
	// OverMemory says Blocked is the store's bound: the build would not
	// fit it even so.
	OverMemory bool
	// Blocked says why this version cannot build it (a table of more
	// than MaxMen men); empty when it can.
	Blocked string
}

// BuildPlan lists every table building sigs needs, in the order a set
// build takes them (Plan's: each table soon after those it reads), with
// its size, what it reads, whether it is built, and about what its build
// costs. It builds nothing.
func (s *Store) BuildPlan(sigs []tablefile.Material) []PlannedTable {
	var out []PlannedTable
	for _, t := range planOrder(sigs) {
		l := tablefile.NewLayout(t.m)
		pt := PlannedTable{Material: t.m, Positions: l.Size, Reads: t.reads,
			Time: estimatedBuild(t.m), Memory: estimatedMemory(l), Bytes: estimatedBytes(t.m, l.Size)}
		switch {
		case t.m.Men() == BoundedMen && !t.m.HasPawns():
			pt.Memory = boundedMemory(l)
			if pt.Memory+boundedMargin > s.memoryBound {
				// (Store.boundedFit's choice, the tables read counted as
				// a gigabyte)
				pt.Memory = boundedMemoryOnDisk(l)
				pt.SetsOnDisk = true
				if pt.Memory+boundedMargin > s.memoryBound {
					pt.OverMemory = true
					pt.Blocked = (&MemoryError{Material: t.m, Need: pt.Memory + boundedMargin, Bound: s.memoryBound}).Error()
				}
			}
		case t.m.HasPawns() && s.valuesOnDisk(l):
			pt.ValuesOnDisk, pt.ScratchBytes = true, scratchBytes(l)
			pt.Memory = groupMemory(l)
		case t.m.HasPawns() && t.m.Men() >= s.checkpointMen:
			pt.ScratchBytes = scratchBytes(l) // (its checkpoint's files)
		}

		if st, err := os.Stat(s.Path(t.m)); err == nil {
			pt.Built, pt.Bytes = true, st.Size()
		}
		out = append(out, pt)
	}
	return out
}

// BuildMemoryBound is the most memory a build may take on the 24 GiB
// machine the tables are built on (docs/dtm.md, "Six men").
const BuildMemoryBound = 16 << 30

// estimatedLargeBuild is about how long the build of m, size positions
// per side, would take on two cores: a pawnless six-man table at the
// bounded build's measured speed (boundedBuildRate), one with pawns at
// the five-man generator's speed per position for its kind of table
// (largeBuildRates) slowed as KQRPvKN's build was (sixPawnSlowdown).
func estimatedLargeBuild(m tablefile.Material, size int64) time.Duration {
	if !m.HasPawns() {
		return time.Duration(boundedBuildRate * float64(size))
	}
	kind := min(strings.Count(m.String(), "P"), 2)
	return time.Duration(sixPawnSlowdown * largeBuildRates()[kind] * float64(size))
}

// boundedBuildRate is the time per position (of the layout, per side)
// of the bounded build of a pawnless six-man table on two cores:
// KQRBvKN's 1,097 s (2026-12-03), whose mates are short (40 moves at
// most, 43 plies solved); a table with longer mates solves more plies.
const boundedBuildRate = float64(1097*time.Second) / 7751073792

// sixPawnSlowdown is how much slower a six-man table with pawns builds
// a position than the five-man generator does: KQRPvKN took 1,806 s on
// two cores (2026-12-07, its values on disk, its promotions read
// through their files, about 240 s of it the streamed write) where the
// five-man speed gives 1,728 s.
const sixPawnSlowdown = 1806.0 / 1728

// largeBuildRates is the five-man generator's time per position of a
// pawnless table, one with a pawn and one with more (KQRvKR 10 s,
// KRPvKR 27 s with what it reads, KPPvKP 14 s), worked out once.
var largeBuildRates = sync.OnceValue(func() (rates [3]float64) {
	for i, ref := range [...]string{"KQRvKR", "KRPvKR", "KPPvKP"} {
		r, _ := tablefile.ParseMaterial(ref)
		rates[i] = float64(estimatedSmallBuild(r)) / float64(tablefile.NewLayout(r).Size)
	}
	return rates
})

// estimatedBytes is about the size of m's file, size positions per side:
// the bytes per position of its kind of table in the whole set of up to
// five men as built on 2026-11-28 (docs/dtm.md: 33 MB for the 3- and
// 4-man tables, 0.51 GB for the pawnless five-man ones, 1.49 GB with one
// pawn, 0.31 GB with two or three, over their positions; the set as
// written now is 6 % larger).
func estimatedBytes(m tablefile.Material, size int64) int64 {
	pawns := strings.Count(m.String(), "P")
	rate := 0.0
	switch {
	case m.Men() == BoundedMen && pawns == 0:
		// format 3, one side, as the bounded build writes it: KQRBvKN's
		// 451 MB (2026-12-03, at zstd's "better": about 9 % less at best,
		// as the six-man files are written now; KRNvKNN's wide file 723 MB)
		return int64(451010985.0 / 7751073792 * float64(size))
	case m.Men() <= 4:
		rate = 33e6 / 95374848
	case pawns == 0:
		rate = 0.51e9 / 7266631680
	case pawns == 1:
		rate = 1.49e9 / 14495514624
	default:
		rate = 0.31e9 / 2532442112
	}
	return int64(1.06 * rate * float64(size))
}

// boundedMemory is about the peak resident memory of a bounded build of
// l's pawnless table: five bits a position and side in the rows'
// numbering (10 × 64^(men-1) positions a side), and the tables it reads
// held whole, about a gigabyte for six men.
func boundedMemory(l *tablefile.Layout) int64 {
	return 2*generate.BoundedSets*generate.BoundedSetBytes(l.Men) + 1<<30
}

// boundedMemoryOnDisk is boundedMemory with two of the five bit sets in
// files (generate.Options.SetsOnDisk).
func boundedMemoryOnDisk(l *tablefile.Layout) int64 {
	return boundedMemory(l) - 2*generate.BoundedSetsOnDisk*generate.BoundedSetBytes(l.Men)
}

// estimatedMemory is about the peak resident memory of a build of l's
// table by rows: for a pawnless table about 9.5 bytes a position (both
// sides' values, conversions, bit sets and the copy into the layout;
// KQRvKR's 121 M positions a side took 1.14 GB), for one with pawns its
// values (two bytes a position) and 9.5 bytes a position of its largest
// group of slices, solved at once.
func estimatedMemory(l *tablefile.Layout) int64 {
	const perPosition = 9.5
	if len(l.Pawns) == 0 {
		return int64(perPosition * float64(l.Size))
	}
	largest := 0
	for _, g := range l.SliceGroups() {
		largest = max(largest, g[1]-g[0])
	}
	return 2*l.Size + int64(perPosition*float64(int64(largest)*l.PerSlice))
}

// groupMemory is about the peak resident memory of the build of l's
// table with pawns with its values on disk: 9.5 bytes a position of its
// largest group of slices, less the two bytes of values (estimatedMemory
// without the values whole), and the pages of the values it reads.
func groupMemory(l *tablefile.Layout) int64 {
	return estimatedMemory(l) - 2*l.Size
}

// scratchBytes is the disk the scratch files of a build of l with its
// values on disk take: two bytes a position, and with format 3 two bits
// (its decided and unused bits) a position and side.
func scratchBytes(l *tablefile.Layout) int64 {
	return 2*l.Size + 2*2*l.Size/8
}

// nextRead is the place in the plan of the first table not yet there
// that reads key's table, or len(p.keys) if none does.
func (p *buildPlan) nextRead(key string) int {
	for i, k := range p.keys {
		if !p.done[k] && p.reads[i][key] {
			return i
		}
	}
	return len(p.keys)
}

// planDone tells the plan that m's table is there: it reads no table any
// more, and the kept copies no build still to come reads go.
func (s *Store) planDone(m tablefile.Material) {
	s.rawMu.Lock()
	defer s.rawMu.Unlock()
	if s.plan != nil {
		s.plan.done[m.String()] = true
		s.evictKept()
	}
}
