package proof

import (
	"fmt"
	"strings"

	"github.com/corentings/chess/v2"
)

// checker walks a certificate over the positions the chess library
// generates.
type checker struct {
	c        *certificate
	proved   map[string]int // positions proved: the fewest plies proved within
	refuted  map[string]int // positions refuted: the most plies refuted
	examined int
}

// verify checks the root, the upper bound and, when certified, the lower
// bound; it returns the first failure, or nil.
func (ck *checker) verify(root *chess.Position) *Failure {
	c := ck.c
	n := c.mate
	if n > 0 && root.Turn() != c.attacker || n < 0 && root.Turn() == c.attacker {
		return &Failure{FEN: root.String(), Problem: fmt.Sprintf("the header says %s mates in %d, but %s is to move", colorName(c.attacker), abs(n), colorName(root.Turn()))}
	}
	// The upper bound: a forced mate within |n| moves.
	if n > 0 {
		if f := ck.mates(root, 2*n-1); f != nil {
			return f
		}
	} else {
		moves := root.ValidMoves()
		if len(moves) == 0 {
			return &Failure{FEN: root.String(), Problem: "the side to move has no legal move: nothing to be mated in"}
		}
		for i := range moves {
			if f := ck.mates(root.Update(&moves[i]), -2*n-1); f != nil {
				return f
			}
		}
	}
	// The lower bound: no mate in fewer moves.
	switch c.lower {
	case "none":
		if abs(n) > 1 {
			return nil // a mate in N > 1 whose shortness the file does not claim
		}
	case "not certified", "from tables":
		return nil // the file claims no checkable lower bound
	case "certified", "depth":
		want := 2*(abs(n)-1) - 1
		if n < 0 {
			want = 2 * (abs(n) - 1)
		}
		switch {
		case c.lower == "certified" && c.lowerPlies != want:
			return &Failure{FEN: root.String(), Problem: fmt.Sprintf("the lower bound is for %d plies; a mate in %d needs %d", c.lowerPlies, abs(n), want)}
		case c.lower == "depth" && (c.lowerPlies < 1 || c.lowerPlies >= want || c.lowerPlies%2 != want%2):
			return &Failure{FEN: root.String(), Problem: fmt.Sprintf("a depth lower bound of %d plies: want fewer than %d, of the same parity", c.lowerPlies, want)}
		case c.lower == "depth":
			want = c.lowerPlies // no mate within these plies, fewer than the mate's
		}
		if n > 0 {
			if want >= 1 {
				return ck.refutes(root, want)
			}
			return nil
		}
		if want == 0 {
			return nil // not mated within 0 plies: the root has a legal move
		}
		h := c.hold
		if h == nil || h.key != key(root) || h.plies != want {
			return &Failure{FEN: root.String(), Problem: fmt.Sprintf("no hold record for the root with %d plies", want)}
		}
		m, ok := findMove(root, h.reply)
		if !ok {
			return &Failure{FEN: root.String(), Move: h.reply, Problem: "the root defence is not a legal move"}
		}
		return ck.refutes(root.Update(m), want-1)
	}
	return nil
}

// mates checks that the attacker, to move in pos, mates within plies.
func (ck *checker) mates(pos *chess.Position, plies int) *Failure {
	k := key(pos)
	if done, ok := ck.proved[k]; ok && done <= plies {
		return nil
	}
	ck.examined++
	text, ok := ck.c.nodes[k]
	if !ok {
		return &Failure{FEN: pos.String(), Problem: "no node: the certificate gives no attacker move here"}
	}
	m, ok := findMove(pos, text)
	if !ok {
		return &Failure{FEN: pos.String(), Move: text, Problem: "not a legal move"}
	}
	after := pos.Update(m)
	switch after.Status() {
	case chess.Checkmate:
		ck.proved[k] = 1
		return nil
	case chess.Stalemate:
		return &Failure{FEN: pos.String(), Move: text, Problem: "stalemates the defender: no mate"}
	}
	if plies < 3 {
		return &Failure{FEN: pos.String(), Move: text, Problem: "does not mate, and the claimed mate leaves no more moves"}
	}
	replies := after.ValidMoves()
	for i := range replies {
		if f := ck.mates(after.Update(&replies[i]), plies-2); f != nil {
			return f
		}
	}
	if done, ok := ck.proved[k]; !ok || plies < done {
		ck.proved[k] = plies
	}
	return nil
}

// refutes checks that the attacker, to move in pos, has no mate within
// plies (odd).
func (ck *checker) refutes(pos *chess.Position, plies int) *Failure {
	k := key(pos)
	if ck.refuted[k] >= plies {
		return nil
	}
	ck.examined++
	rec, haveRec := ck.c.refutes[k]
	moves := pos.ValidMoves()
	for i := range moves {
		m := &moves[i]
		after := pos.Update(m)
		uci := encode(pos, m)
		switch after.Status() {
		case chess.Checkmate:
			return &Failure{FEN: pos.String(), Move: uci, Problem: "mates: the attacker has a mate here, so the lower bound fails"}
		case chess.Stalemate:
			continue
		}
		if plies < 3 {
			continue
		}
		if !haveRec {
			return &Failure{FEN: pos.String(), Problem: fmt.Sprintf("no refute record for this position (%d plies)", plies)}
		}
		if rec.plies < plies {
			return &Failure{FEN: pos.String(), Problem: fmt.Sprintf("the refute record is for %d plies, %d are needed", rec.plies, plies)}
		}
		reply, ok := rec.replies[uci]
		if !ok {
			return &Failure{FEN: pos.String(), Move: uci, Problem: "no refuting reply is given for this attacker move"}
		}
		r, ok := findMove(after, reply)
		if !ok {
			return &Failure{FEN: after.String(), Move: reply, Problem: "the refuting reply is not a legal move"}
		}
		if f := ck.refutes(after.Update(r), plies-2); f != nil {
			return f
		}
	}
	ck.refuted[k] = plies
	return nil
}

// key is a position's certificate key: four FEN fields, the en-passant
// square only when an en-passant capture is legal.
func key(pos *chess.Position) string {
	f := strings.Fields(pos.String())
	ep := "-"
	if pos.EnPassantSquare() != chess.NoSquare {
		for _, m := range pos.ValidMoves() {
			if m.HasTag(chess.EnPassant) {
				ep = f[3]
				break
			}
		}
	}
	return f[0] + " " + f[1] + " " + f[2] + " " + ep
}

// findMove returns the legal move of pos written as uci.
func findMove(pos *chess.Position, uci string) (*chess.Move, bool) {
	moves := pos.ValidMoves()
	for i := range moves {
		if encode(pos, &moves[i]) == uci {
			return &moves[i], true
		}
	}
	return nil, false
}

func encode(pos *chess.Position, m *chess.Move) string {
	return chess.UCINotation{}.Encode(pos, m)
}

func colorName(c chess.Color) string {
	if c == chess.White {
		return "White"
	}
	return "Black"
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
