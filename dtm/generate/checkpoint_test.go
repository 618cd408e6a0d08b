package generate

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"mateline.dev/mateline/dtm/tablefile"
)

// stopBuild is the panic a test's progress raises to stop a build where
// a kill would: nothing after it runs, the checkpoint's files stay.
type stopBuild struct{}

// buildStopped builds l with checkpoint c and its values on disk (or on
// the heap), stopped at the stopAt-th report of a ply or of a group
// finished (0: never); it returns the build (when it ended), whether it
// was stopped, and how many such reports it made.
func buildStopped(t *testing.T, m *memTables, l *tablefile.Layout, c *Checkpoint, decide, onDisk bool, dir string, stopAt int) (b Built, stopped bool, reports int) {
	t.Helper()
	progress := func(done, total int64, ply int) {
		if ply == SetUpPly {
			return // (from the workers)
		}
		reports++
		if reports == stopAt {
			panic(stopBuild{})
		}
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopBuild); !ok {
				panic(r)
			}
			stopped = true
		}
	}()
	b, err := Build(l, m.lookup, m.resolve, Options{Workers: 2, Progress: progress, Decide: decide, ValuesOnDisk: onDisk, ScratchDir: dir, Checkpoint: c})
	if err != nil {
		t.Fatal(err)
	}
	return b, false, reports
}

// builtBytes are a build's values and, with decide, its bits, as bytes.
func builtBytes(l *tablefile.Layout, b Built, decide bool) []byte {
	out := append(append([]byte(nil), b.Values[0].Bytes(l.Size)...), b.Values[1].Bytes(l.Size)...)
	if decide {
		for s := range 2 {
			for _, w := range append(append([]uint64(nil), b.Decided[s]...), b.Unused[s]...) {
				for k := range 8 {
					out = append(out, byte(w>>(8*k)))
				}
			}
		}
	}
	return out
}

// TestCheckpointResumes: a build with its values on disk, or on the
// heap, stopped at random moments (inside a group of slices, or between
// two) and built again from its checkpoint, as often as it takes, has
// the values and bits of a build never stopped, and leaves a checkpoint
// no build of another key reads.
func TestCheckpointResumes(t *testing.T) {
	m := newMemTables(t)
	rng := rand.New(rand.NewPCG(9, 10))
	for _, sig := range []string{"KPvKP", "KRPvK", "KPPvK"} {
		for _, k := range []struct{ decide, onDisk bool }{{false, true}, {true, true}, {sig != "KRPvK", false}} {
			decide, onDisk := k.decide, k.onDisk
			mat := canonicalMaterial(t, sig)
			l := tablefile.NewLayout(mat)
			ref, err := Build(l, m.lookup, m.resolve, Options{Workers: 2, Decide: decide})
			if err != nil {
				t.Fatal(err)
			}
			want := builtBytes(l, ref, decide)
			dir := t.TempDir()
			c := &Checkpoint{Prefix: filepath.Join(dir, sig+".part"), Key: sig + " test"}
			_, _, reports := buildStopped(t, m, l, &Checkpoint{Prefix: filepath.Join(dir, "count"), Key: "count"}, decide, onDisk, dir, 0)
			stops, resumed := 0, 0
			for {
				stopAt := 0
				if stops < 4 {
					stopAt = 1 + rng.IntN(reports)
				}
				before := c.GroupsDone()
				b, stopped, _ := buildStopped(t, m, l, c, decide, onDisk, dir, stopAt)
				if before > 0 {
					resumed++
				}
				if stopped {
					stops++
					continue
				}
				if got := builtBytes(l, b, decide); !bytes.Equal(got, want) {
					t.Errorf("%s decide %v on disk %v: stopped %d times, resumed %d: the values differ from a build never stopped", sig, decide, onDisk, stops, resumed)
				}
				if b.Release != nil {
					b.Release()
				}
				break
			}
			if resumed == 0 {
				t.Errorf("%s decide %v: stopped %d times, never resumed from a checkpoint", sig, decide, stops)
			}
			other := &Checkpoint{Prefix: c.Prefix, Key: "another program"}
			if other.GroupsDone() != 0 {
				t.Errorf("%s: another key reads the checkpoint of %d groups", sig, c.GroupsDone())
			}
			if len(c.Files()) == 0 {
				t.Errorf("%s: no checkpoint file after the build", sig)
			}
			c.Remove()
			if left, _ := filepath.Glob(filepath.Join(dir, sig+".part*")); len(left) > 0 || len(c.Files()) > 0 {
				t.Errorf("%s: left after Remove: %v %v", sig, left, c.Files())
			}
			t.Logf("%s decide %v on disk %v: %d reports, stopped %d times, resumed %d", sig, decide, onDisk, reports, stops, resumed)
		}
	}
}

// streamBytes reads a build's stream whole: both sides, then its flags
// when it has them.
func streamBytes(t *testing.T, l *tablefile.Layout, b Built) []byte {
	t.Helper()
	width := int64(1)
	if b.Wide {
		width = 2
	}
	var out []byte
	for s := range 2 {
		buf := make([]byte, width*l.Size)
		if err := b.Stream(s, 0, buf); err != nil {
			t.Fatal(err)
		}
		out = append(out, buf...)
	}
	if b.Flags != nil {
		for s := range 2 {
			dec, unused := make([]uint64, (l.Size+63)/64), make([]uint64, (l.Size+63)/64)
			if err := b.Flags(s, 0, dec, unused); err != nil {
				t.Fatal(err)
			}
			out = append(out, wordBytes(dec)...)
			out = append(out, wordBytes(unused)...)
		}
	}
	return out
}

// TestBoundedCheckpointResumes: a bounded build with a checkpoint saved
// after every ply, stopped at random plies and built again as often as
// it takes, gives the values (and decided bits) of a build never
// stopped, its bit sets on the heap or in files; it goes on after the
// ply its checkpoint says, and its files are all named by it.
func TestBoundedCheckpointResumes(t *testing.T) {
	m := newMemTables(t)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct {
		sig                  string
		decide, onDisk, wide bool
		k                    int // the children's mates made longer by k moves
	}{
		{"KQvKR", false, false, false, 0}, {"KRvKN", true, true, false, 0}, {"KBNvK", false, true, true, 0},
		{"KQvKR", false, false, false, 100}, // (plies with nothing found, then the conversions')
	} {
		sh := shiftedTables{m, c.k}
		mat := canonicalMaterial(t, c.sig)
		l := tablefile.NewLayout(mat)
		dir := t.TempDir()
		o := Options{Workers: 2, Bounded: true, ScratchDir: dir, Decide: c.decide, SetsOnDisk: c.onDisk, Wide: c.wide, CheckpointEvery: time.Nanosecond}
		ref, err := Build(l, sh.lookup, sh.resolve, o)
		if err != nil {
			t.Fatal(err)
		}
		want := streamBytes(t, l, ref)
		ref.Release()
		plies := 0
		o.Progress = func(done, total int64, ply int) {
			if ply > 0 {
				plies = max(plies, ply)
			}
		}
		if b, err := Build(l, sh.lookup, sh.resolve, o); err == nil {
			b.Release()
		}
		ck := &Checkpoint{Prefix: filepath.Join(dir, c.sig+".part"), Key: c.sig + " test"}
		o.Checkpoint = ck
		stops, resumed := 0, 0
		for {
			stopAt := 0
			if stops < 3 {
				stopAt = 1 + rng.IntN(plies)
			}
			from, wasThere := ck.BoundedPly()
			o.Progress = func(done, total int64, ply int) {
				if ply > 0 && ply <= from {
					t.Errorf("%s: ply %d reported, resumed after %d", c.sig, ply, from)
				}
				if ply == stopAt {
					panic(stopBuild{})
				}
			}
			b, stopped, err := buildCatching(l, sh.lookup, sh.resolve, o)
			if wasThere {
				resumed++
			}
			if stopped {
				stops++
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := streamBytes(t, l, b); !bytes.Equal(got, want) {
				t.Errorf("%s: stopped %d times, resumed %d: the values differ from a build never stopped", c.sig, stops, resumed)
			}
			b.Release()
			break
		}
		if resumed == 0 {
			t.Errorf("%s: never resumed", c.sig)
		}
		ck.Remove()
		if left, _ := filepath.Glob(filepath.Join(dir, c.sig+".part*")); len(left) > 0 {
			t.Errorf("%s: left after Remove: %v", c.sig, left)
		}
		t.Logf("%s shifted %d: %d plies, stopped %d times, resumed %d", c.sig, c.k, plies, stops, resumed)
	}
}

// TestCheckpointLostFile: a checkpoint one of whose files is lost
// starts again from the first group and forgets its count at once, so
// that a build stopped again before a group finishes does not go on
// over arrays cleared meanwhile; built to the end, the values are a
// build's never stopped.
func TestCheckpointLostFile(t *testing.T) {
	m := newMemTables(t)
	mat := canonicalMaterial(t, "KRPvK")
	l := tablefile.NewLayout(mat)
	ref, err := Build(l, m.lookup, m.resolve, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := builtBytes(l, ref, false)
	for _, onDisk := range []bool{false, true} {
		dir := t.TempDir()
		c := &Checkpoint{Prefix: filepath.Join(dir, "KRPvK.part"), Key: "lost"}
		// stopped once two groups are done (a ply report after them)
		_, stopped, _ := buildStopped(t, m, l, c, false, onDisk, dir, 150)
		if !stopped || c.GroupsDone() == 0 {
			t.Fatalf("on disk %v: stopped %v with %d groups done", onDisk, stopped, c.GroupsDone())
		}
		os.Remove(c.arrayFile("values", 1))
		if _, stopped, _ = buildStopped(t, m, l, c, false, onDisk, dir, 1); !stopped {
			t.Fatal("not stopped at the first report")
		}
		if n := c.GroupsDone(); n != 0 {
			t.Errorf("on disk %v: a file lost, stopped again at once: %d groups still counted", onDisk, n)
		}
		b, _, _ := buildStopped(t, m, l, c, false, onDisk, dir, 0)
		if got := builtBytes(l, b, false); !bytes.Equal(got, want) {
			t.Errorf("on disk %v: the values differ from a build never stopped", onDisk)
		}
		if b.Release != nil {
			b.Release()
		}
	}
}
