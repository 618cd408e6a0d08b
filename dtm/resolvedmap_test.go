package dtm

import "testing"

// TestResolvedMap: keys stored are found with their tables, up to half
// the slots; past that a key is not kept (and resolved each time); clear
// forgets all.
func TestResolvedMap(t *testing.T) {
	var m resolvedMap
	tables := make([]Table, resolvedSlots)
	key := func(i int) uint32 { return uint32(i)*4097 + 7 }
	for i := range resolvedSlots {
		m.store(key(i), resolved{t: &tables[i], flip: i%2 == 1})
	}
	for i := range resolvedSlots {
		r, ok := m.load(key(i))
		if want := i < resolvedSlots/2; ok != want || ok && (r.t != &tables[i] || r.flip != (i%2 == 1)) {
			t.Fatalf("key %d: %v %v", i, r, ok)
		}
	}
	m.store(key(0), resolved{}) // already there: kept as it was
	if r, _ := m.load(key(0)); r.t != &tables[0] {
		t.Fatal("a second store replaced the first")
	}
	m.clear()
	if _, ok := m.load(key(1)); ok {
		t.Fatal("found after clear")
	}
}
