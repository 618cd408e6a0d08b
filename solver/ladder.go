package solver

// The proof-number search's questions before a mate is proved come from a
// ladder of rungs, asked in turn:
//
//   - with a hint (the claim), one rung at exactly the hint: a claim is
//     most often the shortest mate, and a proof of exactly its length
//     needs no tightening;
//   - else a rung per kind of mate wanted (the side to move mating, or
//     being mated), first at firstAim moves (or the cap, when shorter); a
//     rung that spends its budget undecided climbs to twice its aim, up to
//     the cap.
//
// A rung gets as many nodes as every question before it (at least
// firstLadderBudget), unless it is the only question left, which runs
// until it is decided. A disproof ends the rungs it covers. On 193 lines
// of matetrack.epd outside the samples, 2 s, one thread, told the claim:
// 104 proved shortest and 166 forced mates within the claim, against 101
// and 159 with the hint asked in turn with the climbing rung (the same
// run, one on each core; docs/experiments.md).

// rung is one question of the ladder.
type rung struct {
	mated  bool // the side to move being mated; else it mating
	aim    int  // moves
	climbs bool // twice the aim once it spends its budget undecided
}

// ladder is the proof-number search's questions before a mate is proved:
// the first rung is being asked, the others wait their turn.
type ladder struct {
	rungs []rung
	cap   int // the longest aim
}

// newLadder returns the ladder for the kinds wanted under cap, with the
// hint (0 for none) for the first kind wanted.
func newLadder(wantMate, wantMated bool, hint, cap int) *ladder {
	l := &ladder{cap: cap}
	for _, mated := range []bool{false, true} {
		if mated && !wantMated || !mated && !wantMate {
			continue
		}
		if hint > 0 {
			l.rungs = append(l.rungs, rung{mated: mated, aim: hint})
			hint = 0
			continue
		}
		aim := min(firstAim, cap)
		l.rungs = append(l.rungs, rung{mated: mated, aim: aim, climbs: aim < cap})
	}
	l.tidy(0, 0, wantMate, wantMated)
	return l
}

// current is the rung being asked; ok is false when none is left.
func (l *ladder) current() (r rung, ok bool) {
	if len(l.rungs) == 0 {
		return rung{}, false
	}
	return l.rungs[0], true
}

// budget is what the current rung may spend, given the nodes of every
// question so far; 0 for no bound (a single rung that no longer climbs).
func (l *ladder) budget(total uint64) uint64 {
	if len(l.rungs) == 1 && !l.rungs[0].climbs {
		return 0
	}
	return max(firstLadderBudget, total)
}

// next moves on to the next rung once the current one was disproved or
// (gaveUp) spent its budget undecided, with the lower bounds and the kinds
// still wanted; ok is false when none is left.
func (l *ladder) next(gaveUp bool, lbMate, lbMated int, wantMate, wantMated bool) (rung, bool) {
	if len(l.rungs) == 0 {
		return rung{}, false
	}
	r := l.rungs[0]
	if gaveUp && r.climbs {
		r.aim = min(2*r.aim, l.cap)
		r.climbs = r.aim < l.cap
	}
	l.rungs = append(l.rungs[1:], r)
	l.tidy(lbMate, lbMated, wantMate, wantMated)
	return l.current()
}

// tidy drops the rungs of kinds no longer wanted, those a lower bound
// covers (a climbing one climbs past it instead, when it can) and those
// that repeat another, keeping the order.
func (l *ladder) tidy(lbMate, lbMated int, wantMate, wantMated bool) {
	var kept []rung
	for _, r := range l.rungs {
		lb, wanted := lbMate, wantMate
		if r.mated {
			lb, wanted = lbMated, wantMated
		}
		for r.climbs && r.aim <= lb {
			r.aim = min(max(2*r.aim, 2*lb), l.cap)
			r.climbs = r.aim < l.cap
		}
		repeat := false
		for _, k := range kept {
			repeat = repeat || k.mated == r.mated && k.aim == r.aim
		}
		if wanted && r.aim > lb && !repeat {
			kept = append(kept, r)
		}
	}
	l.rungs = kept
}
