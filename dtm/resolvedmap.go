package dtm

import (
	"sync"
	"sync/atomic"
)

// resolvedSlots is the size of a resolvedMap: a power of two, more than
// twice the materials (both colourings) of up to five men.
const resolvedSlots = 1024

// resolvedMap maps a node's materialKey to its table once loaded, for the
// probes' fast path: an open-addressed table of pointers read without a
// lock and without allocation. Writers take the lock. It holds at most
// half its slots; past that, a material is resolved each time instead.
type resolvedMap struct {
	mu    sync.Mutex
	n     int
	slots [resolvedSlots]atomic.Pointer[resolvedEntry]
}

type resolvedEntry struct {
	key uint32
	r   resolved
}

func resolvedHome(key uint32) uint32 { return (key * 0x9e3779b1) >> (32 - 10) }

// load returns key's table, if stored.
func (m *resolvedMap) load(key uint32) (resolved, bool) {
	for i := resolvedHome(key); ; i = (i + 1) & (resolvedSlots - 1) {
		e := m.slots[i].Load()
		if e == nil {
			return resolved{}, false
		}
		if e.key == key {
			return e.r, true
		}
	}
}

// store keeps key's table.
func (m *resolvedMap) store(key uint32, r resolved) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.n >= resolvedSlots/2 {
		return
	}
	for i := resolvedHome(key); ; i = (i + 1) & (resolvedSlots - 1) {
		e := m.slots[i].Load()
		if e == nil {
			m.slots[i].Store(&resolvedEntry{key, r})
			m.n++
			return
		}
		if e.key == key {
			return
		}
	}
}

// clear forgets every table.
func (m *resolvedMap) clear() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.slots {
		m.slots[i].Store(nil)
	}
	m.n = 0
}
