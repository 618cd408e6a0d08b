// Package shortcut names the shortcuts of the searches, the rules that
// let a search skip work and that tests switch off to compare the
// answers without them. Each search keeps its own list (Register); one
// environment variable, MATELINE_SHORTCUTS_OFF, switches names of any
// list off for the whole process (docs/developing.md), never a user
// option.
package shortcut

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
)

// OffVar is the environment variable that names the shortcuts switched
// off, comma-separated ("all": every one of every list).
const OffVar = "MATELINE_SHORTCUTS_OFF"

// List is one search's shortcuts, by name; a shortcut is its index.
type List struct {
	names []string
}

// Set is a set of a list's shortcuts (at most 64), by index.
type Set uint64

// Has reports whether s holds shortcut x.
func (s Set) Has(x int) bool { return s&(1<<x) != 0 }

var (
	registered  sync.Mutex
	allNames    []string
	warnedAbout sync.Once
)

// Register makes the list of names, and records them as known, so that
// a name of MATELINE_SHORTCUTS_OFF that no list knows is said. Packages
// register their list when they are initialized.
func Register(names ...string) *List {
	registered.Lock()
	defer registered.Unlock()
	allNames = append(allNames, names...)
	return &List{names: names}
}

// All is every shortcut of l.
func (l *List) All() Set { return Set(1)<<len(l.names) - 1 }

// Name is the name of shortcut x.
func (l *List) Name(x int) string { return l.names[x] }

// Len is the number of shortcuts of l.
func (l *List) Len() int { return len(l.names) }

// Parse reads a comma-separated list of l's names ("all": every one); a
// name l does not know is an error.
func (l *List) Parse(list string) (Set, error) {
	var s Set
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		switch i := slices.Index(l.names, name); {
		case name == "":
		case name == "all":
			s = l.All()
		case i >= 0:
			s |= 1 << i
		default:
			return s, fmt.Errorf("unknown shortcut %q (known: %s)", name, strings.Join(l.names, ", "))
		}
	}
	return s, nil
}

// Off is the shortcuts of l that MATELINE_SHORTCUTS_OFF names; names of
// other lists are theirs, and a name no list knows is said once on
// standard error.
func (l *List) Off() Set {
	var s Set
	for _, name := range strings.Split(os.Getenv(OffVar), ",") {
		name = strings.TrimSpace(name)
		if name == "all" {
			return l.All()
		}
		if i := slices.Index(l.names, name); i >= 0 {
			s |= 1 << i
		} else if name != "" && !known(name) {
			warnedAbout.Do(func() {
				fmt.Fprintf(os.Stderr, "mateline: %s: unknown shortcut %q (known: %s)\n", OffVar, name, strings.Join(allNames, ", "))
			})
		}
	}
	return s
}

// known reports whether some list holds name.
func known(name string) bool {
	registered.Lock()
	defer registered.Unlock()
	return slices.Contains(allNames, name)
}

// String names the shortcuts of s ("all", "none", or a list).
func (l *List) String(s Set) string {
	if s == l.All() {
		return "all"
	}
	var names []string
	for x := range l.names {
		if s.Has(x) {
			names = append(names, l.names[x])
		}
	}
	if names == nil {
		return "none"
	}
	return fmt.Sprint(names)
}
