package dtm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/generate"
	"mateline.dev/mateline/dtm/tablefile"
	"mateline.dev/mateline/tablebase/dtmline"
)

// ErrNotInTables says a position has no table: castling rights, or more
// than MaxMen men. It is not a failure.
var ErrNotInTables = errors.New("not in DTM tables")

// ErrMissing says a table is not in the cache and may not be built now
// (a read-only cache, or building turned off).
var ErrMissing = errors.New("DTM table not built")

// Store is a directory of tables: it loads them on first use, and builds
// the ones missing (with the tables they need) when allowed. It is safe
// for concurrent use.
type Store struct {
	dir      string
	buildMax int // build missing tables of at most this many men
	workers  int
	warn     func(string)
	progress func(BuildEvent)

	mu      sync.Mutex
	cache   *tablefile.BlockCache
	nextID  uint64
	tables  map[string]*entry
	warned  map[string]bool
	noWrite bool
	// byKey maps a node's materialKey to its table, once loaded: the
	// probes' fast path, with no allocation and no lock
	byKey resolvedMap
	rawCopies
	buildChoice
}

// rawCopies are the tables' values kept whole for the builds that read
// them (rawcopy.go).
type rawCopies struct {
	rawMu sync.Mutex // guards what follows
	kept  []*Table   // the tables whose raw copies are kept (keepRaw), oldest first
	plan  *buildPlan // the set being built (Plan), or nil
	// keptBytes bounds the kept raw copies (keptRawBytes)
	keptBytes int64
}

// buildChoice is how the store builds and writes a table.
type buildChoice struct {
	// byPositions builds every table position by position (build.go),
	// not by rows (rows.go): the tests' reference generator
	byPositions bool
	// format3 writes the tables of format3Men men or more in format 3:
	// 1 both sides, 2 one side (Options.Format 3); the values captures and
	// promotions give left to the probe
	format3, format3Men int
	// fill is how format 3 of one side fills its free slots (tests set
	// it; fillChoose otherwise)
	fill tablefile.FillMode
	// bounded builds pawnless tables in bounded memory (Options.Bounded)
	bounded bool
	// wide makes the values of bounded builds and of tables with pawns
	// two bytes each even when every mate fits one
	// (generate.Options.Wide): the tests' way to formats 4 and 5
	wide bool
	// memoryBound is the most memory a build may take (Options.MemoryBound)
	memoryBound int64
	// throughFilesMen: a build reads the tables of this many men or more
	// through their files, not whole (BoundedMen: a six-man table with
	// pawns' promotions; tests lower it)
	throughFilesMen int
	// checkpointMen: a table with pawns of this many men or more keeps
	// a checkpoint even with its values in memory, as does a bounded
	// build (BoundedMen; tests lower it), whose sets are saved every
	// checkpointEvery (Options.CheckpointEvery)
	checkpointMen   int
	checkpointEvery time.Duration
}

// resolved is the table of one material as nodes see it: flip when the
// node's colours must be swapped to read it; t nil for bare kings.
type resolved struct {
	t    *Table
	flip bool
}

type entry struct {
	once    sync.Once
	tried   int // the build bound of the first attempt
	t       *Table
	err     error
	release func()
}

// Table is one loaded table: its compressed file, and while builds read
// it, its values whole.
type Table struct {
	l    *tablefile.Layout
	z    *tablefile.Compressed
	path string
	raw  atomic.Pointer[[]byte] // the values whole, White to move then Black, while held
	rawc *rawCopy               // (Store.rawMu)
}

// Layout is the table's layout.
func (t *Table) Layout() *tablefile.Layout { return t.l }

// Values are the table's values whole (White to move, then Black) while
// a build holds them, else nil.
func (t *Table) Values() []byte { return t.rawData() }

// Read reads one position's value from the table's file for a build: a
// file of format 3 leaves values to the probe (its bytes alone are not
// the values), so a build must hold that table's values whole.
func (t *Table) Read(nd *tablefile.Node) (tablefile.Value, error) {
	if err := t.readableByBuild(); err != nil {
		return tablefile.Draw, err
	}
	return t.value(nd)
}

// ReadIndex reads the value at index idx of side to move side from the
// table's file for a build, as Read does.
func (t *Table) ReadIndex(side board.Color, idx int64) (tablefile.Value, error) {
	if err := t.readableByBuild(); err != nil {
		return tablefile.Draw, err
	}
	return t.z.At(int(side), idx)
}

// readableByBuild says why a build cannot read t's file value by value:
// a file of format 3 leaves values to the probe.
func (t *Table) readableByBuild() error {
	if t.z != nil && t.z.Header.Decides() {
		return fmt.Errorf("%s: read by a build without its values whole", t.l.Mat)
	}
	return nil
}

// rawData is the table's values whole, or nil when no build holds them.
func (t *Table) rawData() []byte {
	if p := t.raw.Load(); p != nil {
		return *p
	}
	return nil
}

// Options configure a Store.
type Options struct {
	// BuildMen builds a missing table on first use when it has at most
	// this many men (0: never build, only read).
	BuildMen int
	// Workers is how many goroutines a build uses (0: every core).
	Workers int
	// Warn receives warnings: a corrupt file rebuilt, a read-only cache.
	// Each is given once.
	Warn func(string)
	// Progress follows builds.
	Progress func(BuildEvent)
	// CacheBytes bounds the decompressed blocks kept for probes, shared
	// by every table and thread (0: DefaultCacheBytes).
	CacheBytes int64
	// Format is the file format the tables of five and six men it
	// builds are written in: 3 (0: the default; one side to move stored, the other
	// answered one ply deep; the values captures and promotions give
	// left to the probe; a build that reads such a table it did not
	// build itself builds its values again), or 2 (both sides stored
	// whole: about 3.4 times the size). Tables of either format are read.
	Format int
	// Bounded builds the pawnless tables in bounded memory (five bits a
	// position and side to move, the rest in a scratch file in the
	// cache directory: generate.Options.Bounded), written as Format
	// says (a table whose mates need two-byte values in format 5, or 4
	// with Format 2).
	Bounded bool
	// MemoryBound is the most memory a build may take (0:
	// BuildMemoryBound, 16 GiB). A bounded build whose bit sets do not
	// fit keeps two of its five in files (generate.Options.SetsOnDisk),
	// paged by the system; one that would not fit so is refused
	// (*MemoryError).
	MemoryBound int64
	// CheckpointEvery is how often a bounded build of six men saves its
	// bit sets to its checkpoint, from its start (0:
	// generate.BoundedCheckpointEvery, 15 min).
	CheckpointEvery time.Duration
}

// MemoryError is a bounded build refused: it needs at least Need bytes
// with two of its bit sets on disk, and the bound is Bound.
type MemoryError struct {
	Material    tablefile.Material
	Need, Bound int64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("%s needs at least %.1f GiB to build, with two of its five bit sets on disk; the bound is %.1f GiB (--memory)",
		e.Material, float64(e.Need)/(1<<30), float64(e.Bound)/(1<<30))
}

// BuildEvent reports the progress of a table build.
type BuildEvent struct {
	Table       string        // the signature being built
	Done, Total int64         // slices solved
	Ply         int           // the ply being solved in slice Done+1 (0: a slice just finished; generate.SetUpPly: a bounded build setting up, Done of Total rows; generate.WritePly: writing, Done of Total king pairs)
	Finished    bool          // the table is written
	Elapsed     time.Duration // since its build began
	Bytes       int64         // the file's size, when Finished
	// Again: the values of a table on disk in format 3 (which keeps one
	// side to move), built again in memory for a build that reads them
	// whole; Finished then means they are ready, and no file is written
	Again bool
}

// DefaultDir is the cache used when none is given: $MATELINE_DTM, or
// mateline/dtm under the user's cache directory.
func DefaultDir() (string, error) {
	if d := os.Getenv("MATELINE_DTM"); d != "" {
		return d, nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for DTM tables (set MATELINE_DTM or --dtm): %w", err)
	}
	return filepath.Join(c, "mateline", "dtm"), nil
}

// Open returns the store of directory dir (created when missing and
// building is allowed).
func Open(dir string, o Options) *Store {
	if o.CacheBytes <= 0 {
		o.CacheBytes = tablefile.DefaultCacheBytes
	}
	s := &Store{dir: dir, buildMax: o.BuildMen, workers: o.Workers, warn: o.Warn, progress: o.Progress,
		tables: map[string]*entry{}, warned: map[string]bool{}, cache: tablefile.NewBlockCache(o.CacheBytes),
		rawCopies: rawCopies{keptBytes: keptRawBytes}, buildChoice: buildChoice{format3Men: tablefile.MaxMen, throughFilesMen: BoundedMen, checkpointMen: BoundedMen}}
	if o.Format != 2 {
		s.format3 = 2
	}
	s.memoryBound, s.checkpointEvery = o.MemoryBound, o.CheckpointEvery
	if s.memoryBound <= 0 {
		s.memoryBound = BuildMemoryBound
	}
	s.bounded = o.Bounded
	if s.warn == nil {
		s.warn = func(string) {}
	}
	return s
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) warnOnce(key, msg string) {
	s.mu.Lock()
	seen := s.warned[key]
	s.warned[key] = true
	s.mu.Unlock()
	if !seen {
		s.warn(msg)
	}
}

// Path is the file of a table.
func (s *Store) Path(m tablefile.Material) string {
	c, _ := m.Canonical()
	return filepath.Join(s.dir, c.String()+tablefile.FileSuffix)
}

// Table returns m's table (canonical material), loading or building it.
func (s *Store) Table(m tablefile.Material) (*Table, error) {
	return s.table(m, s.buildMax)
}

// Build makes sure m's table and those it needs are on disk, building
// what is missing or corrupt, whatever the store's BuildMen: any table
// this version holds (Holds), a six-man one in bounded memory.
func (s *Store) Build(m tablefile.Material) (*Table, error) {
	return s.table(m, BoundedMen)
}

// Holds reports whether this version holds tables of m: up to
// BoundedMen men (the six-man ones with pawns built by slices, their
// six-man promotions read through their files).
func Holds(m tablefile.Material) bool {
	return m.Men() <= BoundedMen
}

// boundedMargin is what a bounded build leaves of BuildMemoryBound to
// what the Go heap does not count: the program, its stacks, the mapped
// pages of the file written.
const boundedMargin = 1 << 30

// BoundedMen is the most men a table holds, and the men of the tables
// built only in bounded memory: without pawns by the bounded generator
// (generate.Options.Bounded; by rows they would hold about 69 GiB), with
// pawns by rows, their values on disk past the bound.
const BoundedMen = 6

func (s *Store) table(m tablefile.Material, buildMax int) (*Table, error) {
	c, _ := m.Canonical()
	key := c.String()
	s.mu.Lock()
	e := s.tables[key]
	if e == nil {
		e = &entry{}
		s.tables[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() {
		e.tried = buildMax
		e.t, e.release, e.err = s.open(c, buildMax)
		if e.err == nil {
			s.planDone(c)
		}
	})
	if e.err != nil && errors.Is(e.err, ErrMissing) && buildMax > e.tried && c.Men() > e.tried {
		// an earlier probe that could not build found it missing; this
		// one may build it
		s.mu.Lock()
		if s.tables[key] == e {
			delete(s.tables, key)
		}
		s.mu.Unlock()
		return s.table(m, buildMax)
	}
	return e.t, e.err
}

// releaseMapped lets go of the resident pages of every loaded table (see
// releasePages).
func (s *Store) releaseMapped() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rawMu.Lock() // no copy is unmapped meanwhile
	defer s.rawMu.Unlock()
	for _, e := range s.tables {
		if e.t != nil {
			tablefile.ReleasePages(e.t.z.File)
			tablefile.ReleasePages(e.t.rawData())
		}
	}
}

// Close releases the mapped tables (it never fails: it is an io.Closer).
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byKey.clear()
	s.rawMu.Lock()
	defer s.rawMu.Unlock()
	for k, e := range s.tables {
		if e.t != nil {
			e.t.dropRaw()
			s.cache.Drop(e.t.z)
		}
		if e.release != nil {
			e.release()
		}
		delete(s.tables, k)
	}
	return nil
}

func (s *Store) open(m tablefile.Material, buildMax int) (*Table, func(), error) {
	l := tablefile.NewLayout(m)
	path := s.Path(m)
	t, release, err := s.load(path, l)
	if err == nil {
		return t, release, nil
	}
	switch {
	case errors.Is(err, tablefile.ErrOldFormat):
		s.warnOnce(path, fmt.Sprintf("DTM table %s: %v; treated as not built", path, err))
	case errors.Is(err, tablefile.ErrCorrupt):
		s.warnOnce(path, fmt.Sprintf("DTM table %s: %v; not trusted, rebuilt", path, err))
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
		s.warnOnce(path, fmt.Sprintf("DTM table %s: %v", path, err))
	}
	if m.Men() > buildMax || !Holds(m) {
		return nil, nil, &MissingError{m}
	}
	return s.buildAndOpen(m, l, path, buildMax)
}

// load opens a compressed table file, every block's checksum checked.
func (s *Store) load(path string, l *tablefile.Layout) (*Table, func(), error) {
	z, release, err := tablefile.OpenCompressed(path, l, true)
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	s.nextID++
	z.Id = s.nextID
	s.mu.Unlock()
	z.Cache = s.cache
	z.ReleaseRead = l.Men >= BoundedMen
	z.Corrupt = func(g int64, err error) {
		s.warnOnce(fmt.Sprintf("%s#%d", path, g), fmt.Sprintf("DTM table %s: %v (changed since it was opened? the probe is not answered; the table is checked, and rebuilt if need be, when next opened)", path, err))
	}
	return &Table{l: l, z: z, path: path}, release, nil
}

// buildAndOpen builds m's table under its lock (unless another process
// built it meanwhile), writes its file, and opens it.
func (s *Store) buildAndOpen(m tablefile.Material, l *tablefile.Layout, path string, buildMax int) (*Table, func(), error) {
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		s.warnOnce("dir", fmt.Sprintf("DTM cache %s cannot be written (%v): tables missing from it are not built", s.dir, err))
		return nil, nil, &MissingError{m}
	}
	if err := s.children(m, buildMax); err != nil {
		return nil, nil, err
	}
	unlock, err := tablefile.LockFile(path + ".lock")
	if err != nil {
		s.warnOnce("dir", fmt.Sprintf("DTM cache %s cannot be written (%v): tables missing from it are not built", s.dir, err))
		return nil, nil, &MissingError{m}
	}
	defer unlock()
	// another process may have built it while we waited for the lock
	if t, release, err := s.load(path, l); err == nil {
		return t, release, nil
	}
	// a temporary file of this table is a killed build's: the lock is ours
	if stale, _ := filepath.Glob(path + ".tmp*"); len(stale) > 0 {
		for _, f := range stale {
			os.Remove(f)
		}
	}
	built, start, err := s.buildValues(m, l, buildMax)
	var size int64
	var copied scratch
	if err == nil {
		size, copied, err = s.writeBuilt(m, l, path, built)
	}
	var t *Table
	var release func()
	var readErr error
	if err == nil && built.checkpoint != nil {
		built.checkpoint.Remove() // the table is written
	}
	if err == nil {
		s.planDone(m) // its children are read no more
		t, release, readErr = s.load(path, l)
		if readErr == nil && copied.data != nil {
			s.adoptRaw(t, copied.data, copied.release)
			copied.release = nil
		}
	}
	if copied.release != nil {
		copied.release()
	}
	built = builtValues{}
	if l.Size >= 1<<24 {
		// The build's arrays (up to a gigabyte) are garbage now: give them
		// back at once, or, with a high GOGC, the next build would pile
		// its own on top of them.
		debug.FreeOSMemory()
	}
	if err != nil {
		return nil, nil, &buildError{m.String(), err}
	}
	if s.progress != nil {
		s.progress(BuildEvent{Table: m.String(), Finished: true, Elapsed: time.Since(start), Bytes: size})
	}
	if readErr != nil {
		return nil, nil, fmt.Errorf("reading %s back: %w", path, readErr)
	}
	return t, release, nil
}

// builtValues are a table's values as its build leaves them: both sides
// to move, and with decided (format 3) the bits of the positions whose
// value a capture or a promotion gives and of the slots no probe reads.
type builtValues struct {
	sides           [2][]byte
	decided, unused [2][]uint64
	// a bounded build's values, or a wide one's by rows, read in index
	// order instead of sides
	stream tablefile.Stream
	// release lets go of what the values hold once they are written:
	// a bounded build's scratch file and the tables its stream reads, or
	// the mapped values of a build with them on disk (nil: nothing)
	release func()
	// paged: sides are shared mappings of scratch files (values on disk)
	paged bool
	// checkpoint: the files a killed build with its values on disk goes
	// on from, removed once the table is written (nil: none)
	checkpoint *generate.Checkpoint
}

// buildValues builds m's values, holding the values of the tables its
// captures and promotions lead to whole while it runs. start is when the
// build proper began, once those were held.
func (s *Store) buildValues(m tablefile.Material, l *tablefile.Layout, buildMax int) (built builtValues, start time.Time, err error) {
	held, err := s.holdChildren(m, buildMax)
	releaseHeld := func() {
		for _, t := range held {
			s.releaseRaw(t)
		}
	}
	defer func() {
		if releaseHeld != nil {
			releaseHeld()
		}
	}()
	start = time.Now()
	if err != nil {
		return builtValues{}, start, err
	}
	progress := s.sliceReporter(m, start, false)
	if l.Size >= 1<<24 {
		// The smaller tables a large build reads are mapped files: the
		// pages its lookups touch would stay resident in it, several
		// gigabytes for a five-man table with pawns. Each finished slice
		// lets them go (they stay in the page cache).
		report := progress
		progress = func(done, total int64, ply int) {
			if ply == 0 {
				s.releaseMapped()
			}
			if report != nil {
				report(done, total, ply)
			}
		}
	}
	resolve := s.resolveForBuild
	bounded := len(l.Pawns) == 0 && (s.bounded || l.Men >= BoundedMen)
	decide := s.format3 > 0 && l.Men >= s.format3Men && !s.readThroughFile(m)
	var onDisk bool
	var resetLimit func()
	defer func() {
		if resetLimit != nil {
			resetLimit()
		}
	}()
	if bounded {
		// the bitsets are most of the heap: the collector keeps it within
		// the bound, less the tables it reads, mapped whole, whatever
		// GOGC says, until the file is written (the stream's release)
		var limit int64
		if limit, onDisk, err = s.boundedFit(m, l, held); err != nil {
			return builtValues{}, start, err
		}
		resetLimit = holdMemoryLimit(limit)
	}
	valuesOnDisk := s.valuesOnDisk(l)
	if valuesOnDisk {
		// its group's arrays are a few gigabytes, but the blocks of the
		// six-man tables it reads through their files come and go by
		// the terabyte: the collector keeps the heap within the bound,
		// less the tables held, until the file is written
		resetLimit = holdMemoryLimit(s.heapLimit(held))
	}
	kept := valuesOnDisk || (bounded || len(l.Pawns) > 0) && l.Men >= s.checkpointMen
	checkpoint := s.checkpointOf(m, l, decide, kept)
	b, err := generate.Build(l, s.lookupHeld, resolve, generate.Options{Workers: s.workers, Progress: progress, ByPositions: s.byPositions, Decide: decide, Bounded: bounded, Wide: s.wide, ScratchDir: s.dir, SetsOnDisk: onDisk, ValuesOnDisk: valuesOnDisk, Checkpoint: checkpoint, CheckpointEvery: s.checkpointEvery})
	if err != nil {
		if checkpoint != nil {
			checkpoint.Remove() // (the same build would fail again from it)
		}
		return builtValues{}, start, err
	}
	if b.Stream != nil {
		// a bounded build's decided bits are found as its values are
		// read: its tables stay held until then
		release := inTurn(b.Release, releaseHeld, resetLimit)
		releaseHeld, resetLimit = nil, nil
		st := tablefile.Stream{Values: b.Stream, Wide: b.Wide, Flags: b.Flags, OneSide: b.Flags != nil && s.format3 == 2}
		return builtValues{stream: st, release: release, checkpoint: checkpoint}, start, nil
	}
	// (the memory limit held until the file is written)
	built = builtValues{sides: [2][]byte{b.Values[0].Bytes(l.Size), b.Values[1].Bytes(l.Size)}, release: inTurn(b.Release, resetLimit), paged: valuesOnDisk && b.Release != nil, checkpoint: checkpoint}
	resetLimit = nil
	if decide && b.Decided[0] != nil {
		built.decided, built.unused = b.Decided, b.Unused
	}
	return built, start, nil
}

// inTurn is a release that calls the releases given that are not nil,
// in turn, or nil when all are.
func inTurn(releases ...func()) func() {
	releases = slices.DeleteFunc(releases, func(f func()) bool { return f == nil })
	if len(releases) == 0 {
		return nil
	}
	return func() {
		for _, f := range releases {
			f()
		}
	}
}

// valuesOnDisk reports whether the build of l, a table with pawns, keeps
// its values and bits in scratch files (generate.Options.ValuesOnDisk):
// when, held whole, they would pass the store's memory bound.
func (s *Store) valuesOnDisk(l *tablefile.Layout) bool {
	return len(l.Pawns) > 0 && estimatedMemory(l)+boundedMargin > s.memoryBound
}

// heapLimit is the limit a large build's heap is held to: the store's
// bound less boundedMargin and the tables it reads, held whole.
func (s *Store) heapLimit(held []*Table) int64 {
	var reads int64
	for _, t := range held {
		reads += 2 * t.l.Size
	}
	return s.memoryBound - boundedMargin - reads
}

// boundedFit is how a bounded build of m fits the store's memory bound:
// the limit its heap is held to (the bound less boundedMargin and the
// tables it reads, mapped whole), and whether two of its five bit sets
// go to files (when all five would pass the limit). A build that would
// pass it even so is refused with a *MemoryError.
func (s *Store) boundedFit(m tablefile.Material, l *tablefile.Layout, held []*Table) (limit int64, onDisk bool, err error) {
	limit = s.heapLimit(held)
	reads := s.memoryBound - boundedMargin - limit
	set := 2 * generate.BoundedSetBytes(l.Men) // one set, both sides
	switch {
	case generate.BoundedSets*set <= limit:
		return limit, false, nil
	case (generate.BoundedSets-generate.BoundedSetsOnDisk)*set <= limit:
		return limit, true, nil
	}
	need := (generate.BoundedSets-generate.BoundedSetsOnDisk)*set + boundedMargin + reads
	return 0, false, &MemoryError{Material: m, Need: need, Bound: s.memoryBound}
}

// writeBuilt writes a built table's file at path, and (format 3, when
// another build will read the table) a scratch copy of its values whole,
// written while the blocks are compressed; it returns the file's size and
// the copy.
func (s *Store) writeBuilt(m tablefile.Material, l *tablefile.Layout, path string, built builtValues) (int64, scratch, error) {
	if built.release != nil {
		defer built.release()
	}
	if built.stream.Values != nil {
		// a king pair's positions at a time (a table with pawns, whose
		// values take two bytes: 4 Mi), and whole blocks
		chunk := max(l.KkWeight, 1<<tablefile.ZOneSideShift)
		if len(l.Pawns) > 0 {
			chunk = 1 << 22
		}
		size, err := tablefile.WriteFileFrom(path, l, built.stream, chunk, s.workers)
		if err != nil {
			err = fmt.Errorf("writing %s: %w", path, err)
		}
		return size, scratch{}, err
	}
	decide := built.decided[0] != nil
	var kept chan scratch
	if decide && s.readLater(m) {
		kept = make(chan scratch, 1)
		go func() {
			var c scratch
			c.data, c.release, _ = writeScratch(s.dir, l, built.sides)
			kept <- c
		}()
	}
	o := tablefile.ZOptions{Paged: built.paged}
	if decide {
		o = tablefile.ZOptions{Decided: built.decided, Unused: built.unused, OneSide: s.format3 == 2, Fill: s.fill, Paged: built.paged}
	}
	size, err := tablefile.WriteFile(path, l, built.sides, o, s.workers)
	if err != nil {
		err = fmt.Errorf("writing %s: %w", path, err)
	}
	var copied scratch
	if kept != nil {
		copied = <-kept
	}
	if err != nil && copied.release != nil {
		copied.release()
		copied = scratch{}
	}
	return size, copied, err
}

// scratch is a scratch copy of a table's values written by
// writeScratch: the mapped copy and its release, or nil on an error.
type scratch struct {
	data    []byte
	release func()
}

// holdChildren takes a hold on the values of every table m's captures
// and promotions lead to, whole (acquireRaw).
func (s *Store) holdChildren(m tablefile.Material, buildMax int) ([]*Table, error) {
	var held []*Table
	for _, c := range m.Children() {
		if c.Bare() {
			continue
		}
		t, err := s.table(c, buildMax)
		if err != nil {
			return held, err
		}
		if c.Men() >= s.throughFilesMen {
			// a promotion of a six-man table with pawns: too large to hold
			// whole, read through its file a row at a time
			if err := readableByRows(m, t); err != nil {
				return held, err
			}
			continue
		}
		if err := s.acquireRaw(t); err != nil {
			return held, err
		}
		held = append(held, t)
	}
	return held, nil
}

// readableByRows reports why t, a six-man table the build of m reads
// through its file, cannot be: its file must store both sides' values
// as they are (format 2: a file of format 3 leaves the values a capture
// gives to the probe, a file of one side the other side's).
func readableByRows(m tablefile.Material, t *Table) error {
	h := t.z.Header
	if h.Decides() || h.SidesStored() < 2 {
		how := "of format 3, its decided values left to the probe"
		if h.SidesStored() < 2 {
			how = "of one side to move"
		}
		return fmt.Errorf("%s reads %s through its file, which must store both sides' values as they are (format 2), but %s is %s: remove it, and 'mateline tables build %s' writes it so as it builds %s first (or MATELINE_DTM_FORMAT=2)",
			m, t.l.Mat, t.path, how, m, t.l.Mat)
	}
	return nil
}

// lookup reads a position without en-passant right from its table.
func (s *Store) lookup(nd *tablefile.Node) (tablefile.Value, error) {
	return s.lookupWith(nd, s.buildMax)
}

// lookupHeld is lookup for a build or a verification, which holds the
// values whole of the tables it reads (acquireRaw): read there, not
// through blocks. Only the holder may read a held copy: another reader
// could find it unmapped under it once its holder lets go.
func (s *Store) lookupHeld(nd *tablefile.Node) (tablefile.Value, error) {
	r, err := s.resolve(nd, s.buildMax)
	if err != nil || r.t == nil {
		return tablefile.Draw, err
	}
	x := nd
	if r.flip {
		f := nd.Flipped()
		x = &f
	}
	if raw := r.t.rawData(); raw != nil {
		idx, err := r.t.l.IndexOf(x)
		if err != nil {
			return tablefile.Draw, err
		}
		return tablefile.Value(raw[int64(x.Stm)*r.t.l.Size+idx]), nil
	}
	return s.answer(r.t, x, s.buildMax)
}

// lookupWith reads a position without en-passant right from its table
// (building it, up to buildMax men, the first time). A table of format 3
// is answered, a recursion, on a copy of nd, so that nd stays on its
// caller's stack (answer's children among them), and a table that stores
// its bytes whole allocates nothing.
func (s *Store) lookupWith(nd *tablefile.Node, buildMax int) (tablefile.Value, error) {
	r, err := s.resolve(nd, buildMax)
	if err != nil || r.t == nil {
		return tablefile.Draw, err
	}
	x := *nd
	if r.flip {
		x = nd.Flipped()
	}
	if !r.t.z.Header.Decides() {
		return r.t.value(&x)
	}
	onHeap := x
	return s.answer(r.t, &onHeap, buildMax)
}

// answer reads a node of t's material, in its colours: its byte, and in
// a file of format 3 the best of that and of its captures and
// promotions, or for a side not stored the best of its moves.
func (s *Store) answer(t *Table, nd *tablefile.Node, buildMax int) (tablefile.Value, error) {
	if !t.z.Header.Decides() {
		return t.value(nd)
	}
	lookup := func(n *tablefile.Node) (tablefile.Value, error) { return s.lookupWith(n, buildMax) }
	var buf [64]tablefile.Move
	best := tablefile.BestMove{Wide: true}
	var moves []tablefile.Move
	stored := t.z.Header.Stores(int(nd.Stm))
	if stored {
		v, err := t.value(nd)
		if err != nil {
			return tablefile.Draw, err
		}
		best.V, best.Have = v, true
		moves = nd.CapturesAndPromotions(buf[:0], nd.ThreatsTo(nd.Stm))
	} else {
		moves = nd.Moves(buf[:0])
	}
	for _, m := range moves {
		ch := nd.Play(m)
		var v tablefile.Value
		var err error
		if ch.Ep == board.NoSquare {
			v, err = s.lookupWith(&ch, buildMax)
		} else {
			withEP := ch
			v, err = tablefile.ValueOf(&withEP, lookup, new(tablefile.EPScratch))
		}
		if err != nil {
			return tablefile.Draw, err
		}
		best.Add(v)
	}
	if !best.Have {
		if nd.InCheck() {
			return tablefile.LossIn(0), nil
		}
		return tablefile.Draw, nil
	}
	if stored && len(moves) == 0 {
		return best.V, nil
	}
	return best.Value()
}

// sliceReporter turns a build's progress into BuildEvents of m (nil
// when nobody follows builds); again marks a table's values built again.
func (s *Store) sliceReporter(m tablefile.Material, start time.Time, again bool) func(done, total int64, ply int) {
	if s.progress == nil {
		return nil
	}
	return func(done, total int64, ply int) {
		s.progress(BuildEvent{Table: m.String(), Done: done, Total: total, Ply: ply, Elapsed: time.Since(start), Again: again})
	}
}

// resolve finds the table of a node's material, loading or building it
// (up to buildMax men) the first time.
func (s *Store) resolve(nd *tablefile.Node, buildMax int) (resolved, error) {
	key := nd.MaterialKey()
	if r, ok := s.byKey.load(key); ok {
		return r, nil
	}
	m := nd.Material()
	if m.Bare() {
		return resolved{}, nil
	}
	c, flip := m.Canonical()
	t, err := s.table(c, buildMax)
	if err != nil {
		return resolved{}, err
	}
	r := resolved{t, flip}
	s.byKey.store(key, r)
	return r, nil
}

// value reads a node of this table's material, in its colours.
func (t *Table) value(nd *tablefile.Node) (tablefile.Value, error) {
	idx, err := t.l.IndexOf(nd)
	if err != nil {
		return tablefile.Draw, err
	}
	return t.z.At(int(nd.Stm), idx)
}

// Material is the table's signature.
func (t *Table) Material() tablefile.Material { return t.l.Mat }

// Positions is the number of entries per side to move.
func (t *Table) Positions() int64 { return t.l.Size }

// Probe returns the distance to mate of a position. A position Covers
// does not (castling rights, too many men) gives ErrNotInTables; an
// en-passant right is answered from the moves.
func (s *Store) Probe(pos *board.Position) (tablefile.Value, error) {
	if !Covers(pos) {
		return tablefile.Draw, ErrNotInTables
	}
	nd, ok := tablefile.NodeOf(pos)
	if !ok {
		return tablefile.Draw, ErrNotInTables
	}
	return tablefile.ValueOf(&nd, s.lookup, new(tablefile.EPScratch))
}

// Covers reports whether pos could be in a table: no castling rights and
// at most BoundedMen men.
func Covers(pos *board.Position) bool {
	return pos.Castling() == 0 && pos.Occupied().Count() <= BoundedMen
}

// Prober is a view of a Store for the solver, with its own bound on the
// tables a probe may build: a root may wait for a five-man table, a node
// deep in a search should not.
type Prober struct {
	s          *Store
	buildMax   int
	want       int  // the buildMen asked for
	storedOnly bool // StoredOnly's
}

// StoredOnly returns a view that answers only the positions whose side
// to move a table's file stores: a table of format 3 that stores one
// side answers the other one ply deep, several times slower; a search
// that asks about the positions one move on gets the same answers at
// the speed of a stored byte.
func (p Prober) StoredOnly() Prober {
	p.storedOnly = true
	return p
}

// StoredDTM is StoredOnly as dtmline sees it: a DTM line tests the
// moves into a side not stored with a bound (dtmline.Stored).
func (p Prober) StoredDTM() dtmline.DTM { return p.StoredOnly() }

// Prober returns a view that builds missing tables of at most buildMen
// men (and never more than the store allows). When the store allows
// fewer than asked, a table it may not build is named once in a warning
// that says how to build it.
func (s *Store) Prober(buildMen int) Prober {
	return Prober{s: s, buildMax: min(buildMen, s.buildMax), want: buildMen}
}

// Quiet returns a view that says nothing of the tables it cannot build:
// a caller that knows whether the tables were missed says it (HintOnce).
func (p Prober) Quiet() Prober {
	p.want = p.buildMax
	return p
}

// ProbeDTM returns the distance to mate of pos in signed moves (+N the
// side to move mates in N, -N it is mated in N, 0 no forced mate). ok is
// false when the tables do not answer: not covered, a table that cannot
// be had, or a side checkmated now.
func (p Prober) ProbeDTM(pos *board.Position) (int, bool) {
	if !Covers(pos) {
		return 0, false
	}
	nd, ok := tablefile.NodeOf(pos)
	if !ok {
		return 0, false
	}
	var v tablefile.Value
	var err error
	var r resolved
	if p.storedOnly {
		r, err = p.s.resolve(&nd, p.buildMax)
		if err == nil && r.t != nil {
			stm := int(nd.Stm)
			if r.flip {
				stm ^= 1
			}
			if !r.t.z.Header.Stores(stm) {
				return 0, false
			}
		}
	}
	switch {
	case p.storedOnly && err == nil && r.t != nil && nd.Ep == board.NoSquare:
		// (resolved once)
		if r.flip {
			f := nd.Flipped()
			v, err = p.s.answer(r.t, &f, p.buildMax)
		} else {
			v, err = p.s.answer(r.t, &nd, p.buildMax)
		}
	case nd.Ep == board.NoSquare:
		v, err = p.s.lookupWith(&nd, p.buildMax) // (no closure: no allocation)
	default:
		withEP := nd // (escapes to the heap, in this rare case only)
		v, err = tablefile.ValueOf(&withEP, func(nd *tablefile.Node) (tablefile.Value, error) { return p.s.lookupWith(nd, p.buildMax) }, new(tablefile.EPScratch))
	}
	if err != nil || v == tablefile.LossIn(0) {
		var me *MissingError
		if p.want > p.buildMax && errors.As(err, &me) {
			p.s.warnOnce("hint "+me.Material.String(), p.s.BuildHint(me.Material)+"; until then its positions are searched")
		}
		return 0, false
	}
	return v.Signed(), true
}

// concurrentMen is the most men of a table built alongside others: the
// children of a table up to this size are built at once, each sharing
// the cores with the others (a small build spends much of its time at
// the barriers between its steps, and in writing and reading its file,
// where another build can use the core). Larger children are built one
// at a time, as their memory (up to 2 GiB) must not add up.
const concurrentMen = 4

// children makes sure the tables m's captures and promotions lead to are
// loaded, building those missing.
func (s *Store) children(m tablefile.Material, buildMax int) error {
	var small, large []tablefile.Material
	for _, c := range m.Children() {
		switch {
		case c.Bare():
		case c.Men() <= concurrentMen:
			small = append(small, c)
		default:
			large = append(large, c)
		}
	}
	errs := make([]error, len(small))
	var wg sync.WaitGroup
	for i, c := range small {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.table(c, buildMax)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	for _, c := range large {
		if _, err := s.table(c, buildMax); err != nil {
			return err
		}
	}
	return nil
}

// buildError is a failure of a table build.
type buildError struct {
	table string
	err   error
}

func (e *buildError) Error() string { return fmt.Sprintf("building %s: %v", e.table, e.err) }
func (e *buildError) Unwrap() error { return e.err }

// resolveForBuild is resolve as a build reads conversions: a table
// handed to the generator, none for bare kings.
func (s *Store) resolveForBuild(nd *tablefile.Node) (generate.Resolved, error) {
	r, err := s.resolve(nd, s.buildMax)
	if err != nil || r.t == nil {
		return generate.Resolved{}, err
	}
	return generate.Resolved{Table: r.t, Flip: r.flip}, nil
}
