package uci

import (
	"io"

	"mateline.dev/mateline/solver"
)

// defaultDTMBuild is DTMBuild's default: tables of up to four men are
// built on first use (a few seconds each, once per cache); five-man
// tables take minutes and are built ahead of time ('mateline tables
// build'), then read.
const defaultDTMBuild = 4

// defaultDTMCache is DTMCache's default, in MiB: the decompressed table
// blocks kept for probes.
const defaultDTMCache = 256

// maxDTMBuild is the most men a table holds: six, the pawnless tables
// of six men (tens of minutes each to build; never by default).
const maxDTMBuild = 6

// dtmTables are the distance-to-mate tables of the DTMPath directory,
// opened when a search first needs them.
type dtmTables struct {
	opened       bool
	root, search solver.DTM
	closer       io.Closer
}

func (d *dtmTables) close() {
	if d.closer != nil {
		d.closer.Close()
	}
	*d = dtmTables{}
}

// openDTM returns the tables for the next search (nil, nil when DTMPath
// is empty or the tables cannot be opened, which an info string says).
func (e *Engine) openDTM() (root, search solver.DTM) {
	if e.cfg.OpenDTM == nil || e.set.dtmPath == "" {
		return nil, nil
	}
	if !e.dtm.opened {
		e.dtm.opened = true
		r, s, c, err := e.cfg.OpenDTM(e.set.dtmPath, e.set.dtmBuild, e.set.dtmCache, func(msg string) { e.info("%s", msg) })
		if err != nil {
			e.info("DTMPath %s: %v; searching without DTM tables", e.set.dtmPath, err)
			return nil, nil
		}
		e.dtm.root, e.dtm.search, e.dtm.closer = r, s, c
	}
	return e.dtm.root, e.dtm.search
}
