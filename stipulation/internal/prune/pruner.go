package prune

import (
	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// The pruning of help play is in one place: the pruner. Its policy,
// helpPolicy, says for each shortcut where it is made (at which ply,
// for which aim and ending, with which side to move); docs/problems.md
// says the same in words. The help search reads: the fail memo, the
// pruner's test of the position, the moves, the pruner's test of each
// move, the children.

// Everywhere is every square: no mating square ruled out yet.
const Everywhere = ^board.Bitboard(0)

// Ending is how a help play ends, as far as the shortcuts care.
type Ending uint8

const (
	// EndsInAim: the help side's last ply reaches the aim (h#, h=).
	EndsInAim Ending = iota
	// EndsReciprocal: a reciprocal helpmate (reci-h#), whose line with
	// its helpmate ending is a helpmate.
	EndsReciprocal
	// EndsForced: the last ply is forced play of the other side (hs#,
	// hr#): only the fail memo is made.
	EndsForced
)

// helpSpot is where a help search stands: what the policy reads.
type helpSpot struct {
	plies       int // plies left
	materMoves  int // the mating side's moves among them
	otherMoves  int // the other side's
	materToMove bool
	aim         problem.Aim
	end         Ending
}

// mater is the side that mates at pos.
func (s *helpSpot) mater(pos *board.Position) board.Color {
	if s.materToMove {
		return pos.Side()
	}
	return pos.Side().Other()
}

// byMate: the play ends in the help side's own mate or stalemate (h#,
// h=, reci-h#), where the mating-net tests hold; not hs# or hr#.
func (s helpSpot) byMate() bool { return s.end == EndsInAim || s.end == EndsReciprocal }

// tested: the net and budget tests are made (they count moves per side
// up to budgetMax).
func (s helpSpot) tested() bool { return s.byMate() && s.plies <= 2*budgetMax }

// helpstalemate: an h= before its last ply, where the movers test is made.
func (s helpSpot) helpstalemate() bool {
	return s.tested() && s.plies > 1 && s.aim == problem.Stalemate && s.end == EndsInAim
}

// policyRule is one row of the policy: a shortcut and where it is made.
type policyRule struct {
	cut     Shortcut
	where   string // in words
	applies func(helpSpot) bool
}

// helpPolicy is where each shortcut of help play is made.
var helpPolicy = [...]policyRule{
	{FailMemo, "every ply", func(helpSpot) bool { return true }},
	{FailMemoAhead, "every ply but the last", func(s helpSpot) bool { return s.plies > 1 }},
	{ChecksOnly, "the last ply of a mate", func(s helpSpot) bool { return s.plies == 1 && s.aim == problem.Checkmate }},
	{StalemateMovers, "h=, every ply but the last", helpSpot.helpstalemate},
	{StalemateDrops, "h=, every ply but the last", helpSpot.helpstalemate},
	{Budget, "h#, h=, reci-h#, every ply but the last (the last: the square the king stands on); " +
		"not in h= with the stalemated side's last two or three moves to come (or its last, the mating side to move)",
		func(s helpSpot) bool {
			if !s.tested() {
				return false
			}
			if s.helpstalemate() && s.otherMoves <= 3 && (s.materToMove || s.otherMoves >= 2) {
				return false // it refused too few of what the movers test lets through, for its cost
			}
			return true
		}},
	{MateNet, "h#, reci-h#: the last ply", func(s helpSpot) bool {
		return s.tested() && s.plies == 1 && s.aim == problem.Checkmate
	}},
	{LastMoveNet, "h#, reci-h#: two plies from the end, each move", func(s helpSpot) bool {
		return s.byMate() && s.plies == 2 && s.aim == problem.Checkmate
	}},
	{LastMoveBudget, "h#, h=: two plies from the end, each move", func(s helpSpot) bool {
		return s.end == EndsInAim && s.plies == 2
	}},
	{MaterMoveNet, "h#, reci-h#: three plies from the end, each move", func(s helpSpot) bool {
		return s.byMate() && s.plies == 3 && s.aim == problem.Checkmate
	}},
	{IdleMoves, "h#, reci-h#: four plies or more from the end, each move", func(s helpSpot) bool {
		return s.tested() && s.plies >= 4 && s.aim == problem.Checkmate
	}},
}

// Pruner is the pruning of one help search: the shortcuts it makes at
// each number of plies left (from helpPolicy and the shortcuts switched
// on), and the tests' working memory.
type Pruner struct {
	uses    []Set      // by plies left
	spots   []helpSpot // by plies left
	budget  BudgetTest
	movers  moversTest
	answers []lastAnswer // the last budget test's, reused
}

// New sets the policy of a help search of plies plies with aim
// and end, the shortcuts in on only.
func New(plies int, aim problem.Aim, end Ending, on Set) *Pruner {
	p := &Pruner{uses: make([]Set, plies+1), spots: make([]helpSpot, plies+1)}
	for n := 1; n <= plies; n++ {
		// the side of the last ply mates: mm moves of its own are left
		mm := (n + 1) / 2
		s := helpSpot{plies: n, materMoves: mm, otherMoves: n - mm, materToMove: n%2 == 1, aim: aim, end: end}
		p.spots[n] = s
		for _, r := range helpPolicy {
			if on.Has(r.cut) && r.applies(s) {
				p.uses[n] |= 1 << r.cut
			}
		}
	}
	return p
}

// Uses is every shortcut the pruner makes at some ply.
func (p *Pruner) Uses() Set {
	var all Set
	for _, u := range p.uses {
		all |= u
	}
	return all
}

// Makes reports whether the pruner makes x with plies left.
func (p *Pruner) Makes(x Shortcut, plies int) bool { return p.uses[plies].Has(x) }

// Position tests pos, with plies left, the king to be mated on a square
// of within: it returns the squares still alive (none: pos has no
// solution) and the men whose moves may lead to one (the movers test;
// every one when it is not made).
func (p *Pruner) Position(pos *board.Position, plies int, within board.Bitboard) (alive, movable board.Bitboard) {
	s := &p.spots[plies]
	mater := s.mater(pos)
	mm, dm := s.materMoves, s.otherMoves
	alive, movable = within, Everywhere
	if p.Makes(StalemateMovers, plies) {
		// (the movers test, made with the stalemated side's last one or
		// two moves to come, first: there it refuses most positions, at
		// less cost; with that side to move it also gives the men whose
		// moves may lead on: dropMoves)
		if !s.materToMove {
			movable = p.movers.movable(pos, budget(), mater, mm, dm)
			if Mutant == StalemateMovers {
				movable &^= pos.Pieces(mater.Other(), board.Pawn)
			}
			if movable == 0 {
				return 0, 0
			}
		} else if !p.movers.canStalemate(pos, budget(), mater, mm, dm) {
			return 0, 0
		}
	}
	switch {
	case plies > 1 && p.Makes(Budget, plies):
		// every square alive is asked for where the children are tested
		// on them (else the children keep within)
		alive = p.budget.SquaresLeft(pos, s.aim, mater, mm, dm, within, plies >= 3)
	case plies == 1:
		if p.Makes(Budget, plies) && !within.Has(pos.KingSquare(mater.Other())) {
			return 0, 0
		}
		// The budget test asks all the net test does and more; at the
		// last ply it is made before the move (lastMoveBudget), which
		// leaves out captures, castling and en passant: the net test
		// takes those.
		if p.Makes(MateNet, plies) && !netAllows(pos, mater, mm, dm) {
			return 0, 0
		}
	}
	return alive, movable
}

// MoveTest is the pruner's test of each move at one position.
type MoveTest struct {
	last  lastMoveNet
	lastB lastBudget
	third materMoveNet
	idle  IdleTest
	plies int
	alive board.Bitboard
	on    bool // some test is made
}

// Moves prepares in t the test of the moves from pos, with plies left
// and the squares alive, and takes out of l the moves the movers test
// refuses (movable); it returns how many it took out.
func (p *Pruner) Moves(t *MoveTest, pos *board.Position, plies int, alive, movable board.Bitboard, l *board.MoveList) int {
	s := &p.spots[plies]
	t.plies, t.alive, t.on = plies, alive, false
	t.last.on, t.lastB.on, t.third.on, t.idle.on = false, false, false, false
	if p.Makes(LastMoveNet, plies) {
		t.last = newLastMoveNet(pos)
		t.on = t.on || t.last.on
	}
	if p.Makes(LastMoveBudget, plies) {
		t.lastB = newLastBudget(pos, s.aim, p.answers)
		t.on = t.on || t.lastB.on
	}
	if p.Makes(MaterMoveNet, plies) {
		t.third = newMaterMoveNet(pos)
		t.on = t.on || t.third.on
	}
	mater := s.mater(pos)
	if p.Makes(IdleMoves, plies) {
		t.idle = NewIdleTest(&p.budget, pos, s.aim, mater, s.materMoves, s.otherMoves, alive)
		t.on = t.on || t.idle.on
	}
	if p.Makes(StalemateDrops, plies) {
		return p.dropMoves(pos, l, movable, mater, s.materMoves, s.otherMoves)
	}
	return 0
}

// Keeps reports whether a solution may follow m (false: the child's
// own test, made here, would refuse it).
func (p *Pruner) Keeps(t *MoveTest, pos *board.Position, m board.Move) bool {
	if !t.on {
		return true
	}
	switch t.plies {
	case 2:
		if !t.last.keeps(m) || !t.lastB.keeps(&p.budget, pos, m, t.alive) {
			return false
		}
	case 3:
		if !t.third.keeps(pos, m) {
			return false
		}
	}
	return t.idle.Keeps(pos, m)
}

// Done keeps the working memory of t for the next position.
func (p *Pruner) Done(t *MoveTest) {
	if t.plies == 2 && t.lastB.on {
		p.answers = t.lastB.answers
	}
}
