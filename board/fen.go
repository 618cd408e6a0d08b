package board

import (
	"fmt"
	"strconv"
	"strings"
)

// FENErrorKind says what is wrong with a FEN.
type FENErrorKind int

// The ways a FEN can be wrong. The first group is about syntax, the second
// about positions that cannot arise in a game.
const (
	ErrNonASCII FENErrorKind = iota + 1
	ErrFieldCount
	ErrRankCount
	ErrRankLength
	ErrPieceLetter
	ErrSideToMove
	ErrCastlingField
	ErrEnPassantField
	ErrClock
	ErrKingCount
	ErrPawnOnBackRank
	ErrTooManyPieces
	ErrTooManyPawns
	ErrOpponentInCheck
	ErrTooManyCheckers
	ErrCastlingRights
	ErrEnPassantSquare
)

var fenErrorNames = map[FENErrorKind]string{
	ErrNonASCII:        "non-ASCII byte",
	ErrFieldCount:      "wrong field count",
	ErrRankCount:       "wrong rank count",
	ErrRankLength:      "wrong rank length",
	ErrPieceLetter:     "bad piece letter",
	ErrSideToMove:      "bad side to move",
	ErrCastlingField:   "bad castling field",
	ErrEnPassantField:  "bad en-passant field",
	ErrClock:           "bad move clock",
	ErrKingCount:       "wrong number of kings",
	ErrPawnOnBackRank:  "pawn on first or last rank",
	ErrTooManyPieces:   "too many pieces",
	ErrTooManyPawns:    "too many pawns",
	ErrOpponentInCheck: "side not to move is in check",
	ErrTooManyCheckers: "impossible check",
	ErrCastlingRights:  "castling rights contradict the position",
	ErrEnPassantSquare: "impossible en-passant square",
}

// String names the kind of error.
func (k FENErrorKind) String() string {
	if s, ok := fenErrorNames[k]; ok {
		return s
	}
	return "FEN error " + strconv.Itoa(int(k))
}

// FENError is the error ParseFEN returns: what is wrong, and a detail that
// points at the offending part.
type FENError struct {
	Kind   FENErrorKind
	Detail string
}

func (e *FENError) Error() string {
	if e.Detail == "" {
		return "invalid FEN: " + e.Kind.String()
	}
	return "invalid FEN: " + e.Kind.String() + ": " + e.Detail
}

func fenErr(k FENErrorKind, format string, args ...any) *FENError {
	return &FENError{Kind: k, Detail: fmt.Sprintf(format, args...)}
}

// StartFEN is the FEN of the initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// StartPosition returns the initial position.
func StartPosition() Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic(err) // the constant above is valid
	}
	return p
}

// MustParseFEN is ParseFEN for positions known to be good, such as the
// constants of tests and benchmarks: it panics, naming the FEN, when the
// text does not parse.
func MustParseFEN(fen string) Position {
	p, err := ParseFEN(fen)
	if err != nil {
		panic(fmt.Sprintf("board.MustParseFEN(%q): %v", fen, err))
	}
	return p
}

// ParseFEN reads a FEN and validates the position. Six fields are the
// standard; four fields (as in EPD) are accepted with clocks "0 1". The
// error, always a *FENError, says what is wrong. ParseFEN never panics.
func ParseFEN(fen string) (Position, error) {
	var p Position
	for i := 0; i < len(fen); i++ {
		if fen[i] >= 0x80 {
			return p, fenErr(ErrNonASCII, "byte 0x%02x at offset %d", fen[i], i)
		}
	}
	fields := strings.Fields(fen)
	if len(fields) != 4 && len(fields) != 6 {
		return p, fenErr(ErrFieldCount, "%d fields, want 6 (or 4)", len(fields))
	}
	if err := p.parsePlacement(fields[0]); err != nil {
		return Position{}, err
	}
	switch fields[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return Position{}, fenErr(ErrSideToMove, "%q, want w or b", fields[1])
	}
	if err := p.parseCastling(fields[2]); err != nil {
		return Position{}, err
	}
	p.ep = NoSquare
	if fields[3] != "-" {
		s, ok := ParseSquare(fields[3])
		if !ok {
			return Position{}, fenErr(ErrEnPassantField, "%q", fields[3])
		}
		p.ep = s
	}
	p.fullmove = 1
	if len(fields) == 6 {
		hm, err := strconv.Atoi(fields[4])
		if err != nil || hm < 0 || hm > 9999 {
			return Position{}, fenErr(ErrClock, "half-move clock %q", fields[4])
		}
		fm, err := strconv.Atoi(fields[5])
		if err != nil || fm < 0 || fm > 9999 {
			return Position{}, fenErr(ErrClock, "full-move number %q", fields[5])
		}
		if fm == 0 { // common in the wild; FEN starts at 1
			fm = 1
		}
		p.halfmove, p.fullmove = uint16(hm), uint16(fm)
	}
	if err := p.validate(); err != nil {
		return Position{}, err
	}
	p.key = p.ComputeKey()
	return p, nil
}

func (p *Position) parsePlacement(s string) error {
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return fenErr(ErrRankCount, "%d ranks, want 8", len(ranks))
	}
	for i, r := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(r); j++ {
			c := r[j]
			if c >= '1' && c <= '9' {
				file += int(c - '0')
				continue
			}
			pc, ok := pieceFromLetter(c)
			if !ok {
				return fenErr(ErrPieceLetter, "%q in rank %d", c, rank+1)
			}
			if file >= 8 {
				return fenErr(ErrRankLength, "rank %d (%q) has more than 8 squares", rank+1, r)
			}
			p.put(pc, MakeSquare(file, rank))
			file++
		}
		if file != 8 {
			return fenErr(ErrRankLength, "rank %d (%q) covers %d squares, want 8", rank+1, r, file)
		}
	}
	return nil
}

func (p *Position) parseCastling(s string) error {
	if s == "-" {
		return nil
	}
	for i := 0; i < len(s); i++ {
		idx := strings.IndexByte("KQkq", s[i])
		if idx < 0 {
			return fenErr(ErrCastlingField, "%q has %q", s, s[i])
		}
		if p.castling&(1<<idx) != 0 {
			return fenErr(ErrCastlingField, "%q repeats %q", s, s[i])
		}
		p.castling |= 1 << idx
	}
	return nil
}

// validate checks that the position could arise in a game, as far as the
// cheap tests can tell.
func (p *Position) validate() error {
	for c := White; c <= Black; c++ {
		name := [2]string{"white", "black"}[c]
		if n := p.pieces(c, King).Count(); n != 1 {
			return fenErr(ErrKingCount, "%s has %d kings", name, n)
		}
		if n := p.byColor[c].Count(); n > 16 {
			return fenErr(ErrTooManyPieces, "%s has %d pieces", name, n)
		}
		if n := p.pieces(c, Pawn).Count(); n > 8 {
			return fenErr(ErrTooManyPawns, "%s has %d pawns", name, n)
		}
	}
	if b := p.byType[Pawn] & (Rank1 | Rank8); b != 0 {
		return fenErr(ErrPawnOnBackRank, "pawn on %s", b.First())
	}
	for _, c := range castlings {
		if p.castling&c.right == 0 {
			continue
		}
		color := Color(0)
		if c.kingFrom == E8 {
			color = Black
		}
		if p.squares[c.kingFrom] != MakePiece(color, King) || p.squares[c.rookFrom] != MakePiece(color, Rook) {
			return fenErr(ErrCastlingRights, "%q needs a king on %s and a rook on %s",
				c.right.String(), c.kingFrom, c.rookFrom)
		}
	}
	them := p.side.Other()
	if p.attacked(p.KingSquare(them), p.side, p.byType[0]) {
		return fenErr(ErrOpponentInCheck, "%s is to move but %s's king is attacked", p.side.longName(), them.longName())
	}
	if n := p.Checkers().Count(); n > 2 {
		return fenErr(ErrTooManyCheckers, "%d pieces give check", n)
	}
	if p.ep != NoSquare {
		// The pawn that just moved two squares stands in front of the
		// en-passant square; the square and the one behind it are empty.
		wantRank, dir := 5, -8
		if p.side == Black {
			wantRank, dir = 2, 8
		}
		pawnSq := p.ep + Square(dir)
		switch {
		case p.ep.Rank() != wantRank:
			return fenErr(ErrEnPassantSquare, "%s: with %s to move, the square must be on rank %d, behind a %s pawn that just advanced two squares",
				p.ep, p.side.longName(), wantRank+1, them.longName())
		case p.squares[pawnSq] != MakePiece(them, Pawn):
			return fenErr(ErrEnPassantSquare, "%s: no %s pawn on %s, which would just have advanced past it", p.ep, them.longName(), pawnSq)
		case p.squares[p.ep] != NoPiece || p.squares[p.ep-Square(dir)] != NoPiece:
			return fenErr(ErrEnPassantSquare, "%s: a %s pawn cannot just have passed it: %s and %s must be empty",
				p.ep, them.longName(), p.ep, p.ep-Square(dir))
		}
	}
	return nil
}

func (c Color) longName() string {
	if c == White {
		return "white"
	}
	return "black"
}

// FEN returns the position in Forsyth-Edwards Notation.
func (p *Position) FEN() string {
	return fmt.Sprintf("%s %s %s %s %d %d", Placement(&p.squares), p.side, p.castling, p.ep, p.halfmove, p.fullmove)
}

// Placement writes the first field of a FEN, the pieces rank by rank from
// the eighth, for a board given square by square (a1 = 0).
func Placement(squares *[64]Piece) string {
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			pc := squares[MakeSquare(file, rank)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteString(pc.String())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// String returns the FEN.
func (p Position) String() string { return p.FEN() }
