package generate

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"
	"unsafe"
)

// A bounded build (a pawnless six-man table) with a Checkpoint keeps its
// two scratch files under the checkpoint's names (Prefix+".events",
// Prefix+".values") instead of unlinking them, and every
// BoundedCheckpointEvery (from its start), between two plies, it writes its bit
// sets (open, done, blocked and the last ply's frontier, both sides) to
// Prefix+".sets", through a temporary file and a rename, then
// Prefix+".bounded": the ply reached and what the scratch files held
// then. A build that finds both, of its key and of one generation, goes
// on after that ply: the values file cut back to what it held, the sets
// read back.

// BoundedCheckpointEvery is the least time from a bounded build's start
// to its first checkpoint, and between two (Options.CheckpointEvery
// may lower it): a six-man build's sets take some 40 s to write and
// sync.
const BoundedCheckpointEvery = 15 * time.Minute

// boundedState is what Prefix+".bounded" holds.
type boundedState struct {
	Key        string
	Generation int64
	Ply        int // the last ply committed
	Pending    int
	LastPly    int
	Events     spillState
	Values     spillState
}

// spillState is a spill's file as a checkpoint found it: its size and
// each bucket's chunks (every record was written out).
type spillState struct {
	Size   int64
	Chunks map[int][][2]int64
}

// boundedFile is the checkpoint's file of a bounded build named what.
func (c *Checkpoint) boundedFile(what string) string { return c.Prefix + "." + what }

// boundedNames are the files of a bounded build's checkpoint.
func (c *Checkpoint) boundedNames() []string {
	var names []string
	for _, what := range []string{"bounded", "sets", "events", "values"} {
		names = append(names, c.boundedFile(what), c.boundedFile(what)+".tmp")
	}
	return names
}

// BoundedPly is the ply after which a bounded build goes on from the
// checkpoint (false: none of its key).
func (c *Checkpoint) BoundedPly() (int, bool) {
	st, err := c.loadBounded()
	if err != nil {
		return 0, false
	}
	return st.Ply, true
}

// loadBounded reads the checkpoint's state, of its key.
func (c *Checkpoint) loadBounded() (boundedState, error) {
	var st boundedState
	b, err := os.ReadFile(c.boundedFile("bounded"))
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("%s: %w", c.boundedFile("bounded"), err)
	}
	if st.Key != c.Key {
		return st, fmt.Errorf("%s: another build's", c.boundedFile("bounded"))
	}
	return st, nil
}

// namedSpill creates the spill of a checkpoint's file, empty.
func namedSpill(path string) (*spill, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("checkpoint file: %w", err)
	}
	return &spill{f: f, buf: map[int][]byte{}, chunks: map[int][][2]int64{}}, nil
}

// reopenSpill opens a checkpoint's spill file as st found it: anything
// written after is cut off.
func reopenSpill(path string, st spillState) (*spill, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || fi.Size() < st.Size {
		f.Close()
		return nil, fmt.Errorf("%s: shorter than its checkpoint says", path)
	}
	if err := f.Truncate(st.Size); err != nil {
		f.Close()
		return nil, err
	}
	chunks := st.Chunks
	if chunks == nil {
		chunks = map[int][][2]int64{}
	}
	return &spill{f: f, size: st.Size, buf: map[int][]byte{}, chunks: chunks}, nil
}

// state is the spill's file as it is, once every record is written out
// and synced.
func (s *spill) state() (spillState, error) {
	if err := s.flushAll(); err != nil {
		return spillState{}, err
	}
	if err := s.f.Sync(); err != nil {
		return spillState{}, err
	}
	chunks := make(map[int][][2]int64, len(s.chunks))
	for b, c := range s.chunks {
		chunks[b] = append([][2]int64(nil), c...)
	}
	return spillState{Size: s.size, Chunks: chunks}, nil
}

// boundedSets are the bit sets a checkpoint of g keeps, in their order
// in its file.
func (g *boundedGen) boundedSets() [][]uint64 {
	var sets [][]uint64
	for s := range 2 {
		sets = append(sets, g.open[s], g.done[s], g.blocked[s], g.fresh[s].w, g.fresh[s].sum)
	}
	return sets
}

// wordBytes is the memory of words as bytes.
func wordBytes(w []uint64) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w))
}

// saveBounded writes the checkpoint of g after ply p: its sets, then its
// state (one generation more).
func (g *boundedGen) saveBounded(p int) error {
	c := g.checkpoint
	events, err := g.events.state()
	if err != nil {
		return err
	}
	values, err := g.values.state()
	if err != nil {
		return err
	}
	g.generation++
	err = writeAtomicFile(c.boundedFile("sets"), func(w io.Writer) error {
		var head [8]uint64
		head[0] = uint64(g.generation)
		if _, err := w.Write(wordBytes(head[:])); err != nil {
			return err
		}
		for _, set := range g.boundedSets() {
			if _, err := w.Write(wordBytes(set)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("checkpoint of a bounded build: %w", err)
	}
	st := boundedState{Key: c.Key, Generation: g.generation, Ply: p, Pending: g.pending, LastPly: g.lastPly, Events: events, Values: values}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return writeAtomicFile(c.boundedFile("bounded"), func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// resumeBounded takes up the checkpoint a killed build of g left: its
// scratch files, sets and ply. It returns the ply to go on after, or
// false when there is none to take up (the checkpoint's files are then
// removed).
func (g *boundedGen) resumeBounded() (int, bool) {
	c := g.checkpoint
	st, err := c.loadBounded()
	if err == nil {
		err = g.readSets(st.Generation)
	}
	if err == nil {
		g.events, err = reopenSpill(c.boundedFile("events"), st.Events)
	}
	if err == nil {
		g.values, err = reopenSpill(c.boundedFile("values"), st.Values)
	}
	if err != nil {
		if g.events != nil {
			g.events.close()
			g.events = nil
		}
		c.Remove()
		return 0, false
	}
	g.generation, g.pending, g.lastPly = st.Generation, st.Pending, st.LastPly
	return st.Ply, true
}

// readSets reads the sets of generation gen back into g's.
func (g *boundedGen) readSets(gen int64) error {
	f, err := os.Open(g.checkpoint.boundedFile("sets"))
	if err != nil {
		return err
	}
	defer f.Close()
	var head [8]uint64
	if _, err := io.ReadFull(f, wordBytes(head[:])); err != nil {
		return err
	}
	if int64(head[0]) != gen {
		return fmt.Errorf("the sets of generation %d, not %d", head[0], gen)
	}
	for _, set := range g.boundedSets() {
		if _, err := io.ReadFull(f, wordBytes(set)); err != nil {
			return err
		}
	}
	return nil
}

// writeAtomicFile writes path through a temporary file, synced and
// renamed into place.
func writeAtomicFile(path string, write func(w io.Writer) error) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}
