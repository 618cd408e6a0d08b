package dtm

import (
	"runtime/debug"
	"sync"
)

// heldLimits are the memory limits the bounded builds running in this
// process hold on the collector. debug.SetMemoryLimit is one value for
// the whole process, and builds run at once (a table's small children
// are built side by side): each build's limit holds until it lets it
// go, the lowest of those held is the one set, and the limit from before
// the first comes back when the last lets go.
var heldLimits struct {
	mu     sync.Mutex
	held   map[int]int64 // by holder
	next   int
	before int64 // the limit from before the first holder
}

// holdMemoryLimit holds the collector to limit (or to a lower limit held
// already, or set before) until the returned release is called.
func holdMemoryLimit(limit int64) (release func()) {
	h := &heldLimits
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.held) == 0 {
		h.held = map[int]int64{}
		h.before = debug.SetMemoryLimit(-1)
	}
	id := h.next
	h.next++
	h.held[id] = limit
	setLowestLimit()
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			delete(h.held, id)
			setLowestLimit()
		})
	}
}

// setLowestLimit sets the lowest of the held limits and the one from
// before them (with heldLimits.mu held).
func setLowestLimit() {
	h := &heldLimits
	lowest := h.before
	for _, l := range h.held {
		lowest = min(lowest, l)
	}
	debug.SetMemoryLimit(lowest)
}
