package record

import (
	"fmt"
	"strconv"
	"strings"

	"mateline.dev/mateline/board"
)

// ParseMoves reads moves in SAN or UCI, as the readers' claims give them.
// With sequence set each move is played before the next is read (a line;
// move numbers such as "1." or "1..." are skipped); otherwise all are
// alternatives in the same position.
func ParseMoves(pos *board.Position, texts []string, sequence bool) ([]board.Move, error) {
	var out []board.Move
	p := *pos
	for _, t := range texts {
		if sequence && strings.HasSuffix(t, ".") || sequence && isMoveNumber(t) {
			continue // "1." or "1..." in a SAN line
		}
		m, err := p.ParseSAN(t)
		if err != nil {
			if m2, err2 := p.ParseUCI(t); err2 == nil {
				m, err = m2, nil
			}
		}
		if err != nil {
			if sequence {
				return nil, fmt.Errorf("ply %d: %w", len(out)+1, err)
			}
			return nil, err
		}
		out = append(out, m)
		if sequence {
			p.Play(m)
		}
	}
	return out, nil
}

func isMoveNumber(s string) bool {
	s = strings.TrimRight(s, ".")
	if s == "" {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 16)
	return err == nil
}
