package dtm

import (
	"slices"
	"sync"
	"testing"

	"mateline.dev/mateline/dtm/tablefile"
)

// TestPlanOrder: a set's plan holds every table once, each after every
// table it reads, and gives back exactly the tables asked.
func TestPlanOrder(t *testing.T) {
	s := Open(t.TempDir(), Options{})
	defer s.Close()
	all := tablefile.AllUpTo(5)
	got := s.Plan(all)
	if len(got) != len(all) {
		t.Fatalf("plan gives %d tables, want %d", len(got), len(all))
	}
	at := map[string]int{}
	for i, k := range s.plan.keys {
		if _, dup := at[k]; dup {
			t.Fatalf("%s twice in the plan", k)
		}
		at[k] = i
	}
	for _, m := range all {
		i, ok := at[m.String()]
		if !ok {
			t.Fatalf("%s not in the plan", m)
		}
		for _, c := range m.Children() {
			if j, ok := at[c.String()]; !c.Bare() && (!ok || j > i) {
				t.Fatalf("%s (at %d) before its child %s (at %d)", m, i, c, j)
			}
		}
	}
	// a two-pawn table follows its one-pawn promotions closely (KRPvKQ
	// is KQvKRP)
	i := at["KRPvKP"]
	if j := at["KQvKRP"]; i-j > 10 {
		t.Fatalf("KQvKRP at %d, KRPvKP at %d", j, i)
	}
}

// TestPlanEviction: in a set build, a kept copy that no later build reads
// goes at once, and over the bound the one read last goes first; without
// a plan, the oldest goes.
func TestPlanEviction(t *testing.T) {
	mat := func(name string) tablefile.Material {
		m, _ := tablefile.ParseMaterial(name)
		c, _ := m.Canonical()
		return c
	}
	names := []string{"KQvK", "KRvK", "KBvK"}
	setup := func(s *Store, budget int) map[string]*bool {
		dropped := map[string]*bool{}
		for _, n := range names {
			d := new(bool)
			dropped[n] = d
			tb := &Table{l: tablefile.NewLayout(mat(n))}
			tb.rawc = &rawCopy{release: func() { *d = true }, kept: true}
			s.kept = append(s.kept, tb)
		}
		s.keptBytes = int64(budget) * 2 * tablefile.NewLayout(mat("KQvK")).Size
		return dropped
	}
	kept := func(s *Store) []string {
		var out []string
		for _, k := range s.kept {
			out = append(out, k.l.Mat.String())
		}
		return out
	}
	// plan: KQvK, KRvK, KBvK there; KBvKP reads KBvK first, then KQvKP
	// reads KQvK; none reads KRvK any more
	plan := &buildPlan{
		keys:  []string{"KQvK", "KRvK", "KBvK", "KBvKP", "KQvKP"},
		reads: []map[string]bool{{}, {}, {}, {"KBvK": true, "KRvK": false}, {"KQvK": true}},
		done:  map[string]bool{"KQvK": true, "KRvK": true, "KBvK": true},
	}
	s := Open(t.TempDir(), Options{})
	defer s.Close()
	dropped := setup(s, 2)
	s.plan = plan
	s.evictKept()
	if got := kept(s); !slices.Equal(got, []string{"KQvK", "KBvK"}) || !*dropped["KRvK"] {
		t.Fatalf("budget 2: kept %v, want KQvK, KBvK (KRvK read no more)", got)
	}
	s.keptBytes /= 2
	s.evictKept()
	if got := kept(s); !slices.Equal(got, []string{"KBvK"}) || !*dropped["KQvK"] {
		t.Fatalf("budget 1: kept %v, want KBvK (read first)", got)
	}
	s2 := Open(t.TempDir(), Options{})
	defer s2.Close()
	dropped = setup(s2, 1)
	s2.evictKept()
	if got := kept(s2); !slices.Equal(got, []string{"KBvK"}) || !*dropped["KQvK"] || !*dropped["KRvK"] {
		t.Fatalf("no plan, budget 1: kept %v, want the newest, KBvK", got)
	}
}

// TestPlanNoRebuild: a planned set build of format-3 tables reads every
// table it built from the copy kept, never building one again, and keeps
// no copy once the set is built.
func TestPlanNoRebuild(t *testing.T) {
	var mu sync.Mutex
	var again []string
	s := Open(t.TempDir(), Options{BuildMen: 3, Progress: func(ev BuildEvent) {
		if ev.Again && ev.Finished {
			mu.Lock()
			again = append(again, ev.Table)
			mu.Unlock()
		}
	}})
	defer s.Close()
	s.format3, s.format3Men = 2, 3
	var sigs []tablefile.Material
	for _, m := range tablefile.AllUpTo(3) {
		sigs = append(sigs, m)
	}
	p, _ := tablefile.ParseMaterial("KQvKP")
	sigs = append(sigs, p)
	for _, m := range s.Plan(sigs) {
		if _, err := s.Build(m); err != nil {
			t.Fatal(err)
		}
	}
	if len(again) > 0 {
		t.Fatalf("built again: %v", again)
	}
	s.rawMu.Lock()
	defer s.rawMu.Unlock()
	if len(s.kept) > 0 {
		t.Fatalf("%d copies kept after the set", len(s.kept))
	}
}

// TestReadLater: in a set build, a table whose values no build still to
// come reads gets no raw copy; outside one, every table may be read.
func TestReadLater(t *testing.T) {
	s := Open(t.TempDir(), Options{BuildMen: 4})
	defer s.Close()
	kqk, _ := tablefile.ParseMaterial("KQvK")
	kqkp, _ := tablefile.ParseMaterial("KQvKP")
	if !s.readLater(kqkp) {
		t.Fatal("no plan: KQvKP not read later")
	}
	order := s.Plan([]tablefile.Material{kqkp})
	if s.readLater(kqkp) {
		t.Fatal("KQvKP read later in a plan that ends with it")
	}
	if !s.readLater(kqk) {
		t.Fatal("KQvK not read later, though KQvKP reads it")
	}
	for _, k := range s.plan.keys {
		if k != "KQvK" {
			m, _ := tablefile.ParseMaterial(k)
			s.planDone(m)
		}
	}
	if s.readLater(kqk) {
		t.Fatalf("KQvK read later after every table of %v is there", order)
	}
}
