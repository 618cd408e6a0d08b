package board

import (
	"fmt"
	"strings"
)

// MoveError is the error of the move parsers: the text and why it is not a
// legal move here.
type MoveError struct {
	Text   string
	Reason string
}

func (e *MoveError) Error() string { return fmt.Sprintf("move %q: %s", e.Text, e.Reason) }

// ParseUCI reads a move in UCI form ("e2e4", "e7e8q") and returns the legal
// move it names. Castling may also be written king-takes-rook ("e1h1").
func (p *Position) ParseUCI(s string) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return NoMove, &MoveError{s, "not UCI move text"}
	}
	from, ok1 := ParseSquare(s[0:2])
	to, ok2 := ParseSquare(s[2:4])
	if !ok1 || !ok2 {
		return NoMove, &MoveError{s, "bad square"}
	}
	promo := NoPieceType
	if len(s) == 5 {
		i := strings.IndexByte("nbrq", s[4]|0x20)
		if i < 0 {
			return NoMove, &MoveError{s, "bad promotion piece"}
		}
		promo = Knight + PieceType(i)
	}
	// King takes own rook: the castling move.
	if pc := p.squares[from]; pc.Type() == King && p.squares[to] == MakePiece(p.side, Rook) && promo == NoPieceType {
		if to.File() == 7 {
			to = from + 2
		} else if to.File() == 0 {
			to = from - 2
		}
	}
	var l MoveList
	p.LegalMoves(&l)
	for _, m := range l.Slice() {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m, nil
		}
	}
	return NoMove, &MoveError{s, "not legal in " + p.FEN()}
}

// SAN returns the legal move m in Standard Algebraic Notation, with the
// disambiguation, capture mark, promotion and "+" or "#" suffix it needs.
func (p *Position) SAN(m Move) string {
	var b []byte
	from, to := m.From(), m.To()
	pt := p.squares[from].Type()
	switch {
	case m.IsCastling():
		if to.File() == 6 {
			b = append(b, "O-O"...)
		} else {
			b = append(b, "O-O-O"...)
		}
	case pt == Pawn:
		if from.File() != to.File() {
			b = append(b, byte('a'+from.File()), 'x')
		}
		b = append(b, to.String()...)
		if promo := m.Promotion(); promo != NoPieceType {
			b = append(b, '=', " PNBRQK"[promo])
		}
	default:
		b = append(b, " PNBRQK"[pt])
		// Disambiguate among same-type pieces that can reach to.
		var l MoveList
		p.LegalMoves(&l)
		sameFile, sameRank, others := false, false, false
		for _, o := range l.Slice() {
			if o.To() != to || o.From() == from || p.squares[o.From()].Type() != pt {
				continue
			}
			others = true
			sameFile = sameFile || o.From().File() == from.File()
			sameRank = sameRank || o.From().Rank() == from.Rank()
		}
		if others {
			switch {
			case !sameFile:
				b = append(b, byte('a'+from.File()))
			case !sameRank:
				b = append(b, byte('1'+from.Rank()))
			default:
				b = append(b, from.String()...)
			}
		}
		if p.squares[to] != NoPiece {
			b = append(b, 'x')
		}
		b = append(b, to.String()...)
	}
	after := *p
	after.Play(m)
	if after.InCheck() {
		if after.HasLegalMove() {
			b = append(b, '+')
		} else {
			b = append(b, '#')
		}
	}
	return string(b)
}

// ParseSAN reads a move in Standard Algebraic Notation and returns the legal
// move it names. It is lenient about what it does not need: check and
// annotation marks (+ # ! ?), "0-0" for "O-O", a missing "=" before the
// promotion piece, "e.p.", and a missing or superfluous "x". A text that
// names no legal move, or more than one, is an error.
func (p *Position) ParseSAN(s string) (Move, error) {
	t := strings.TrimRight(s, "+#!?")
	t = strings.TrimSuffix(strings.TrimSuffix(t, "e.p."), " ")
	if t == "" {
		return NoMove, &MoveError{s, "empty"}
	}
	var l MoveList
	p.LegalMoves(&l)
	switch strings.ReplaceAll(t, "0", "O") {
	case "O-O", "O-O-O":
		file := 6
		if len(t) == 5 {
			file = 2
		}
		for _, m := range l.Slice() {
			if m.IsCastling() && m.To().File() == file {
				return m, nil
			}
		}
		return NoMove, &MoveError{s, "castling is not legal here"}
	}
	pt := Pawn
	if i := strings.IndexByte("NBRQK", t[0]); i >= 0 {
		pt = Knight + PieceType(i)
		t = t[1:]
	}
	promo := NoPieceType
	if n := len(t); n > 0 {
		if i := strings.IndexByte("NBRQ", t[n-1]); i >= 0 && pt == Pawn {
			promo = Knight + PieceType(i)
			t = strings.TrimSuffix(t[:n-1], "=")
		}
	}
	if len(t) < 2 {
		return NoMove, &MoveError{s, "no destination square"}
	}
	to, ok := ParseSquare(t[len(t)-2:])
	if !ok {
		return NoMove, &MoveError{s, "bad destination square"}
	}
	hint := strings.TrimSuffix(strings.ReplaceAll(t[:len(t)-2], "-", ""), "x")
	fromFile, fromRank := -1, -1
	for i := 0; i < len(hint); i++ {
		switch c := hint[i]; {
		case c >= 'a' && c <= 'h':
			fromFile = int(c - 'a')
		case c >= '1' && c <= '8':
			fromRank = int(c - '1')
		default:
			return NoMove, &MoveError{s, fmt.Sprintf("unexpected %q", c)}
		}
	}
	found := NoMove
	for _, m := range l.Slice() {
		from := m.From()
		if m.To() != to || m.IsCastling() || p.squares[from].Type() != pt || m.Promotion() != promo ||
			fromFile >= 0 && from.File() != fromFile || fromRank >= 0 && from.Rank() != fromRank {
			continue
		}
		if found != NoMove {
			return NoMove, &MoveError{s, "ambiguous"}
		}
		found = m
	}
	if found == NoMove {
		return NoMove, &MoveError{s, "not legal in " + p.FEN()}
	}
	return found, nil
}

// HasLegalMove reports whether the side to move has any legal move. It
// tries king steps first, then, out of check, the moves no pin can forbid
// (an unpinned man's, a pinned slider's along its pin, a pawn's plain
// push or capture), which settles most positions without generating
// every move.
func (p *Position) HasLegalMove() bool {
	us, them := p.side, p.side.Other()
	ksq := p.KingSquare(us)
	occ := p.byType[0] ^ SquareBB(ksq)
	for t := kingAttacks[ksq] &^ p.byColor[us]; t != 0; {
		if !p.attacked(t.PopFirst(), them, occ) {
			return true
		}
	}
	if !p.InCheck() && p.hasFreeMove(ksq) {
		return true
	}
	var l MoveList
	p.LegalMoves(&l)
	return l.N > 0
}

// hasFreeMove reports whether the side to move, not in check, its king
// on ksq, has a move that no pin forbids: a knight's or slider's move
// when it is not pinned, a pinned slider's along the line of its pin, an
// unpinned pawn's push to an empty square or capture (en passant and
// castling are left to the full generation).
func (p *Position) hasFreeMove(ksq Square) bool {
	us, them := p.side, p.side.Other()
	occ, own, enemy := p.byType[0], p.byColor[us], p.byColor[them]
	pinned, _ := p.blockers(ksq, them)
	pinned &= own
	for b := p.pieces(us, Knight) &^ pinned; b != 0; {
		if knightAttacks[b.PopFirst()]&^own != 0 {
			return true
		}
	}
	for b := own & (p.byType[Bishop] | p.byType[Rook] | p.byType[Queen]); b != 0; {
		from := b.PopFirst()
		t := Attacks(p.squares[from].Type(), us, from, occ) &^ own
		if pinned.Has(from) {
			t &= line[ksq][from]
		}
		if t != 0 {
			return true
		}
	}
	for b := p.pieces(us, Pawn) &^ pinned; b != 0; {
		from := b.PopFirst()
		if pawnPush(us, SquareBB(from))&^occ != 0 || pawnAttacks[us][from]&enemy != 0 {
			return true
		}
	}
	return false
}

// IsCheckmate reports whether the side to move is checkmated.
func (p *Position) IsCheckmate() bool { return p.InCheck() && !p.HasLegalMove() }

// IsStalemate reports whether the side to move has no legal move and is not in check.
func (p *Position) IsStalemate() bool { return !p.InCheck() && !p.HasLegalMove() }

// SANLine writes moves played from p as numbered SAN, such as
// "1. Rg6 Ka8 2. Kc7" or "1... Ka8 2. Kc7". It stops at the first move
// that is not legal.
func (p *Position) SANLine(moves []Move) string {
	var b strings.Builder
	pos := *p
	for i, m := range moves {
		var l MoveList
		pos.LegalMoves(&l)
		if !l.Contains(m) {
			break
		}
		if pos.side == White {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%d. ", pos.fullmove)
		} else if i == 0 {
			fmt.Fprintf(&b, "%d... ", pos.fullmove)
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(pos.SAN(m))
		pos.Play(m)
	}
	return b.String()
}

// ParseUCILine reads a line of moves in UCI notation played from p, each
// in the position the moves before it leave. The error names the ply of
// the first move that is not legal there.
func (p *Position) ParseUCILine(texts []string) ([]Move, error) {
	pos := *p
	line := make([]Move, 0, len(texts))
	for i, t := range texts {
		m, err := pos.ParseUCI(t)
		if err != nil {
			return line, fmt.Errorf("ply %d: %w", i+1, err)
		}
		line = append(line, m)
		pos.Play(m)
	}
	return line, nil
}

// SetClocks sets the half-move clock and full-move number (as EPD's hmvc
// and fmvn do). The key does not depend on them.
func (p *Position) SetClocks(halfmove, fullmove int) {
	if halfmove >= 0 && halfmove <= 9999 {
		p.halfmove = uint16(halfmove)
	}
	if fullmove >= 1 && fullmove <= 9999 {
		p.fullmove = uint16(fullmove)
	}
}
