package main

import (
	"fmt"
	"runtime/debug"
)

// version returns the module version and the VCS revision the binary was
// built from, as the Go build info records them ("(devel)" for a build in
// the source tree, "+dirty" for uncommitted changes).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if rev != "" && len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		return fmt.Sprintf("%s (revision %s%s)", v, rev, modified)
	}
	return v
}
