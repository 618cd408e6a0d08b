package dtm

import (
	"os"
	"slices"
)

// buildPlan is the order of a set build (Store.Plan): it tells which of
// the raw copies kept for builds (keepRaw) a later build of the set
// reads, and how soon.
type buildPlan struct {
	keys  []string          // every table the set builds, children first
	reads []map[string]bool // the children each reads
	done  map[string]bool   // the tables there (built or found)
}

// Plan orders sigs for a set build so that each table comes soon after
// the tables it reads: the tables are visited children first, from the
// last of sigs (the most men and pawns, in AllUpTo's order) back, so
// that a table with pawns follows the tables its promotions read. It
// also gives the store that order: while the set is built, the raw
// copies of format-3 tables it keeps for the builds that read them are
// dropped once no later build reads them, and, over the bound, those
// read last go first (not the oldest).
func (s *Store) Plan(sigs []Material) []Material {
	want := map[string]bool{}
	for _, m := range sigs {
		c, _ := m.Canonical()
		want[c.String()] = true
	}
	p := &buildPlan{done: map[string]bool{}}
	var out []Material
	seen := map[string]bool{}
	var visit func(m Material)
	visit = func(m Material) {
		k := m.String()
		if seen[k] || m.Bare() {
			return
		}
		seen[k] = true
		reads := map[string]bool{}
		for _, c := range m.Children() {
			visit(c)
			reads[c.String()] = true
		}
		p.keys = append(p.keys, k)
		p.reads = append(p.reads, reads)
		if _, err := os.Stat(s.Path(m)); err == nil {
			p.done[k] = true // built before (a resumed set)
		}
		if want[k] {
			out = append(out, m)
		}
	}
	for _, m := range slices.Backward(sigs) {
		c, _ := m.Canonical()
		visit(c)
	}
	s.rawMu.Lock()
	s.plan = p
	s.rawMu.Unlock()
	return out
}

// nextRead is the place in the plan of the first table not yet there
// that reads key's table, or len(p.keys) if none does.
func (p *buildPlan) nextRead(key string) int {
	for i, k := range p.keys {
		if !p.done[k] && p.reads[i][key] {
			return i
		}
	}
	return len(p.keys)
}

// planDone tells the plan that m's table is there: it reads no table any
// more, and the kept copies no build still to come reads go.
func (s *Store) planDone(m Material) {
	s.rawMu.Lock()
	defer s.rawMu.Unlock()
	if s.plan != nil {
		s.plan.done[m.String()] = true
		s.evictKept()
	}
}
