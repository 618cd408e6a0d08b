package puzzles

import (
	"errors"
	"time"

	"mateline.dev/mateline/solver"
)

// errLimit says the record's limits came before a part of its answer.
var errLimit = errors.New("the limit (--timeout, --nodes) came first")

// Limits are one record's limits, shared by every search that answers it:
// --timeout from the moment the record is started, --nodes over all its
// searches (the proof, the keys of a Lichess line, the author's line, the
// tree, set play, tries and the certificate). So a record comes within its
// limits, however many searches it takes. A nil *Limits has none.
type Limits struct {
	deadline time.Time // zero for none
	nodes    uint64    // 0 for none
	spent    uint64
}

// NewLimits starts a record's limits: opt's Timeout and Nodes, from now.
func NewLimits(opt solver.Options) *Limits {
	l := &Limits{nodes: opt.Nodes}
	if opt.Timeout > 0 {
		l.deadline = time.Now().Add(opt.Timeout)
	}
	return l
}

// For returns opt with what is left of the limits as its own Timeout and
// Nodes; ok is false when nothing is left (a search would not start).
func (l *Limits) For(opt solver.Options) (out solver.Options, ok bool) {
	if l == nil {
		return opt, true
	}
	opt.Timeout, opt.Nodes = 0, 0
	if !l.deadline.IsZero() {
		left := time.Until(l.deadline)
		if left <= 0 {
			return opt, false
		}
		opt.Timeout = left
	}
	if l.nodes > 0 {
		if l.spent >= l.nodes {
			return opt, false
		}
		opt.Nodes = l.nodes - l.spent
	}
	return opt, true
}

// Spend counts the nodes a search of the record took.
func (l *Limits) Spend(nodes uint64) {
	if l != nil {
		l.spent += nodes
	}
}

// Reached reports whether nothing is left of the limits.
func (l *Limits) Reached() bool {
	_, ok := l.For(solver.Options{})
	return !ok
}
