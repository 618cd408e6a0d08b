package dtm

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"mateline.dev/mateline/dtm/generate"
	"mateline.dev/mateline/dtm/tablefile"
)

// TestBoundedFit: a six-man bounded build holds its five bit sets in
// memory while they fit the bound less the margin, two of them on disk
// down to three sets' worth, and is refused below that with the memory
// it needs.
func TestBoundedFit(t *testing.T) {
	m, err := tablefile.ParsePlannedMaterial("KRNvKNN")
	if err != nil {
		t.Fatal(err)
	}
	l := tablefile.NewLayout(m)
	set := 2 * generate.BoundedSetBytes(6)
	if set != 2*1342177280 {
		t.Fatalf("a six-man set of both sides: %d bytes", set)
	}
	for _, c := range []struct {
		bound          int64
		onDisk, refuse bool
	}{
		{BuildMemoryBound, false, false},
		{boundedMargin + 5*set, false, false},
		{boundedMargin + 5*set - 1, true, false},
		{boundedMargin + 3*set, true, false},
		{boundedMargin + 3*set - 1, false, true},
	} {
		s := Open(t.TempDir(), Options{MemoryBound: c.bound})
		limit, onDisk, err := s.boundedFit(m, l, nil)
		var me *MemoryError
		switch {
		case c.refuse && (!errors.As(err, &me) || me.Need != boundedMargin+3*set || me.Bound != c.bound):
			t.Errorf("bound %d: %v, want a MemoryError", c.bound, err)
		case !c.refuse && (err != nil || onDisk != c.onDisk || limit != c.bound-boundedMargin):
			t.Errorf("bound %d: limit %d, on disk %v, %v; want on disk %v", c.bound, limit, onDisk, err, c.onDisk)
		}
		s.Close()
	}
}

// TestBoundedOnDiskFile: a bounded build held to a bound that only its
// sets on disk fit writes the file of a build in memory, byte for byte.
func TestBoundedOnDiskFile(t *testing.T) {
	m, err := tablefile.ParseMaterial("KQvKR")
	if err != nil {
		t.Fatal(err)
	}
	l := tablefile.NewLayout(m)
	ref := Open(t.TempDir(), Options{BuildMen: 4, Bounded: true})
	defer ref.Close()
	if _, err := ref.Table(m); err != nil {
		t.Fatal(err)
	}
	// the bound: the margin, the tables it reads, four sets
	var reads int64
	for _, c := range m.Children() {
		if !c.Bare() {
			c, _ = c.Canonical()
			reads += 2 * tablefile.NewLayout(c).Size
		}
	}
	s := Open(t.TempDir(), Options{BuildMen: 4, Bounded: true, MemoryBound: boundedMargin + reads + 4*2*generate.BoundedSetBytes(4)})
	defer s.Close()
	held, err := s.holdChildren(m, 4)
	if err != nil {
		t.Fatal(err)
	}
	_, onDisk, err := s.boundedFit(m, l, held)
	for _, c := range held {
		s.releaseRaw(c)
	}
	if err != nil || !onDisk {
		t.Fatalf("fit: on disk %v, %v", onDisk, err)
	}
	if _, err := s.Table(m); err != nil {
		t.Fatal(err)
	}
	want, err1 := os.ReadFile(ref.Path(m))
	got, err2 := os.ReadFile(s.Path(m))
	if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
		t.Fatalf("KQvKR with its sets on disk: %d bytes, in memory %d (%v %v)", len(got), len(want), err1, err2)
	}
}

// TestBoundedLimitThroughWrite: a bounded build holds the collector to its
// limit until its file is written, and gives the limit back after. (Its
// write of KRNvKNN, with the limit let go and GOGC at 400, passed a
// 9.5 GiB bound.)
func TestBoundedLimitThroughWrite(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	var mu sync.Mutex
	var during []int64
	s := Open(t.TempDir(), Options{BuildMen: 4, Bounded: true, Progress: func(ev BuildEvent) {
		if ev.Ply == generate.WritePly {
			mu.Lock()
			during = append(during, debug.SetMemoryLimit(-1))
			mu.Unlock()
		}
	}})
	defer s.Close()
	m, _ := tablefile.ParseMaterial("KQvKR")
	if _, err := s.Build(m); err != nil {
		t.Fatal(err)
	}
	if len(during) == 0 {
		t.Fatal("no event of a write")
	}
	for _, d := range during {
		if d >= before || d > BuildMemoryBound-boundedMargin {
			t.Fatalf("the memory limit while a file is written: %d (before the build %d)", d, before)
		}
	}
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Errorf("the memory limit after the build: %d, before %d", after, before)
	}
}

// TestHeldLimitsOverlap: builds that overlap hold the lowest of their
// limits, a build that ends first leaves the other's in place, and the
// limit from before comes back when the last ends. (A limit set and
// given back by each build alone let the first to end lift it under the
// other's write: KQvKR's small children are built at once.)
func TestHeldLimitsOverlap(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	const a, b = 3 << 40, 2 << 40
	var releaseA, releaseB func()
	type step struct {
		what string
		do   func()
		want int64
	}
	steps := []step{
		{"A holds", func() { releaseA = holdMemoryLimit(a) }, min(a, before)},
		{"B holds", func() { releaseB = holdMemoryLimit(b) }, min(b, before)},
		{"B ends", func() { releaseB() }, min(a, before)},
		{"B holds again", func() { releaseB = holdMemoryLimit(b) }, min(b, before)},
		{"A ends", func() { releaseA() }, min(b, before)},
		{"A's release again", func() { releaseA() }, min(b, before)},
		{"B ends", func() { releaseB() }, before},
	}
	for _, st := range steps {
		st.do()
		if got := debug.SetMemoryLimit(-1); got != st.want {
			t.Fatalf("%s: the limit %d, want %d", st.what, got, st.want)
		}
	}
}

// TestValuesOnDiskFile: a table with pawns built under a bound its values
// pass keeps them (and its decided bits) in scratch files, and writes
// the file of a build in memory, byte for byte, in format 2 and in
// format 3 of one side. A bound over them builds in memory.
func TestValuesOnDiskFile(t *testing.T) {
	sigs := []string{"KPvKP", "KRPvK", "KPPvK"}
	for _, format3 := range []int{0, 2} {
		ref := Open(t.TempDir(), Options{BuildMen: 4})
		small := Open(t.TempDir(), Options{BuildMen: 4, MemoryBound: boundedMargin + 1})
		for _, s := range []*Store{ref, small} {
			s.format3, s.format3Men = format3, 3
		}
		for _, sig := range sigs {
			m, err := tablefile.ParseMaterial(sig)
			if err != nil {
				t.Fatal(err)
			}
			l := tablefile.NewLayout(m)
			if ref.valuesOnDisk(l) || !small.valuesOnDisk(l) {
				t.Fatalf("%s: values on disk %v under the default bound, %v under %d bytes", sig, ref.valuesOnDisk(l), small.valuesOnDisk(l), small.memoryBound)
			}
			for _, s := range []*Store{ref, small} {
				if _, err := s.Build(m); err != nil {
					t.Fatal(err)
				}
			}
			if maps, err := os.ReadFile("/proc/self/maps"); err == nil && (bytes.Contains(maps, []byte(".mateline-scratch-")) || bytes.Contains(maps, []byte(".mldtm.part."))) {
				t.Errorf("%s: a scratch file is still mapped after the build", sig)
			}
			want, err1 := os.ReadFile(ref.Path(m))
			got, err2 := os.ReadFile(small.Path(m))
			if err1 != nil || err2 != nil || len(want) == 0 || !bytes.Equal(got, want) {
				t.Errorf("format 3 mode %d, %s with its values on disk: %d bytes, in memory %d (%v %v)", format3, sig, len(got), len(want), err1, err2)
			}
		}
		ref.Close()
		small.Close()
	}
}

// TestReadThroughFiles: a build that reads the tables it leads to
// through their files (as a six-man table with pawns reads its six-man
// promotions) writes the file of a build that holds them whole; a table
// read so must store both sides as they are (format 2), and a file of
// format 3 is refused with the command that builds it again.
func TestReadThroughFiles(t *testing.T) {
	m, err := tablefile.ParseMaterial("KRPvK")
	if err != nil {
		t.Fatal(err)
	}
	ref := Open(t.TempDir(), Options{BuildMen: 4})
	defer ref.Close()
	files := Open(t.TempDir(), Options{BuildMen: 4})
	defer files.Close()
	ref.format3, files.format3 = 0, 0
	files.throughFilesMen = 4
	for _, s := range []*Store{ref, files} {
		if _, err := s.Build(m); err != nil {
			t.Fatal(err)
		}
	}
	want, err1 := os.ReadFile(ref.Path(m))
	got, err2 := os.ReadFile(files.Path(m))
	if err1 != nil || err2 != nil || len(want) == 0 || !bytes.Equal(got, want) {
		t.Errorf("KRPvK read through files: %d bytes, held whole %d (%v %v)", len(got), len(want), err1, err2)
	}
	decides := Open(t.TempDir(), Options{BuildMen: 4})
	defer decides.Close()
	decides.format3, decides.format3Men, decides.throughFilesMen = 2, 3, 4
	if _, err := decides.Build(m); err == nil || !strings.Contains(err.Error(), "tables build KRPvK") {
		t.Errorf("KRPvK reading files of format 3: %v", err)
	}
	// a set build writes the tables read so in format 2, the others in 3
	set := Open(t.TempDir(), Options{BuildMen: 4})
	defer set.Close()
	set.format3, set.format3Men, set.throughFilesMen = 2, 3, 4
	for _, c := range set.Plan([]tablefile.Material{m}) {
		if _, err := set.Build(c); err != nil {
			t.Fatalf("the set build of KRPvK: %v", err)
		}
	}
	for sig, decided := range map[string]bool{"KQRvK": false, "KRRvK": false, "KQvK": true, "KRPvK": true} {
		c, _ := tablefile.ParseMaterial(sig)
		tab, err := set.Table(c)
		if err != nil || tab.z.Header.Decides() != decided {
			t.Errorf("%s in the set build: decided values left to the probe %v, want %v (%v)", sig, tab != nil && tab.z.Header.Decides(), decided, err)
		}
	}
}

// TestCheckpointFiles: a build of a table with pawns whose values are on
// disk leaves no checkpoint file once its table is written, and one
// whose values fit in memory removes those an earlier build left.
func TestCheckpointFiles(t *testing.T) {
	m, err := tablefile.ParseMaterial("KRPvK")
	if err != nil {
		t.Fatal(err)
	}
	small := Open(t.TempDir(), Options{BuildMen: 4, MemoryBound: boundedMargin + 1})
	defer small.Close()
	if _, err := small.Build(m); err != nil {
		t.Fatal(err)
	}
	c := small.checkpointOf(m, tablefile.NewLayout(m), false, true)
	if files := c.Files(); len(files) > 0 {
		t.Errorf("checkpoint files left after the build: %v", files)
	}
	ref := Open(t.TempDir(), Options{BuildMen: 4})
	defer ref.Close()
	var warned []string
	ref.warn = func(s string) { warned = append(warned, s) }
	left := ref.Path(m) + ".part.values-0"
	if err := os.WriteFile(left, []byte("left by a killed build"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Build(m); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); err == nil || len(warned) != 1 || !strings.Contains(warned[0], "checkpoint") {
		t.Errorf("a checkpoint left beside a table built in memory: still there %v, warned %q", err == nil, warned)
	}
}

// stopBuild is the panic a test's progress raises to stop a build where
// a kill would.
type stopBuild struct{}

// stopStoreBuild builds m in a store of dir opened with o (its tables
// of four men and more keeping a checkpoint), stopped as a kill would
// stop it at the first event stop says yes to.
func stopStoreBuild(t *testing.T, m tablefile.Material, dir string, o Options, stop func(BuildEvent) bool) {
	t.Helper()
	s := Open(dir, o)
	defer s.Close()
	s.checkpointMen, s.checkpointEvery = 4, time.Nanosecond
	s.progress = func(e BuildEvent) {
		if stop(e) {
			panic(stopBuild{})
		}
	}
	defer func() {
		if r := recover(); r == nil {
			t.Errorf("%s: not stopped", m)
		} else if _, ok := r.(stopBuild); !ok {
			panic(r)
		}
	}()
	s.Build(m)
}

// TestCheckpointInMemory: a build of a table with pawns whose values fit
// in memory, of the men that keep a checkpoint (six; lowered here),
// saves each group of slices it finishes; stopped, a new store goes on
// after the last one, says so, writes the file a build never stopped
// writes, and leaves no checkpoint file.
func TestCheckpointInMemory(t *testing.T) {
	m, want := builtFile(t, "KRPvK", Options{BuildMen: 4})
	dir := t.TempDir()
	c := generate.Checkpoint{Prefix: filepath.Join(dir, "KRPvK"+tablefile.FileSuffix+".part")}
	// stopped twice, each time once a group more is finished
	stoppedAt := int64(0)
	for range 2 {
		stopStoreBuild(t, m, dir, Options{BuildMen: 4}, func(e BuildEvent) bool {
			if e.Table == "KRPvK" && e.Ply == 0 && e.Done > stoppedAt && !e.Finished {
				stoppedAt = e.Done
				return true
			}
			return false
		})
		if len(c.Files()) == 0 {
			t.Fatalf("stopped after %d slices: no checkpoint file", stoppedAt)
		}
	}
	resumeStoreBuild(t, m, dir, Options{BuildMen: 4}, want, &c, "going on after the 2 of its 6 groups")
}

// TestCheckpointBounded: a bounded build of the men that keep a
// checkpoint (six; lowered here) stopped in its plies goes on, in a new
// store, after its set-up and the plies its checkpoint saved, says so,
// writes the file of a build never stopped, and leaves no file.
func TestCheckpointBounded(t *testing.T) {
	m, want := builtFile(t, "KQvKR", Options{BuildMen: 4, Bounded: true})
	dir := t.TempDir()
	c := generate.Checkpoint{Prefix: filepath.Join(dir, "KQvKR"+tablefile.FileSuffix+".part")}
	stopStoreBuild(t, m, dir, Options{BuildMen: 4, Bounded: true}, func(e BuildEvent) bool {
		return e.Table == "KQvKR" && e.Ply == 20
	})
	if len(c.Files()) == 0 {
		t.Fatal("stopped: no checkpoint file")
	}
	resumeStoreBuild(t, m, dir, Options{BuildMen: 4, Bounded: true}, want, &c, "going on after the set-up")
}

// builtFile builds sig's table in a store of its own opened with o and
// returns its material and its file.
func builtFile(t *testing.T, sig string, o Options) (tablefile.Material, []byte) {
	t.Helper()
	m, err := tablefile.ParseMaterial(sig)
	if err != nil {
		t.Fatal(err)
	}
	ref := Open(t.TempDir(), o)
	defer ref.Close()
	if _, err := ref.Build(m); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(ref.Path(m))
	if err != nil {
		t.Fatal(err)
	}
	return m, want
}

// resumeStoreBuild builds m in a store of dir opened with o after a
// stopped build, and checks that it says so (a warning holding said),
// writes want, and leaves none of c's files.
func resumeStoreBuild(t *testing.T, m tablefile.Material, dir string, o Options, want []byte, c *generate.Checkpoint, said string) {
	t.Helper()
	s := Open(dir, o)
	defer s.Close()
	s.checkpointMen = 4
	var warned []string
	s.warn = func(w string) { warned = append(warned, w) }
	if _, err := s.Build(m); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(s.Path(m))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s resumed: %d bytes, never stopped %d (%v)", m, len(got), len(want), err)
	}
	t.Logf("warned %q", warned)
	if len(warned) != 1 || !strings.Contains(warned[0], said) {
		t.Errorf("%s resumed, warned %q, want %q", m, warned, said)
	}
	if files := c.Files(); len(files) > 0 {
		t.Errorf("%s: checkpoint files left after the build: %v", m, files)
	}
}
