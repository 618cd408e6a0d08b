package generate

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Checkpoint names the files that let a killed build with its values on
// disk (Options.ValuesOnDisk) go on after the last group of slices it
// finished: its values and bits in files Prefix+".values-0" and so on,
// kept (not unlinked) while it runs, the high bytes of the values that
// take two in Prefix+".high", and Prefix+".groups", the groups
// finished, written once the others are on disk. A build that finds
// them, made by the same Key, skips those groups; any other finds none.
type Checkpoint struct {
	// Prefix is the path the files' names start with
	Prefix string
	// Key is what made the files: the table, the build's options and the
	// program; a checkpoint of another key is not read, and is
	// overwritten
	Key string
}

// groupsFile is the file that says how many groups are finished.
func (c *Checkpoint) groupsFile() string { return c.Prefix + ".groups" }

// highFile is the file of the high bytes of the values that take two
// (a mate of more than tablefile.MaxMoves), rewritten with each group.
func (c *Checkpoint) highFile() string { return c.Prefix + ".high" }

// arrayFile is the file of one of the build's arrays: what it holds
// (values, decided, unused) and the side to move.
func (c *Checkpoint) arrayFile(what string, side int) string {
	return fmt.Sprintf("%s.%s-%d", c.Prefix, what, side)
}

// GroupsDone is how many groups of slices the checkpoint says are
// finished by a build of its key (0: none, or no checkpoint).
func (c *Checkpoint) GroupsDone() int {
	b, err := os.ReadFile(c.groupsFile())
	if err != nil {
		return 0
	}
	key, count, ok := strings.Cut(strings.TrimSuffix(string(b), "\n"), "\n")
	if !ok || key != c.Key {
		return 0
	}
	n, err := strconv.Atoi(count)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// markDone records that groups groups are finished, once the arrays'
// pages are on disk (sync): through a temporary file and a rename, so
// that a kill leaves the old count or the new one.
func (c *Checkpoint) markDone(groups int, sync func() error) error {
	if err := sync(); err != nil {
		return fmt.Errorf("checkpoint of the values: %w", err)
	}
	return writeAtomicFile(c.groupsFile(), func(w io.Writer) error {
		_, err := io.WriteString(w, c.Key+"\n"+strconv.Itoa(groups)+"\n")
		return err
	})
}

// forgetGroups removes the count of groups finished (and the high
// bytes saved with them): the build starts again from the first group,
// over files that no longer hold what the count said.
func (c *Checkpoint) forgetGroups() error {
	for _, name := range []string{c.groupsFile(), c.highFile()} {
		if err := os.Remove(name); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

// names are the paths of every file the checkpoint may have.
func (c *Checkpoint) names() []string {
	names := []string{c.groupsFile(), c.groupsFile() + ".tmp", c.highFile(), c.highFile() + ".tmp"}
	for _, what := range []string{"values", "decided", "unused"} {
		for side := range 2 {
			names = append(names, c.arrayFile(what, side))
		}
	}
	return append(names, c.boundedNames()...)
}

// Remove removes the checkpoint's files: the build is written, or it
// failed and starts again.
func (c *Checkpoint) Remove() {
	for _, name := range c.names() {
		os.Remove(name)
	}
}

// Files are the checkpoint's files that exist.
func (c *Checkpoint) Files() []string {
	var there []string
	for _, name := range c.names() {
		if _, err := os.Stat(name); err == nil {
			there = append(there, name)
		}
	}
	return there
}
