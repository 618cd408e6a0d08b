package dtm

import "mateline.dev/mateline/board"

// node is a position as tables see it: up to five men in any order, the
// side to move and an en-passant square.
type node struct {
	n   int
	pc  [PlanMen]board.Piece
	sq  squares
	stm board.Color
	ep  board.Square
}

// nodeOf reads a board position (its men in square order).
func nodeOf(p *board.Position) (node, bool) {
	var nd node
	occ := p.Occupied()
	if occ.Count() > MaxMen {
		return nd, false
	}
	for occ != 0 {
		s := occ.PopFirst()
		nd.pc[nd.n] = p.PieceAt(s)
		nd.sq[nd.n] = s
		nd.n++
	}
	nd.stm = p.Side()
	nd.ep = p.EnPassant()
	return nd, true
}

func (nd *node) material() Material {
	var m Material
	for i := 0; i < nd.n; i++ {
		if t := nd.pc[i].Type(); t != board.King {
			m.Pieces[nd.pc[i].Color()] = append(m.Pieces[nd.pc[i].Color()], t)
		}
	}
	sortPieces(m.Pieces[0])
	sortPieces(m.Pieces[1])
	return m
}

// flipped swaps the colours: every man changes colour and rank, the other
// side moves.
func (nd *node) flipped() node {
	f := *nd
	for i := 0; i < nd.n; i++ {
		f.pc[i] = board.MakePiece(nd.pc[i].Color().Other(), nd.pc[i].Type())
		f.sq[i] = nd.sq[i] ^ 56
	}
	f.stm = nd.stm.Other()
	if nd.ep != board.NoSquare {
		f.ep = nd.ep ^ 56
	}
	return f
}

func (nd *node) occupied() board.Bitboard {
	var b board.Bitboard
	for i := 0; i < nd.n; i++ {
		b |= board.SquareBB(nd.sq[i])
	}
	return b
}

func (nd *node) colorBB(c board.Color) board.Bitboard {
	var b board.Bitboard
	for i := 0; i < nd.n; i++ {
		if nd.pc[i].Color() == c {
			b |= board.SquareBB(nd.sq[i])
		}
	}
	return b
}

func (nd *node) king(c board.Color) int {
	k := board.MakePiece(c, board.King)
	for i := 0; i < nd.n; i++ {
		if nd.pc[i] == k {
			return i
		}
	}
	return -1
}

// attacked reports whether s is attacked by c's men, with occupancy occ,
// leaving out the man in slot skip (a captured one; -1 for none).
func (nd *node) attacked(s board.Square, c board.Color, occ board.Bitboard, skip int) bool {
	for i := 0; i < nd.n; i++ {
		if i == skip || nd.pc[i].Color() != c {
			continue
		}
		if board.Attacks(nd.pc[i].Type(), c, nd.sq[i], occ).Has(s) {
			return true
		}
	}
	return false
}

// legal reports whether the side not to move is out of check.
func (nd *node) legal() bool {
	k := nd.king(nd.stm.Other())
	return k >= 0 && !nd.attacked(nd.sq[k], nd.stm, nd.occupied(), -1)
}

func (nd *node) inCheck() bool {
	k := nd.king(nd.stm)
	return nd.attacked(nd.sq[k], nd.stm.Other(), nd.occupied(), -1)
}

// move is a legal move of a node.
type move struct {
	slot    int8            // the man that moves
	capture int8            // the man taken, or -1
	to      board.Square    // where it goes
	promo   board.PieceType // the piece a pawn becomes, or NoPieceType
	ep      bool            // an en-passant capture
	double  bool            // a pawn's double step
}

// quiet reports whether m keeps the material and moves no pawn: the moves
// that stay inside one slice of a table.
func (m move) quiet(nd *node) bool {
	return m.capture < 0 && nd.pc[m.slot].Type() != board.Pawn
}

// moves appends the legal moves of the side to move.
func (nd *node) moves(out []move) []move {
	out, _ = nd.generate(out, genAll, nd.threatsTo(nd.stm))
	return out
}

// conversions appends the legal moves of the side to move that are not
// quiet (captures and pawn moves), and counts the quiet ones: all that a
// position's set-up needs when no two quiet moves can lead to one stored
// position. th is nd.threatsTo(nd.stm).
func (nd *node) conversions(out []move, th threats) ([]move, int) {
	return nd.generate(out, genConversions, th)
}

// capturesAndPromotions appends the legal captures and promotions of the
// side to move: the moves a probe of a format-3 table reads beside the
// stored byte. th is nd.threatsTo(nd.stm).
func (nd *node) capturesAndPromotions(out []move, th threats) []move {
	out, _ = nd.generate(out, genCaptures, th)
	return out
}

// genMode is what generate appends.
type genMode uint8

const (
	genAll         genMode = iota // every legal move
	genConversions                // captures and pawn moves; the quiet ones counted
	genCaptures                   // captures and promotions only
)

// threats is what the enemy of one side does to that side's king.
type threats struct {
	// the squares the enemy attacks, the king lifted off the board
	danger board.Bitboard
	// an enemy slider stands on a line with the king: a pin is possible
	aligned bool
}

// threatsTo returns the enemy's threats to c's king. The king's square
// blocks no ray to itself, so danger holds that square exactly when c is
// in check.
func (nd *node) threatsTo(c board.Color) threats {
	var th threats
	ksq := nd.sq[nd.king(c)]
	occ := nd.occupied() &^ board.SquareBB(ksq)
	enemy := c.Other()
	for i := 0; i < nd.n; i++ {
		if pc := nd.pc[i]; pc.Color() == enemy {
			th.danger |= board.Attacks(pc.Type(), enemy, nd.sq[i], occ)
			if t := pc.Type(); t == board.Queen || t == board.Rook || t == board.Bishop {
				th.aligned = th.aligned || board.Attacks(t, enemy, nd.sq[i], 0).Has(ksq)
			}
		}
	}
	return th
}

// generate appends the legal moves of the side to move that mode asks
// for (genConversions: the quiet ones are counted instead). th is
// nd.threatsTo(nd.stm).
func (nd *node) generate(out []move, mode genMode, th threats) ([]move, int) {
	countQuiet := mode == genConversions
	onlyTaking := mode == genCaptures
	quiet := 0
	c := nd.stm
	occ := nd.occupied()
	own := nd.colorBB(c)
	king := nd.king(c)
	ksq := nd.sq[king]
	// what the full legality test can be spared: the squares the king may
	// not step to, and which men are pinned
	enemy := c.Other()
	danger, aligned := th.danger, th.aligned
	var pinned [PlanMen]bool
	check := danger.Has(ksq)
	if aligned && !check {
		for i := 0; i < nd.n; i++ {
			if nd.pc[i].Color() == c && i != king {
				pinned[i] = nd.attacked(ksq, enemy, occ&^board.SquareBB(nd.sq[i]), -1)
			}
		}
	}
	for i := 0; i < nd.n; i++ {
		pc := nd.pc[i]
		if pc.Color() != c {
			continue
		}
		from := nd.sq[i]
		if i == king {
			targets := board.KingAttacks(from) &^ own &^ danger
			if onlyTaking {
				targets &= occ
			}
			if countQuiet {
				quiet += (targets &^ occ).Count()
				targets &= occ
			}
			for targets != 0 {
				to := targets.PopFirst()
				out = append(out, move{slot: int8(i), capture: nd.at(to), to: to})
			}
			continue
		}
		if pc.Type() != board.Pawn {
			targets := board.Attacks(pc.Type(), c, from, occ) &^ own
			if onlyTaking {
				targets &= occ
			}
			legal := !check && !pinned[i]
			if countQuiet && legal {
				quiet += (targets &^ occ).Count()
				targets &= occ
			}
			for targets != 0 {
				to := targets.PopFirst()
				m := move{slot: int8(i), capture: nd.at(to), to: to}
				if legal {
					out = append(out, m)
					continue
				}
				n := len(out)
				out = nd.addIfLegal(out, m, king, occ)
				if countQuiet && len(out) > n && m.capture < 0 {
					out = out[:n] // a legal quiet move: counted
					quiet++
				}
			}
			continue
		}
		dir := board.Square(8)
		start, last := 1, 7
		if c == board.Black {
			dir, start, last = -8, 6, 0
		}
		push := from + dir
		if onlyTaking && int(push)/8 != last {
			// no promotion: its captures only
		} else if !occ.Has(push) {
			out = nd.addPawn(out, move{slot: int8(i), capture: -1, to: push}, king, occ, last)
			if int(from)/8 == start && !occ.Has(push+dir) {
				out = nd.addIfLegal(out, move{slot: int8(i), capture: -1, to: push + dir, double: true}, king, occ)
			}
		}
		caps := board.PawnAttacks(c, from)
		for t := caps & nd.colorBB(c.Other()); t != 0; {
			to := t.PopFirst()
			out = nd.addPawn(out, move{slot: int8(i), capture: nd.at(to), to: to}, king, occ, last)
		}
		if nd.ep != board.NoSquare && caps.Has(nd.ep) {
			victim := nd.at(nd.ep - dir)
			if victim >= 0 && nd.pc[victim] == board.MakePiece(c.Other(), board.Pawn) {
				out = nd.addIfLegal(out, move{slot: int8(i), capture: victim, to: nd.ep, ep: true}, king, occ)
			}
		}
	}
	return out, quiet
}

func (nd *node) addPawn(out []move, m move, king int, occ board.Bitboard, last int) []move {
	if int(m.to)/8 != last {
		return nd.addIfLegal(out, m, king, occ)
	}
	n := len(out)
	out = nd.addIfLegal(out, m, king, occ)
	if len(out) == n {
		return out
	}
	out = out[:n]
	for _, t := range promotions {
		m.promo = t
		out = append(out, m)
	}
	return out
}

// promotions are the pieces a pawn may become, strongest first.
var promotions = [4]board.PieceType{board.Queen, board.Rook, board.Bishop, board.Knight}

// at returns the slot of the man on s, or -1.
func (nd *node) at(s board.Square) int8 {
	for i := 0; i < nd.n; i++ {
		if nd.sq[i] == s {
			return int8(i)
		}
	}
	return -1
}

func (nd *node) addIfLegal(out []move, m move, king int, occ board.Bitboard) []move {
	from := nd.sq[m.slot]
	after := occ&^board.SquareBB(from) | board.SquareBB(m.to)
	if m.ep {
		after &^= board.SquareBB(nd.sq[m.capture])
	}
	ks := nd.sq[king]
	if int(m.slot) == king {
		ks = m.to
	}
	// the moved man is on m.to; enemy men see the new occupancy
	if nd.attackedAfter(ks, nd.stm.Other(), after, int(m.capture)) {
		return out
	}
	return append(out, m)
}

// attackedAfter is attacked for a position after a move: the captured
// man is left out, and no man stands on a square the mover left.
func (nd *node) attackedAfter(s board.Square, c board.Color, occ board.Bitboard, skip int) bool {
	return nd.attacked(s, c, occ, skip)
}

// play returns the node after m.
func (nd *node) play(m move) node {
	ch := *nd
	ch.sq[m.slot] = m.to
	if m.promo != board.NoPieceType {
		ch.pc[m.slot] = board.MakePiece(nd.stm, m.promo)
	}
	if m.capture >= 0 {
		last := ch.n - 1
		ch.pc[m.capture], ch.sq[m.capture] = ch.pc[last], ch.sq[last]
		ch.n--
	}
	ch.stm = nd.stm.Other()
	ch.ep = board.NoSquare
	if m.double {
		ch.ep = (nd.sq[m.slot] + m.to) / 2
	}
	return ch
}

// materialKey packs the count of each coloured piece type (3 bits each):
// two nodes have the same material exactly when their keys are equal.
func (nd *node) materialKey() uint32 {
	var k uint32
	for i := 0; i < nd.n; i++ {
		k += 1 << (3 * (uint(nd.pc[i].Color())*6 + uint(nd.pc[i].Type()) - 1))
	}
	return k
}
