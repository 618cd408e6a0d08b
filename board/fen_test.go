package board

import (
	"errors"
	"strings"
	"testing"
)

func TestParseFENErrors(t *testing.T) {
	cases := []struct {
		name string
		fen  string
		want FENErrorKind
	}{
		{"non-ASCII", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 \xc3\xa9", ErrNonASCII},
		{"five fields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", ErrFieldCount},
		{"three fields", "8/8/8/8/8/8/8/8 w -", ErrFieldCount},
		{"empty", "", ErrFieldCount},
		{"bad letter", "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ErrPieceLetter},
		{"seven ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ErrRankCount},
		{"nine ranks", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ErrRankCount},
		{"short rank", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ErrRankLength},
		{"long rank", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ErrRankLength},
		{"long rank pieces", "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ErrRankLength},
		{"side", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", ErrSideToMove},
		{"castling letters", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", ErrCastlingField},
		{"ep field", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", ErrEnPassantField},
		{"clock", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", ErrClock},
		{"no white king", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", ErrKingCount},
		{"two black kings", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"[:0] + "k6k/8/8/8/8/8/8/4K3 w - - 0 1", ErrKingCount},
		{"pawn on rank 8", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", ErrPawnOnBackRank},
		{"pawn on rank 1", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", ErrPawnOnBackRank},
		{"17 pieces", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"[:0] + "4k3/8/8/8/8/NNNNNNNN/NNNNNNNN/4K3 w - - 0 1", ErrTooManyPieces},
		{"9 pawns", "4k3/8/8/8/7P/8/PPPPPPPP/4K3 w - - 0 1", ErrTooManyPawns},
		{"opponent in check", "4k3/8/8/8/8/8/8/4K2r b - - 0 1", ErrOpponentInCheck},
		{"white to move, black in check", "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", ErrOpponentInCheck},
		{"castling no rook", "4k3/8/8/8/8/8/8/4K3 w K - 0 1", ErrCastlingRights},
		{"castling king moved", "r3k2r/8/8/8/8/8/8/R4K1R w Q - 0 1", ErrCastlingRights},
		{"ep no pawn", "4k3/8/8/8/8/8/8/4K3 w - e6 0 1", ErrEnPassantSquare},
		{"ep wrong rank", "4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1", ErrEnPassantSquare},
		{"ep origin occupied", "4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1", ErrEnPassantSquare},
		{"triple check", "4k3/8/3N1N2/8/8/8/8/4R1K1 b - - 0 1", ErrTooManyCheckers},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseFEN(tc.fen)
			var fe *FENError
			if !errors.As(err, &fe) {
				t.Fatalf("ParseFEN(%q) = %v, want a *FENError", tc.fen, err)
			}
			if fe.Kind != tc.want {
				t.Errorf("ParseFEN(%q): %v, want kind %q", tc.fen, err, tc.want)
			}
		})
	}
}

func TestParseFENAccepts(t *testing.T) {
	for _, fen := range []string{
		StartFEN,
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",          // EPD-style four fields
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", // useless but possible ep square
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", // capturable ep square
		"8/8/8/8/8/8/8/K1k5 w - - 0 1",
		"4k3/8/8/8/8/8/8/4K3 b - - 99 0",
	} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", fen, err)
			continue
		}
		if p.Key() != p.ComputeKey() {
			t.Errorf("%q: key not initialised", fen)
		}
	}
}

func TestUselessEnPassantKeepsKey(t *testing.T) {
	a, _ := ParseFEN("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2")
	b, _ := ParseFEN("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	c, _ := ParseFEN("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	d, _ := ParseFEN("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
	if a.Key() != b.Key() {
		t.Error("an en-passant square no pawn can use changed the key")
	}
	if c.Key() == d.Key() {
		t.Error("a capturable en-passant square did not change the key")
	}
}

func TestStatus(t *testing.T) {
	cases := []struct {
		fen                            string
		check, mate, stalemate, insuff bool
	}{
		{StartFEN, false, false, false, false},
		{"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", true, true, false, false},
		{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false, false, true, false},
		{"8/8/8/8/8/8/8/K1k5 w - - 0 1", false, false, false, true},
		{"8/8/8/8/8/8/8/KBk5 w - - 0 1", false, false, false, true},
		{"8/8/8/8/8/8/8/KNk5 w - - 0 1", false, false, false, true},
		{"8/8/8/8/8/8/2b5/KBk5 w - - 0 1", false, false, false, true},  // bishops on one colour
		{"8/8/8/8/8/8/3b4/KBk5 w - - 0 1", false, false, false, false}, // bishops on both colours
		{"8/8/8/8/8/8/1n6/KNk5 w - - 0 1", false, false, false, false},
		{"8/8/8/8/8/8/8/KNNk4 w - - 0 1", false, false, false, false},
	}
	for _, tc := range cases {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatalf("%s: %v", tc.fen, err)
		}
		if p.InCheck() != tc.check || p.IsCheckmate() != tc.mate || p.IsStalemate() != tc.stalemate ||
			p.InsufficientMaterial() != tc.insuff {
			t.Errorf("%s: check %v mate %v stalemate %v insufficient %v", tc.fen,
				p.InCheck(), p.IsCheckmate(), p.IsStalemate(), p.InsufficientMaterial())
		}
	}
}

func TestParseFENLenient(t *testing.T) {
	for _, c := range []struct{ in, want, note string }{
		{"8/8/8/8/4R3/6k1/8/4K2R w KQkq - 0 1", "8/8/8/8/4R3/6k1/8/4K2R w K - 0 1", `read as "K"`},
		{"8/8/2K5/2p5/2kp4/P1p5/2Q5/8 w - g6 0 1", "8/8/2K5/2p5/2kp4/P1p5/2Q5/8 w - - 0 1", "en-passant square g6"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", ""},
	} {
		pos, notes, err := ParseFENLenient(c.in)
		if err != nil || pos.FEN() != c.want || c.note != "" && (len(notes) != 1 || !strings.Contains(notes[0], c.note)) {
			t.Errorf("%s: %s, %v, %v", c.in, pos.FEN(), notes, err)
		}
	}
	// Anything else stays an error.
	if _, _, err := ParseFENLenient("8/8/8/8/8/8/8/8 w - - 0 1"); err == nil {
		t.Error("no kings read leniently")
	}
}
