package board

// Position is a legal chess position. It is built from FEN by ParseFEN
// (which validates it) and changed with Play. A Position is a plain value:
// copying it is how the search keeps earlier positions (copy-make).
type Position struct {
	byType   [7]Bitboard // index 0 holds every occupied square
	byColor  [2]Bitboard
	squares  [64]Piece
	key      uint64
	side     Color
	castling CastlingRights
	ep       Square // set after every double push, as FEN does
	halfmove uint16
	fullmove uint16
}

// Side returns the side to move.
func (p *Position) Side() Color { return p.side }

// Castling returns the castling rights.
func (p *Position) Castling() CastlingRights { return p.castling }

// EnPassant returns the en-passant square, or NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

// HalfmoveClock returns the number of plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return int(p.halfmove) }

// FullmoveNumber returns the FEN full-move number.
func (p *Position) FullmoveNumber() int { return int(p.fullmove) }

// Key returns the Zobrist key.
func (p *Position) Key() uint64 { return p.key }

// PieceAt returns the piece on s, or NoPiece.
func (p *Position) PieceAt(s Square) Piece { return p.squares[s] }

// Occupied returns every occupied square.
func (p *Position) Occupied() Bitboard { return p.byType[0] }

// ColorBB returns the squares of c's pieces.
func (p *Position) ColorBB(c Color) Bitboard { return p.byColor[c] }

// Pieces returns the squares of c's pieces of type t.
func (p *Position) Pieces(c Color, t PieceType) Bitboard { return p.pieces(c, t) }

func (p *Position) pieces(c Color, t PieceType) Bitboard { return p.byType[t] & p.byColor[c] }

// KingSquare returns the square of c's king.
func (p *Position) KingSquare(c Color) Square { return p.pieces(c, King).First() }

func (p *Position) put(pc Piece, s Square) {
	b := SquareBB(s)
	p.squares[s] = pc
	p.byType[0] |= b
	p.byType[pc.Type()] |= b
	p.byColor[pc.Color()] |= b
	p.key ^= zobristPiece[pc][s]
}

func (p *Position) remove(s Square) {
	pc := p.squares[s]
	b := SquareBB(s)
	p.squares[s] = NoPiece
	p.byType[0] &^= b
	p.byType[pc.Type()] &^= b
	p.byColor[pc.Color()] &^= b
	p.key ^= zobristPiece[pc][s]
}

// attackersTo returns every piece of either colour attacking s, given occupancy occ.
func (p *Position) attackersTo(s Square, occ Bitboard) Bitboard {
	return pawnAttacks[Black][s]&p.pieces(White, Pawn) |
		pawnAttacks[White][s]&p.pieces(Black, Pawn) |
		knightAttacks[s]&p.byType[Knight] |
		kingAttacks[s]&p.byType[King] |
		BishopAttacks(s, occ)&(p.byType[Bishop]|p.byType[Queen]) |
		RookAttacks(s, occ)&(p.byType[Rook]|p.byType[Queen])
}

// attacked reports whether any piece of colour by attacks s, given occupancy occ.
func (p *Position) attacked(s Square, by Color, occ Bitboard) bool {
	them := p.byColor[by]
	if pawnAttacks[by.Other()][s]&p.byType[Pawn]&them != 0 ||
		knightAttacks[s]&p.byType[Knight]&them != 0 ||
		kingAttacks[s]&p.byType[King]&them != 0 {
		return true
	}
	if BishopAttacks(s, occ)&(p.byType[Bishop]|p.byType[Queen])&them != 0 {
		return true
	}
	return RookAttacks(s, occ)&(p.byType[Rook]|p.byType[Queen])&them != 0
}

// Checkers returns the enemy pieces giving check to the side to move.
func (p *Position) Checkers() Bitboard {
	return p.attackersTo(p.KingSquare(p.side), p.byType[0]) & p.byColor[p.side.Other()]
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	return p.attacked(p.KingSquare(p.side), p.side.Other(), p.byType[0])
}

// blockers returns the pieces of either colour that stand alone between the
// king on ksq and a slider of colour sliders; pinners receives those sliders.
func (p *Position) blockers(ksq Square, sliders Color) (blockers, pinners Bitboard) {
	snipers := (RookAttacks(ksq, 0)&(p.byType[Rook]|p.byType[Queen]) |
		BishopAttacks(ksq, 0)&(p.byType[Bishop]|p.byType[Queen])) & p.byColor[sliders]
	occ := p.byType[0] ^ snipers
	for snipers != 0 {
		s := snipers.PopFirst()
		b := between[ksq][s] & occ
		if b != 0 && !b.More() {
			blockers |= b
			pinners |= SquareBB(s)
		}
	}
	return blockers, pinners
}

// InsufficientMaterial reports whether neither side can ever mate: bare
// kings, a single minor piece, or only bishops all on squares of one colour.
func (p *Position) InsufficientMaterial() bool {
	return !p.CanMate(White) && !p.CanMate(Black)
}

// CanMate reports whether side c has enough material that some sequence of
// legal moves could end with c giving mate. It is false only when c has a
// bare king; a lone knight or bishop, or bishops on one colour, when the
// other side has no piece that could block its own king; the cases where no
// help from the other side can produce a mate.
func (p *Position) CanMate(c Color) bool {
	own := p.byColor[c]
	if own&(p.byType[Pawn]|p.byType[Rook]|p.byType[Queen]) != 0 {
		return true
	}
	minors := own & (p.byType[Knight] | p.byType[Bishop])
	if minors == 0 {
		return false
	}
	theirs := p.byColor[c.Other()] &^ p.byType[King]
	const light Bitboard = 0x55aa55aa55aa55aa
	if minors&p.byType[Knight] == 0 {
		// Bishops only. All on one colour: the enemy king can always step
		// to a square of the other colour unless its own pieces hem it in,
		// and only a piece that can stand on the other colour does that.
		allBishops := p.byType[Bishop]
		if allBishops&light == 0 || allBishops&^light == 0 {
			// Every bishop on the board is on one colour. Blocking squares of
			// the other colour needs a knight, a pawn, a rook or a queen.
			if theirs&^p.byType[Bishop] == 0 {
				return false
			}
		}
		if minors.More() {
			return true
		}
		return theirs != 0
	}
	// A knight: one knight alone cannot mate a bare king.
	if minors.More() {
		return true
	}
	return theirs != 0
}
