package solver_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/endgame"
	"mateline.dev/mateline/internal/shortcut"
	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/solver"
)

// The sweep of the direct-mate search's shortcuts: random positions drawn
// rich in what random play seldom reaches (testpos.Rare's themes, and
// few men for the tablebases), each solved with every shortcut, with
// each one off alone and with none, and every answer checked against a
// plain minimax: the mate length, every key (AllKeys), the main line
// (legal, ending in mate, the longest defences), and the solution tree's
// defences, duals and threats.

// directSweepNodes bounds the reference's positions per case
// (MATELINE_DIRECT_SWEEP_NODES; ten times that for the long mates); a
// case that needs more is left out, and counted.
var directSweepNodes = 400_000

// directCase is one position of the sweep, drawn from its seed alone.
type directCase struct {
	seed  uint64
	kind  string // a testpos theme, or few-men, lone-knight, long
	pos   board.Position
	moves int  // the longest mate asked for
	aim   bool // the solve is told the mate's length (Options.Aim)
}

// directKinds are the kinds of position the sweep draws besides
// testpos's themes: few men (the tablebases cover them), a lone knight
// against men that can block their king (the material rule's edge), and
// long mates of few men (mate in up to five: repetitions, and the
// proof-number search's turns).
var directKinds = []string{"few-men", "lone-knight", "long", "long"}

// drawDirectCase draws the case of seed: a legal position with a legal
// move, of a rare theme or of one of directKinds.
func drawDirectCase(seed uint64) directCase {
	rng := rand.New(rand.NewPCG(seed, 56))
	themes := testpos.Themes()
	for {
		fen, c := "", directCase{seed: seed, moves: 3}
		switch k := rng.IntN(len(themes) + len(directKinds)); {
		case k < len(themes):
			fen, c.kind = testpos.Rare(rng, themes[k]), themes[k].String()
		default:
			c.kind = directKinds[k-len(themes)]
			fen = drawKind(rng, c.kind)
			if c.kind == "long" {
				c.moves = 5
			}
		}
		pos, err := board.ParseFEN(fen)
		if err == nil && pos.HasLegalMove() {
			c.pos, c.aim = pos, rng.IntN(3) == 0
			return c
		}
	}
}

// drawKind is a random position of one of directKinds, White or Black to
// move.
func drawKind(rng *rand.Rand, kind string) string {
	var placement string
	switch kind {
	case "few-men":
		placement = testpos.Placement(rng, "Kk"+pickMen(rng, "QRRBNPPqrrbnpp", 2+rng.IntN(2)))
	case "lone-knight":
		// the black king on the edge, its own men round it
		var grid [64]byte
		edge := []int{0, 7, 56, 63, 1 + rng.IntN(6), 57 + rng.IntN(6), 8 * (1 + rng.IntN(6)), 8*(1+rng.IntN(6)) + 7}
		k := edge[rng.IntN(len(edge))]
		grid[k] = 'k'
		for _, s := range testpos.Ring(k) {
			if rng.IntN(2) == 0 {
				grid[s] = "rbnq"[rng.IntN(4)]
			}
		}
		placement = testpos.PlacementOn(rng, &grid, "KN")
	default: // long
		placement = testpos.Placement(rng, "Kk"+pickMen(rng, "QRRBBNP", 1+rng.IntN(2))+pickMen(rng, "rbnp", rng.IntN(2)))
	}
	if rng.IntN(2) == 0 {
		return placement + " b - - 0 1"
	}
	return placement + " w - - 0 1"
}

// pickMen is n men drawn from the letters of from.
func pickMen(rng *rand.Rand, from string, n int) string {
	out := make([]byte, n)
	for i := range out {
		out[i] = from[rng.IntN(len(from))]
	}
	return string(out)
}

// reference is the plain minimax the sweep trusts: every legal move, no
// extension, no cut but what it already decided (a position with its
// plies left).
type reference struct {
	memo     map[refKey]bool
	nodes    int
	maxNodes int
	over     bool
}

type refKey struct {
	key   uint64
	plies int
}

func newReference(maxNodes int) *reference {
	return &reference{memo: map[refKey]bool{}, maxNodes: maxNodes}
}

// wins reports whether the side to move in p mates within plies.
func (r *reference) wins(p *board.Position, plies int) bool {
	if plies < 1 || r.over {
		return false
	}
	k := refKey{p.Key(), plies}
	if v, ok := r.memo[k]; ok {
		return v
	}
	if r.nodes++; r.nodes > r.maxNodes {
		r.over = true
		return false
	}
	var l board.MoveList
	p.LegalMoves(&l)
	v := false
	for _, m := range l.Slice() {
		c := *p
		c.Play(m)
		if r.loses(&c, plies-1) {
			v = true
			break
		}
	}
	r.memo[k] = v
	return v
}

// loses reports whether the side to move in p is mated within plies.
func (r *reference) loses(p *board.Position, plies int) bool {
	var l board.MoveList
	p.LegalMoves(&l)
	if l.N == 0 {
		return p.InCheck()
	}
	if plies < 2 || r.over {
		return false
	}
	k := refKey{p.Key(), -plies}
	if v, ok := r.memo[k]; ok {
		return v
	}
	v := true
	for _, m := range l.Slice() {
		c := *p
		c.Play(m)
		if !r.wins(&c, plies-1) {
			v = false
			break
		}
	}
	r.memo[k] = v
	return v
}

// mate is the signed shortest mate of p within most moves, 0 for none.
func (r *reference) mate(p *board.Position, most int) problem.Mate {
	for n := 1; n <= most; n++ {
		if r.wins(p, 2*n-1) {
			return problem.Mate(n)
		}
		if r.loses(p, 2*n) {
			return problem.Mate(-n)
		}
	}
	return 0
}

// matingMoves is the moves of p after which the other side is mated
// within plies, in move-generation order.
func (r *reference) matingMoves(p *board.Position, plies int) []board.Move {
	var l board.MoveList
	p.LegalMoves(&l)
	var out []board.Move
	for _, m := range l.Slice() {
		c := *p
		c.Play(m)
		if r.loses(&c, plies) {
			out = append(out, m)
		}
	}
	return out
}

// soonest is the fewest moves within most in which the side to move in p
// mates, 0 for none.
func (r *reference) soonest(p *board.Position, most int) int {
	for j := 1; j <= most; j++ {
		if r.wins(p, 2*j-1) {
			return j
		}
	}
	return 0
}

// directConfig is one way the sweep solves a case: the shortcuts off.
type directConfig struct {
	name string
	off  shortcut.Set
}

// directConfigs is every shortcut, none off, each off alone, and all off.
func directConfigs() []directConfig {
	out := []directConfig{{"all", 0}}
	for x := 0; x < solver.ShortcutCount; x++ {
		out = append(out, directConfig{"without " + solver.ShortcutName(x), 1 << x})
	}
	return append(out, directConfig{"none", 1<<solver.ShortcutCount - 1})
}

// directSweepOne checks every config of case c against the reference; it
// returns what is wrong ("" when nothing is), and whether the case was
// compared (the reference within its nodes) and its mate.
func directSweepOne(sv *solver.Solver, c directCase, prober solver.Prober) (msg string, compared bool, mate problem.Mate, limited int) {
	most := directSweepNodes
	if c.moves > 3 {
		most *= 10
	}
	ref := newReference(most)
	want := ref.mate(&c.pos, c.moves)
	if ref.over {
		return "", false, 0, 0
	}
	for _, cf := range directConfigs() {
		opt := solver.Options{MaxMate: c.moves, AllKeys: true, Fresh: true, Nodes: 2_000_000, Prober: prober}
		if c.aim && want != 0 {
			opt.Aim = want.Moves()
		}
		opt = solver.WithShortcutsOff(opt, cf.off)
		res := sv.Solve(context.Background(), c.pos, opt)
		if res.Status == solver.StatusLimit {
			limited++
			continue
		}
		fail := func(format string, a ...any) string {
			return fmt.Sprintf("seed %d: %s (%s), %s: ", c.seed, c.pos.FEN(), c.kind, cf.name) + fmt.Sprintf(format, a...)
		}
		if res.Mate != want {
			return fail("mate %d (%v), minimax %d", res.Mate, res.Status, want), true, want, limited
		}
		if want == 0 {
			continue
		}
		if res.Partial || want > 0 && !res.AllKeys {
			limited++
			continue // the node limit cut the keys or the line: the answer says so
		}
		if msg := checkAnswer(ref, c.pos, res); msg != "" {
			return fail("%s", msg), true, want, limited
		}
		tree, err := sv.Tree(context.Background(), c.pos, res, opt, res.Mate.Moves())
		if err != nil {
			limited++
			continue // a limit
		}
		if msg := checkTree(ref, c.pos, tree); msg != "" {
			return fail("tree: %s", msg), true, want, limited
		}
	}
	return "", true, want, limited
}

// checkAnswer checks res's keys and main line against the reference.
func checkAnswer(ref *reference, pos board.Position, res solver.Result) string {
	plies := res.Mate.Plies()
	if res.Mate > 0 {
		want := ref.matingMoves(&pos, plies-1)
		if !sameMoves(res.Keys, want) {
			return fmt.Sprintf("keys %v, minimax %v", ucis(res.Keys), ucis(want))
		}
	}
	if len(res.PV) != plies {
		return fmt.Sprintf("line %v, want %d plies", ucis(res.PV), plies)
	}
	winner := res.Mate.Winner(pos.Side())
	p := pos
	for i, m := range res.PV {
		if !isLegal(&p, m) {
			return fmt.Sprintf("line %v: %s is not legal", ucis(res.PV), m)
		}
		left := plies - i
		c := p
		c.Play(m)
		if p.Side() == winner && !ref.loses(&c, left-1) {
			return fmt.Sprintf("line %v: %s lets the mate go", ucis(res.PV), m)
		}
		if p.Side() != winner {
			// no defence holds out longer than the line's
			var l board.MoveList
			p.LegalMoves(&l)
			for _, d := range l.Slice() {
				a := p
				a.Play(d)
				if !ref.wins(&a, left-1) {
					return fmt.Sprintf("line %v: %s holds out longer than %s", ucis(res.PV), d, m)
				}
			}
		}
		p = c
	}
	if !p.IsCheckmate() {
		return fmt.Sprintf("line %v does not end in mate", ucis(res.PV))
	}
	return ""
}

// checkTree checks a solution tree, fully expanded, against the
// reference: every key, every defence, the answers that mate soonest
// (the duals) and the threats.
func checkTree(ref *reference, pos board.Position, t *solver.SolutionTree) string {
	if t.Mate > 0 {
		var keys []board.Move
		for _, k := range t.Keys {
			keys = append(keys, k.Move)
			if msg := checkAttackerNode(ref, pos, k, t.Mate.Moves()); msg != "" {
				return msg
			}
		}
		if want := ref.matingMoves(&pos, t.Mate.Plies()-1); !sameMoves(keys, want) {
			return fmt.Sprintf("keys %v, minimax %v", ucis(keys), ucis(want))
		}
		return ""
	}
	return checkDefences(ref, pos, t.Defences, t.Mate.Moves())
}

// checkAttackerNode checks the node of attacker move n.Move in pos, which
// mates in mateIn moves.
func checkAttackerNode(ref *reference, pos board.Position, n *solver.AttackerNode, mateIn int) string {
	if n.MateIn != mateIn {
		return fmt.Sprintf("%s mates in %d, the tree says %d", n.Move, mateIn, n.MateIn)
	}
	child := pos
	child.Play(n.Move)
	if mateIn <= 1 {
		return ""
	}
	if !child.InCheck() {
		var want *solver.Threat
		if null, ok := child.Passed(); ok {
			if j := ref.soonest(&null, mateIn-1); j > 0 {
				want = &solver.Threat{MateIn: j, Moves: ref.matingMoves(&null, 2*j-2)}
			}
		}
		switch got := n.Threat; {
		case (got == nil) != (want == nil):
			return fmt.Sprintf("after %s: threat %v, minimax %v", n.Move, threatString(got), threatString(want))
		case got != nil && (got.MateIn != want.MateIn || !sameMoves(got.Moves, want.Moves)):
			return fmt.Sprintf("after %s: threat %v, minimax %v", n.Move, threatString(got), threatString(want))
		case n.Zugzwang != (want == nil):
			return fmt.Sprintf("after %s: zugzwang %v, minimax threat %v", n.Move, n.Zugzwang, threatString(want))
		}
	}
	return checkDefences(ref, child, n.Defences, mateIn-1)
}

// checkDefences checks that ds is every defence in pos, each with the
// attacker's soonest mates within left moves.
func checkDefences(ref *reference, pos board.Position, ds []*solver.DefenceNode, left int) string {
	var l board.MoveList
	pos.LegalMoves(&l)
	var moves []board.Move
	for _, d := range ds {
		moves = append(moves, d.Move)
		after := pos
		after.Play(d.Move)
		j := ref.soonest(&after, left)
		want := ref.matingMoves(&after, 2*j-2)
		var got []board.Move
		for _, a := range d.Answers {
			got = append(got, a.Move)
		}
		if j == 0 || !sameMoves(got, want) {
			return fmt.Sprintf("after %s: answers %v, minimax %v in %d", d.Move, ucis(got), ucis(want), j)
		}
		if msg := checkAttackerNode(ref, after, d.Answers[0], j); msg != "" {
			return msg
		}
	}
	if !sameMoves(moves, l.Slice()) {
		return fmt.Sprintf("defences %v, legal %v", ucis(moves), ucis(l.Slice()))
	}
	return ""
}

func threatString(t *solver.Threat) string {
	if t == nil {
		return "none"
	}
	return fmt.Sprintf("%v in %d", ucis(t.Moves), t.MateIn)
}

// sameMoves reports whether a and b hold the same moves, in any order.
func sameMoves(a, b []board.Move) bool {
	x, y := ucis(a), ucis(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

func ucis(ms []board.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.UCI()
	}
	return out
}

func isLegal(p *board.Position, m board.Move) bool {
	var l board.MoveList
	p.LegalMoves(&l)
	return slices.Contains(l.Slice(), m)
}

// directStats counts a sweep.
type directStats struct {
	compared, skipped atomic.Int64
	limited           atomic.Int64 // solves a node limit cut
	mu                sync.Mutex
	byMate            map[problem.Mate]int
	byKind            map[string]int
}

// directSweep runs cases first..first+n-1 over the cores; each failure
// goes to fail, and the first stops it when stopAtFirst.
func directSweep(first, n uint64, prober solver.Prober, stopAtFirst bool, fail func(string)) *directStats {
	st := &directStats{byMate: map[problem.Mate]int{}, byKind: map[string]int{}}
	var next atomic.Uint64
	next.Store(first)
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sv := solver.New(1) // Fresh: each solve as if its tables were empty
			for !stop.Load() {
				seed := next.Add(1) - 1
				if seed >= first+n {
					return
				}
				c := drawDirectCase(seed)
				msg, ok, mate, limited := directSweepOne(sv, c, prober)
				st.limited.Add(int64(limited))
				if !ok {
					st.skipped.Add(1)
					continue
				}
				st.compared.Add(1)
				st.mu.Lock()
				st.byMate[mate]++
				st.byKind[c.kind]++
				if msg != "" {
					fail(msg)
					if stopAtFirst {
						stop.Store(true)
					}
				}
				st.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return st
}

// sweepProber is the Syzygy tables of MATELINE_DATA, or nil without them.
func sweepProber(t *testing.T) solver.Prober {
	dir := os.Getenv("MATELINE_DATA")
	if dir == "" {
		t.Log("MATELINE_DATA is not set: the tablebases shortcut is not swept")
		return nil
	}
	tb, err := endgame.Open(dir + "/syzygy")
	if err != nil {
		t.Logf("no Syzygy tables (%v): the tablebases shortcut is not swept", err)
		return nil
	}
	return endgame.Prober{TB: tb}
}

// TestDirectShortcutsSound sweeps the direct-mate search's shortcuts
// against the plain minimax (MATELINE_DIRECT_SWEEP_FIRST and
// MATELINE_DIRECT_SWEEP_CASES choose the seeds; a failure names its
// seed, so that it can be replayed).
func TestDirectShortcutsSound(t *testing.T) {
	first := testpos.EnvCount(t, "MATELINE_DIRECT_SWEEP_FIRST", 1)
	n := testpos.EnvCount(t, "MATELINE_DIRECT_SWEEP_CASES", 300)
	directSweepNodes = int(testpos.EnvCount(t, "MATELINE_DIRECT_SWEEP_NODES", uint64(directSweepNodes)))
	if testing.Short() {
		n = min(n, 60)
	}
	st := directSweep(first, n, sweepProber(t), false, func(msg string) { t.Error(msg) })
	t.Logf("seeds %d-%d: %d compared (by mate %v; by kind %v), %d over the reference's limit, %d solves of %d cut by their node limit",
		first, first+n-1, st.compared.Load(), st.byMate, st.byKind, st.skipped.Load(), st.limited.Load(), st.compared.Load()*int64(len(directConfigs())))
	if st.compared.Load() < int64(n)/2 {
		t.Errorf("only %d of %d cases compared", st.compared.Load(), n)
	}
}
