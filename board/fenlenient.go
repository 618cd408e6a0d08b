package board

import (
	"errors"
	"fmt"
	"strings"
)

// ParseFENLenient reads a FEN as ParseFEN does, but drops castling rights
// and an en-passant square that the position cannot have (files in the
// wild write "KQkq" with the rooks gone), saying so in the notes it
// returns. Any other problem is the error ParseFEN gives.
func ParseFENLenient(fen string) (Position, []string, error) {
	pos, err := ParseFEN(fen)
	if err == nil {
		return pos, nil, nil
	}
	first := err
	f := strings.Fields(fen)
	if len(f) < 4 {
		return Position{}, nil, first
	}
	var notes []string
	for tries := 0; tries < 2; tries++ {
		var fe *FENError
		if !errors.As(err, &fe) {
			return Position{}, nil, first
		}
		switch fe.Kind {
		case ErrCastlingRights:
			keep := ""
			for _, r := range f[2] {
				g := append([]string(nil), f...)
				g[2], g[3] = string(r), "-"
				if _, err := ParseFEN(strings.Join(g, " ")); err == nil {
					keep += string(r)
				}
			}
			if keep == "" {
				keep = "-"
			}
			notes = append(notes, fmt.Sprintf("castling rights %q contradict the position; read as %q", f[2], keep))
			f[2] = keep
		case ErrEnPassantSquare:
			notes = append(notes, fmt.Sprintf("en-passant square %s cannot be; read as -", f[3]))
			f[3] = "-"
		default:
			return Position{}, nil, first
		}
		if pos, err = ParseFEN(strings.Join(f, " ")); err == nil {
			return pos, notes, nil
		}
	}
	return Position{}, nil, first
}
