package stipulation

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestFailTableGrowsKeepingEntries: a table that doubles keeps every
// entry it held (it used to empty itself at each doubling, and a long
// helpmate searched twice as many positions for it), and stops at its
// maximum.
func TestFailTableGrowsKeepingEntries(t *testing.T) {
	for _, max := range []int{minFailSlots, 1 << 14, 1 << 17} {
		tab := newFailTable(max)
		r := rand.New(rand.NewPCG(1, uint64(max)))
		var keys []uint64
		for len(tab.slots) < max || len(keys) < 2*max {
			before := len(tab.slots)
			var held []uint64                         // the keys the table holds before this add
			if tab.adds == before/4 && before < max { // the next add doubles it
				for _, k := range keys {
					if tab.has(k, 3) {
						held = append(held, k)
					}
				}
			}
			k := r.Uint64()
			keys = append(keys, k)
			tab.add(k, 3)
			for _, h := range held {
				pushed := mix(h, 3)&tab.mask == mix(k, 3)&tab.mask // out of its slot by the key added
				if !tab.has(h, 3) && !pushed && len(tab.slots) > before {
					t.Fatalf("max %d: a key lost as the table grew from %d to %d slots", max, before, len(tab.slots))
				}
			}
			if tab.has(k, 2) || !tab.has(k, 3) {
				t.Fatalf("max %d: the key just added found with other plies left, or not found", max)
			}
		}
		if len(tab.slots) != max {
			t.Errorf("max %d: %d slots", max, len(tab.slots))
		}
	}
}

// TestSharedFailTable: threads adding and reading one shared table at
// once find every key that no later key pushed out of its slot, and
// never one that was not added (run it with -race).
func TestSharedFailTable(t *testing.T) {
	tab := newSharedFailTable(1 << 16)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(2, uint64(w)))
			for range 2000 {
				k := r.Uint64()
				tab.add(k, 5)
				tab.has(k^1, 5)
			}
		}()
	}
	wg.Wait()
	r := rand.New(rand.NewPCG(2, 0))
	found := 0
	for range 2000 {
		if tab.has(r.Uint64(), 5) {
			found++
		}
	}
	if found < 1800 || len(tab.slots) != 1<<16 {
		t.Errorf("%d of a thread's 2,000 keys found, %d slots", found, len(tab.slots))
	}
}
