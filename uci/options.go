package uci

import (
	"fmt"
	"strconv"
	"strings"

	"mateline.dev/mateline/solver"
)

// settings are the engine's options, as set by setoption.
type settings struct {
	hash          int
	threads       int
	syzygyPath    string
	bookFile      string
	multiPV       int
	proveShortest bool
	dtmPath       string // "" for no DTM tables
	dtmBuild      int    // build missing tables of at most this many men
	dtmCache      int    // MiB of decompressed table blocks
}

// option describes one UCI option.
type option struct {
	name, kind string // kind: spin, check, string, button
	def        string
	min, max   int
	// set applies a value (already checked against kind and bounds).
	set func(e *Engine, value string) error
}

// maxMultiPV bounds MultiPV: no position has more legal moves.
const maxMultiPV = 256

// options lists the options announced by "uci", in that order.
func (e *Engine) options() []option {
	opts := []option{
		{name: "Hash", kind: "spin", def: strconv.Itoa(e.cfg.DefaultHash), min: 1, max: e.cfg.MaxHash,
			set: func(e *Engine, v string) error {
				n, _ := strconv.Atoi(v)
				if n != e.set.hash {
					e.set.hash = n
					e.solver = nil // made again, of the new size, when next needed
				}
				return nil
			}},
		{name: "Threads", kind: "spin", def: "1", min: 1, max: solver.MaxThreads,
			set: func(e *Engine, v string) error { e.set.threads, _ = strconv.Atoi(v); return nil }},
		{name: "MultiPV", kind: "spin", def: "1", min: 1, max: maxMultiPV,
			set: func(e *Engine, v string) error { e.set.multiPV, _ = strconv.Atoi(v); return nil }},
		{name: "ProveShortest", kind: "check", def: "true",
			set: func(e *Engine, v string) error { e.set.proveShortest = v == "true"; return nil }},
		{name: "SyzygyPath", kind: "string", def: "<empty>",
			set: func(e *Engine, v string) error { return e.openTables(v) }},
		{name: "BookFile", kind: "string", def: "<empty>",
			set: func(e *Engine, v string) error { return e.openBook(v) }},
		{name: "Clear Hash", kind: "button",
			set: func(e *Engine, _ string) error {
				if e.solver != nil {
					e.solver.Clear()
				}
				return nil
			}},
	}
	if e.cfg.OpenDTM != nil {
		def := e.cfg.DTMDir
		if def == "" {
			def = "<empty>"
		}
		opts = append(opts,
			option{name: "DTMPath", kind: "string", def: def,
				set: func(e *Engine, v string) error { e.set.dtmPath = v; e.dtm.close(); return nil }},
			option{name: "DTMBuild", kind: "spin", def: strconv.Itoa(defaultDTMBuild), min: 0, max: maxDTMBuild,
				set: func(e *Engine, v string) error { e.set.dtmBuild, _ = strconv.Atoi(v); e.dtm.close(); return nil }},
			option{name: "DTMCache", kind: "spin", def: strconv.Itoa(defaultDTMCache), min: 1, max: 1 << 16,
				set: func(e *Engine, v string) error { e.set.dtmCache, _ = strconv.Atoi(v); e.dtm.close(); return nil }})
	}
	return opts
}

// announce is the "option" line of o.
func (o option) announce() string {
	switch o.kind {
	case "spin":
		return fmt.Sprintf("option name %s type spin default %s min %d max %d", o.name, o.def, o.min, o.max)
	case "button":
		return fmt.Sprintf("option name %s type button", o.name)
	}
	return fmt.Sprintf("option name %s type %s default %s", o.name, o.kind, o.def)
}

// setOption applies "setoption name NAME [value VALUE]". Option names are
// matched without regard to case, as the protocol asks.
func (e *Engine) setOption(args []string) error {
	name, value, hasValue, err := parseSetOption(args)
	if err != nil {
		return err
	}
	for _, o := range e.options() {
		if !strings.EqualFold(o.name, name) {
			continue
		}
		switch o.kind {
		case "button":
			return o.set(e, "")
		case "spin":
			n, err := strconv.Atoi(value)
			if !hasValue || err != nil {
				return fmt.Errorf("option %s wants a number from %d to %d, got %q", o.name, o.min, o.max, value)
			}
			if n < o.min || n > o.max {
				return fmt.Errorf("option %s: %d is out of range %d-%d", o.name, n, o.min, o.max)
			}
			return o.set(e, strconv.Itoa(n))
		case "check":
			v := strings.ToLower(value)
			if v != "true" && v != "false" {
				return fmt.Errorf("option %s wants true or false, got %q", o.name, value)
			}
			return o.set(e, v)
		default:
			if value == "<empty>" {
				value = ""
			}
			return o.set(e, value)
		}
	}
	return fmt.Errorf("no such option: %q", name)
}
