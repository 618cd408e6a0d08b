package board

// A static test that rules out a mate in one without generating a move.
//
// A mate leaves every square next to the mated king covered. A square the
// king could step onto now (a free flight) can become covered by one move
// only through the piece that moves, from where it lands, or through a
// line of ours that the move opens. When some free flight can be covered
// neither way, no move mates. The test only ever widens what a move could
// do (pins, checks and legality are ignored), so it is sound; it is not
// complete: a false answer proves nothing. Castling and en passant, which
// move a second piece, make it answer false.

// NoMateInOne reports whether the side to move certainly cannot mate with
// its next move.
func (p *Position) NoMateInOne() bool {
	us, them := p.side, p.side.Other()
	if p.ep != NoSquare || p.castling&castlingOf[us] != 0 {
		return false
	}
	ksq := p.KingSquare(them)
	own := p.byColor[us]
	occ := p.byType[0] &^ SquareBB(ksq) // a king stepping along a line stays on it
	flights := kingAttacks[ksq] &^ p.byColor[them]
	if flights == 0 {
		return false
	}
	reach := p.reachOf(us, own)
	for flights != 0 {
		f := flights.PopFirst()
		if !p.coverable(f, us, own, occ, &reach) && !p.attacked(f, us, occ) {
			return true
		}
	}
	return false
}

// castlingOf holds each colour's castling rights.
var castlingOf = [2]CastlingRights{White: WhiteKingside | WhiteQueenside, Black: BlackKingside | BlackQueenside}

// moveReach holds where the pieces of one side can move, by kind of piece.
type moveReach struct {
	knight, bishop, rook, queen, king Bitboard
	pawn                              Bitboard // squares pawns reach without promoting
	promotion                         Bitboard // squares pawns reach by promoting
}

// reachOf returns the squares the pieces of colour us (on own) can move to,
// pins and checks ignored.
func (p *Position) reachOf(us Color, own Bitboard) moveReach {
	var r moveReach
	occ := p.byType[0]
	for b := p.byType[Knight] & own; b != 0; {
		r.knight |= knightAttacks[b.PopFirst()]
	}
	for b := p.byType[Bishop] & own; b != 0; {
		r.bishop |= BishopAttacks(b.PopFirst(), occ)
	}
	for b := p.byType[Rook] & own; b != 0; {
		r.rook |= RookAttacks(b.PopFirst(), occ)
	}
	for b := p.byType[Queen] & own; b != 0; {
		r.queen |= QueenAttacks(b.PopFirst(), occ)
	}
	r.knight &^= own
	r.bishop &^= own
	r.rook &^= own
	r.queen &^= own
	r.king = kingAttacks[p.KingSquare(us)] &^ own

	pawns := p.byType[Pawn] & own
	empty := ^occ
	single := pawnPush(us, pawns) & empty
	third, last := Rank3, Rank8
	if us == Black {
		third, last = Rank6, Rank1
	}
	double := pawnPush(us, single&third) & empty
	dest := single | double | pawnAttacksBB(us, pawns)&p.byColor[us.Other()]
	r.pawn, r.promotion = dest&^last, dest&last
	return r
}

// coverable reports whether some single move of colour us could attack
// the square f next to the enemy king, occ being the board without that
// king.
func (p *Position) coverable(f Square, us Color, own, occ Bitboard, r *moveReach) bool {
	diag, orth := BishopAttacks(f, occ), RookAttacks(f, occ)
	knight := knightAttacks[f]
	if r.knight&knight != 0 || r.bishop&diag != 0 || r.rook&orth != 0 ||
		r.queen&(diag|orth) != 0 || r.king&kingAttacks[f] != 0 ||
		r.pawn&pawnAttacks[us.Other()][f] != 0 || r.promotion&knight != 0 {
		return true
	}
	if r.promotion != 0 {
		// The promoting pawn may leave a line between its new square and f.
		po := occ &^ (p.byType[Pawn] & own)
		if r.promotion&(BishopAttacks(f, po)|RookAttacks(f, po)) != 0 {
			return true
		}
	}
	// A piece of ours alone on a line between f and a slider of ours opens
	// the line by moving.
	diagSliders := (p.byType[Bishop] | p.byType[Queen]) & own
	orthSliders := (p.byType[Rook] | p.byType[Queen]) & own
	for b := diag & own; b != 0; {
		s := b.PopFirst()
		if BishopAttacks(f, occ&^SquareBB(s))&^diag&diagSliders != 0 {
			return true
		}
	}
	for b := orth & own; b != 0; {
		s := b.PopFirst()
		if RookAttacks(f, occ&^SquareBB(s))&^orth&orthSliders != 0 {
			return true
		}
	}
	return false
}
