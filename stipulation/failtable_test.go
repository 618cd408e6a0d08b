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
		for tab.size() < max || len(keys) < 2*max {
			before := tab.size()
			var held []uint64                                       // the keys the table holds before this add
			if tab.adds.Load() == int64(before/4) && before < max { // the next add doubles it
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
				mask := tab.cur.Load().mask
				pushed := mix(h, 3)&mask == mix(k, 3)&mask // out of its slot by the key added
				if !tab.has(h, 3) && !pushed && tab.size() > before {
					t.Fatalf("max %d: a key lost as the table grew from %d to %d slots", max, before, tab.size())
				}
			}
			if tab.has(k, 2) || !tab.has(k, 3) {
				t.Fatalf("max %d: the key just added found with other plies left, or not found", max)
			}
		}
		if tab.size() != max {
			t.Errorf("max %d: %d slots", max, tab.size())
		}
	}
}

// TestSharedFailTable: threads adding to and reading one table at once,
// while it doubles (what they add to the old slots then may be lost),
// never find a key that none added, and leave a table that grew and
// holds what is added after (run it with -race).
func TestSharedFailTable(t *testing.T) {
	tab := newFailTable(1 << 16)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(2, uint64(w)))
			for range 5000 {
				k := r.Uint64()
				tab.add(k, 5)
				tab.has(k^1, 5)
			}
		}()
	}
	wg.Wait()
	never := rand.New(rand.NewPCG(3, 0))
	for range 100000 {
		if tab.has(never.Uint64(), 5) {
			t.Fatal("a key that no thread added found")
		}
	}
	r := rand.New(rand.NewPCG(4, 0))
	keys := make([]uint64, 100)
	for i := range keys {
		keys[i] = r.Uint64()
		tab.add(keys[i], 5)
	}
	found := 0
	for _, k := range keys {
		if tab.has(k, 5) {
			found++
		}
	}
	if found < 95 || tab.size() <= minFailSlots {
		t.Errorf("%d of 100 keys added after found, %d slots", found, tab.size())
	}
}
