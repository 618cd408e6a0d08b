package dtm

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sync"

	"mateline.dev/mateline/dtm/generate"
	"mateline.dev/mateline/dtm/tablefile"
)

// checkpointOf is the checkpoint of a build of m that keeps one (kept:
// a table with pawns whose values are on disk, or a six-man table, a
// build of tens of minutes; generate.Checkpoint): files beside its
// table, named from it, made by this table, these options and this
// program only. It says so when it goes on from one a killed build
// left. Another build has none (nil), and removes one an earlier build
// left.
func (s *Store) checkpointOf(m tablefile.Material, l *tablefile.Layout, decide, kept bool) *generate.Checkpoint {
	c := &generate.Checkpoint{
		Prefix: s.Path(m) + ".part",
		Key:    fmt.Sprintf("%s positions %d decided %v program %s", m, l.Size, decide, programID()),
	}
	if !kept {
		if files := c.Files(); len(files) > 0 {
			c.Remove()
			s.warn(fmt.Sprintf("building %s: its values held in memory this time, with no checkpoint, the checkpoint a killed build left (%s.*) is removed", m, c.Prefix))
		}
		return nil
	}
	if n := c.GroupsDone(); n > 0 {
		s.warn(fmt.Sprintf("building %s: going on after the %d of its %d groups of slices a killed build finished (its checkpoint: %s.*)", m, n, len(l.SliceGroups()), c.Prefix))
	}
	if p, ok := c.BoundedPly(); ok && len(l.Pawns) == 0 {
		s.warn(fmt.Sprintf("building %s: going on after the set-up and ply %d a killed build reached (its checkpoint: %s.*)", m, p, c.Prefix))
	}
	return c
}

// programID names this program's executable by its SHA-256: a
// checkpoint is read only by the program that wrote it, since another
// version's generator may number or value positions otherwise. Where
// the executable cannot be read it is a random name, which no
// checkpoint matches.
var programID = sync.OnceValue(func() string {
	if exe, err := os.Executable(); err == nil {
		if f, err := os.Open(exe); err == nil {
			defer f.Close()
			h := sha256.New()
			if _, err := io.Copy(h, f); err == nil {
				return hex.EncodeToString(h.Sum(nil))
			}
		}
	}
	return "unknown-" + rand.Text()
})
