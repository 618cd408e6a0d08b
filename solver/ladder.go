package solver

// The proof-number search's questions before a mate within the cap is
// proved come from a ladder of rungs, asked in turn, each on a budget of
// as many nodes as every question before it (at least firstLadderBudget):
//
//   - a climbing rung per kind of mate wanted (the side to move mating, or
//     being mated), first at firstAim moves; a rung that spends its budget
//     undecided climbs to twice its aim, up to the top;
//   - with a hint (the claim), a rung at exactly the hint, first: a claim
//     is most often the shortest mate, and a proof of exactly its length
//     needs no tightening. It does not climb: a proof with no plies to
//     spare can be far dearer than one with a few (matetrack.epd line
//     6068, a mate in 18: more than 60 s at 18 moves, 0.07 s at 20), and
//     the climbing rung, asked in turn, has them.
//
// The aims are not bounded by the cap: a proof of a longer aim is read for
// the mate it shows, often within the cap. One that shows a mate beyond
// the cap is no answer; the cap itself is then asked instead of that
// kind's climbing rung. A disproof ends the rungs it covers.

// rung is one question of the ladder.
type rung struct {
	mated  bool // the side to move being mated; else it mating
	aim    int  // moves
	climbs bool // twice the aim once it spends its budget undecided
}

// ladder is the proof-number search's questions before a mate within the
// cap is proved: the first rung is being asked, the others wait their turn.
type ladder struct {
	rungs []rung
	top   int // the longest aim of a climbing rung
	cap   int // the longest mate an answer may have
}

// newLadder returns the ladder for the kinds wanted, with the hint (0 for
// none) for the first kind wanted, under cap.
func newLadder(wantMate, wantMated bool, hint, cap int) *ladder {
	l := &ladder{top: max(cap, firstAim), cap: cap}
	for _, mated := range []bool{false, true} {
		if mated && !wantMated || !mated && !wantMate {
			continue
		}
		if hint > 0 {
			l.rungs = append(l.rungs, rung{mated: mated, aim: hint})
			hint = 0
		}
		aim := min(firstAim, l.top)
		l.rungs = append(l.rungs, rung{mated: mated, aim: aim, climbs: aim < l.top})
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
		r.aim = min(2*r.aim, l.top)
		r.climbs = r.aim < l.top
	}
	l.rungs = append(l.rungs[1:], r)
	l.tidy(lbMate, lbMated, wantMate, wantMated)
	return l.current()
}

// overCap takes a proof of a mate beyond the cap for one kind: that kind's
// climbing rung, and any beyond the cap, become a rung at the cap.
func (l *ladder) overCap(mated bool, lbMate, lbMated int, wantMate, wantMated bool) {
	for i := range l.rungs {
		if r := &l.rungs[i]; r.mated == mated && (r.climbs || r.aim > l.cap) {
			r.aim, r.climbs = l.cap, false
		}
	}
	l.tidy(lbMate, lbMated, wantMate, wantMated)
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
			r.aim = min(max(2*r.aim, 2*lb), l.top)
			r.climbs = r.aim < l.top
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
