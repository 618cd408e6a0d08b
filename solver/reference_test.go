package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/corentings/chess/v2"

	"mateline.dev/mateline/board"
)

// refWins is a plain minimax with no table, ordering or extension: can the
// side to move force mate within plies (odd)?
func refWins(p *board.Position, plies int) bool {
	if plies < 1 {
		return false
	}
	var l board.MoveList
	p.LegalMoves(&l)
	for _, m := range l.Slice() {
		c := *p
		c.Play(m)
		if refLoses(&c, plies-1) {
			return true
		}
	}
	return false
}

// refLoses: is the side to move mated within plies (even)?
func refLoses(p *board.Position, plies int) bool {
	var l board.MoveList
	p.LegalMoves(&l)
	if l.N == 0 {
		return p.InCheck()
	}
	if plies < 2 {
		return false
	}
	for _, m := range l.Slice() {
		c := *p
		c.Play(m)
		if !refWins(&c, plies-1) {
			return false
		}
	}
	return true
}

// refMate returns the signed mate length within maxN moves, 0 for none.
func refMate(p *board.Position, maxN int) int {
	for n := 1; n <= maxN; n++ {
		if refWins(p, 2*n-1) {
			return n
		}
		if refLoses(p, 2*n) {
			return -n
		}
	}
	return 0
}

// randomPosition places both kings and a few random pieces.
func randomPosition(rng *rand.Rand) (board.Position, bool) {
	var squares [64]byte
	for i := range squares {
		squares[i] = ' '
	}
	place := func(c byte) {
		for {
			s := rng.IntN(64)
			if squares[s] != ' ' || (c == 'P' || c == 'p') && (s < 8 || s >= 56) {
				continue
			}
			squares[s] = c
			return
		}
	}
	place('K')
	place('k')
	const kinds = "QRRBNNPPP"
	for n := 1 + rng.IntN(5); n > 0; n-- {
		c := kinds[rng.IntN(len(kinds))]
		if rng.IntN(3) == 0 {
			c += 'a' - 'A'
		}
		place(c)
	}
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			c := squares[r*8+f]
			if c == ' ' {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&b, empty)
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			fmt.Fprint(&b, empty)
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	side := " w"
	if rng.IntN(2) == 0 {
		side = " b"
	}
	p, err := board.ParseFEN(b.String() + side + " - - 0 1")
	if err != nil || !p.HasLegalMove() {
		return p, false
	}
	return p, true
}

// TestAgainstMinimax compares the solver with the plain minimax on random
// positions, up to mate in 2, and replays every line with the oracle.
func TestAgainstMinimax(t *testing.T) {
	// Random placements seldom hold a mate, so every mate is kept and the
	// positions without one are capped: at least 200 of each kind.
	const wantMates, wantOthers = 200, 300
	rng := rand.New(rand.NewPCG(7, 11))
	sv := New(16)
	counts := map[int]int{}
	mates, others := 0, 0
	for tries := 0; (mates < wantMates || others < wantOthers) && tries < 200000; tries++ {
		pos, ok := randomPosition(rng)
		if !ok {
			continue
		}
		ref := refMate(&pos, 2)
		if ref == 0 && others >= wantOthers || ref != 0 && mates >= wantMates {
			continue
		}
		if ref == 0 {
			others++
		} else {
			mates++
		}
		res := sv.Solve(context.Background(), pos, Options{MaxMate: 2, AllKeys: true})
		counts[ref]++
		if int(res.Mate) != ref {
			t.Fatalf("%s: solver %v mate %d, minimax %d", pos.FEN(), res.Status, res.Mate, ref)
		}
		if ref == 0 {
			if res.Status != StatusCapped && res.Status != StatusNoMate {
				t.Fatalf("%s: status %v, want capped or no-mate", pos.FEN(), res.Status)
			}
			continue
		}
		checkKeysByMinimax(t, pos, res)
		replayWithOracle(t, pos, res)
	}
	t.Logf("positions by mate length (0 = none within 2): %v", counts)
	if mates < wantMates || others < wantOthers || counts[1] < 20 || counts[2] < 20 || counts[-1] < 20 || counts[-2] < 5 {
		t.Errorf("the sample is too thin to mean much: %v", counts)
	}
}

// checkKeysByMinimax checks that the keys are exactly the moves the
// minimax finds, for a mate (not a mated position).
func checkKeysByMinimax(t *testing.T, pos board.Position, res Result) {
	t.Helper()
	if res.Mate < 0 {
		return
	}
	var l board.MoveList
	pos.LegalMoves(&l)
	var want []string
	for _, m := range l.Slice() {
		c := pos
		c.Play(m)
		if refLoses(&c, res.Mate.Plies()-1) {
			want = append(want, m.UCI())
		}
	}
	got := ucis(res.Keys)
	if fmt.Sprint(sorted(got)) != fmt.Sprint(sorted(want)) {
		t.Fatalf("%s: keys %v, minimax %v", pos.FEN(), got, want)
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// replayWithOracle plays the main line in the independent chess library:
// it must be legal there and end in checkmate after exactly the reported
// number of plies; and every defence in it must hold out longest.
func replayWithOracle(t *testing.T, pos board.Position, res Result) {
	t.Helper()
	opt, err := chess.FEN(pos.FEN())
	if err != nil {
		t.Fatalf("oracle rejects %s: %v", pos.FEN(), err)
	}
	game := chess.NewGame(opt)
	plies := res.Mate.Plies()
	if len(res.PV) != plies {
		t.Fatalf("%s: line %v, want %d plies", pos.FEN(), ucis(res.PV), plies)
	}
	winner := res.Mate.Winner(pos.Side())
	p := pos
	for i, m := range res.PV {
		if err := game.PushNotationMove(m.UCI(), chess.UCINotation{}, nil); err != nil {
			t.Fatalf("%s: oracle rejects %s in line %v: %v", pos.FEN(), m, ucis(res.PV), err)
		}
		if p.Side() != winner {
			checkLongestDefence(t, p, m, plies-i)
		}
		p.Play(m)
	}
	if game.Method() != chess.Checkmate {
		t.Fatalf("%s: oracle says line %v ends in %v, not checkmate", pos.FEN(), ucis(res.PV), game.Method())
	}
}

// checkLongestDefence checks, with the minimax, that no reply of the
// defender in p holds out longer than the chosen one, which leaves the
// winner left-1 plies.
func checkLongestDefence(t *testing.T, p board.Position, chosen board.Move, left int) {
	t.Helper()
	var l board.MoveList
	p.LegalMoves(&l)
	for _, m := range l.Slice() {
		c := p
		c.Play(m)
		if !refWins(&c, left-1) {
			t.Fatalf("%s: defence %s survives %d plies, longer than the line's %s", p.FEN(), m, left-1, chosen)
		}
	}
}
