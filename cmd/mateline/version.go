package main

import (
	"runtime/debug"
)

// buildInfo returns the module version and the VCS revision the binary was
// built from, as the Go build info records them ("(devel)" for a build in
// the source tree; the revision shortened, "+dirty" for uncommitted
// changes, "" when none was recorded).
func buildInfo() (v, rev string) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown", ""
	}
	v = info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var modified string
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
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		rev += modified
	}
	return v, rev
}

// version names the build for --version and reports: the module version
// and the commit, or says that no commit was recorded.
func version() string {
	v, rev := buildInfo()
	if rev != "" {
		return v + " (revision " + rev + ")"
	}
	// Go records the commit when it builds in a git clone, unless told
	// not to (GOFLAGS=-buildvcs=false).
	return v + " (no commit recorded: build it in a git clone with 'go build -buildvcs=true ./cmd/mateline')"
}

// shortVersion names the build in a line: UCI's "id name".
func shortVersion() string {
	v, rev := buildInfo()
	if rev != "" {
		return v + " " + rev
	}
	return v
}
