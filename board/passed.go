package board

import "strings"

// Passed returns p with the other side to move, as if the side to move had
// passed (no en-passant right): the position a threat is read from. It is
// false when that position is not legal, as when the side to move gives
// check.
func (p *Position) Passed() (Position, bool) {
	f := strings.Fields(p.FEN())
	f[1] = p.side.Other().String()
	f[3] = "-"
	q, err := ParseFEN(strings.Join(f, " "))
	return q, err == nil
}
