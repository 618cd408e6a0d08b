package board_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"mateline.dev/mateline/board"
)

// hasMateInOne is the brute force NoMateInOne must agree with: some legal
// move leaves the opponent checkmated.
func hasMateInOne(pos *board.Position) bool {
	var l board.MoveList
	pos.LegalMoves(&l)
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		if child.IsCheckmate() {
			return true
		}
	}
	return false
}

func TestNoMateInOne(t *testing.T) {
	tests := []struct {
		fen  string
		want bool
	}{
		// Back-rank mate available (Re8#).
		{"6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", false},
		// The king has g7 and h7 free and a lone knight far away reaches neither.
		{"7k/8/8/8/8/8/N7/K7 w - - 0 1", true},
		// A discovered line: any knight move opens the eighth rank (mate).
		{"R2N3k/6pp/8/8/8/8/8/K7 w - - 0 1", false},
		// Castling rights make the test answer false.
		{"6k1/8/8/8/8/8/8/4K2R w K - 0 1", false},
		// Smothered mate: Nf7# with every flight blocked by black's own men.
		{"6rk/6pp/8/6N1/8/8/8/K7 w - - 0 1", false},
		// No free flight at all: nothing to rule out with.
		{"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", false},
	}
	for _, tt := range tests {
		pos, err := board.ParseFEN(tt.fen)
		if err != nil {
			t.Fatalf("%s: %v", tt.fen, err)
		}
		if got := pos.NoMateInOne(); got != tt.want {
			t.Errorf("%s: NoMateInOne() = %v, want %v", tt.fen, got, tt.want)
		}
		if pos.NoMateInOne() && hasMateInOne(&pos) {
			t.Errorf("%s: ruled out a mate in one that exists", tt.fen)
		}
	}
}

// TestNoMateInOneSound puts kings and a few men at random on the board,
// where mates in one are common, and checks that the test never rules out
// one that exists; it also makes sure that it rules out most of the rest
// of some kinds, so that a test answering false always cannot pass.
func TestNoMateInOneSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	const want = 200000
	var positions, mates, ruledOut, noMate int
	for positions < want {
		fen, ok := randomFEN(rng)
		if !ok {
			continue
		}
		pos, err := board.ParseFEN(fen)
		if err != nil {
			continue
		}
		positions++
		mate := hasMateInOne(&pos)
		if mate {
			mates++
		} else {
			noMate++
		}
		if pos.NoMateInOne() {
			ruledOut++
			if mate {
				t.Fatalf("%s: NoMateInOne is true but a mate in one exists", fen)
			}
		}
	}
	t.Logf("%d positions, %d with a mate in one; %d of the %d others ruled out statically", positions, mates, ruledOut, noMate)
	if mates < want/50 {
		t.Errorf("only %d positions with a mate in one: the sample tests little", mates)
	}
	if ruledOut < noMate/10 {
		t.Errorf("only %d of %d positions without a mate in one ruled out", ruledOut, noMate)
	}
}

// randomFEN places both kings, up to five men of the side to move and up
// to four of the other at random, with the side not to move out of check
// and no pawn on a back rank; castling and en passant stay off.
func randomFEN(rng *rand.Rand) (string, bool) {
	var sq [64]byte
	put := func(pc byte) int {
		for {
			s := rng.IntN(64)
			if sq[s] != 0 {
				continue
			}
			if (pc == 'P' || pc == 'p') && (s < 8 || s >= 56) {
				continue
			}
			sq[s] = pc
			return s
		}
	}
	white := rng.IntN(2) == 0
	put('K')
	put('k')
	attackers, defenders := "QRRBBNNPPP", "qrbnppp"
	for range 1 + rng.IntN(5) {
		put(attackers[rng.IntN(len(attackers))])
	}
	for range rng.IntN(5) {
		put(defenders[rng.IntN(len(defenders))])
	}
	if !white {
		for i, c := range sq {
			switch {
			case c >= 'A' && c <= 'Z':
				sq[i] = c + 'a' - 'A'
			case c >= 'a' && c <= 'z':
				sq[i] = c - 'a' + 'A'
			}
		}
	}
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			c := sq[r*8+f]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	side := " w - - 0 1"
	if !white {
		side = " b - - 0 1"
	}
	fen := b.String() + side
	// The side not to move must not be in check: try the other side to
	// move and see whether it is.
	other := strings.Replace(fen, side[:2], map[bool]string{true: " b", false: " w"}[white], 1)
	if p, err := board.ParseFEN(other); err != nil || p.InCheck() {
		return "", false
	}
	return fen, true
}
