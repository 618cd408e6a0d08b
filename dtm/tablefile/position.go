package tablefile

import "mateline.dev/mateline/board"

// Node is a position as tables see it: up to five men in any order, the
// side to move and an en-passant square.
type Node struct {
	N      int
	Pieces [PlanMen]board.Piece
	Sq     Squares
	Stm    board.Color
	Ep     board.Square
}

// NodeOf reads a board position (its men in square order).
func NodeOf(p *board.Position) (Node, bool) {
	var nd Node
	occ := p.Occupied()
	if occ.Count() > PlanMen {
		return nd, false
	}
	for occ != 0 {
		s := occ.PopFirst()
		nd.Pieces[nd.N] = p.PieceAt(s)
		nd.Sq[nd.N] = s
		nd.N++
	}
	nd.Stm = p.Side()
	nd.Ep = p.EnPassant()
	return nd, true
}

func (nd *Node) Material() Material {
	var m Material
	for i := 0; i < nd.N; i++ {
		if t := nd.Pieces[i].Type(); t != board.King {
			m.Pieces[nd.Pieces[i].Color()] = append(m.Pieces[nd.Pieces[i].Color()], t)
		}
	}
	sortPieces(m.Pieces[0])
	sortPieces(m.Pieces[1])
	return m
}

// Flipped swaps the colours: every man changes colour and rank, the other
// side moves.
func (nd *Node) Flipped() Node {
	f := *nd
	for i := 0; i < nd.N; i++ {
		f.Pieces[i] = board.MakePiece(nd.Pieces[i].Color().Other(), nd.Pieces[i].Type())
		f.Sq[i] = nd.Sq[i] ^ 56
	}
	f.Stm = nd.Stm.Other()
	if nd.Ep != board.NoSquare {
		f.Ep = nd.Ep ^ 56
	}
	return f
}

func (nd *Node) Occupied() board.Bitboard {
	var b board.Bitboard
	for i := 0; i < nd.N; i++ {
		b |= board.SquareBB(nd.Sq[i])
	}
	return b
}

func (nd *Node) colorBB(c board.Color) board.Bitboard {
	var b board.Bitboard
	for i := 0; i < nd.N; i++ {
		if nd.Pieces[i].Color() == c {
			b |= board.SquareBB(nd.Sq[i])
		}
	}
	return b
}

func (nd *Node) king(c board.Color) int {
	k := board.MakePiece(c, board.King)
	for i := 0; i < nd.N; i++ {
		if nd.Pieces[i] == k {
			return i
		}
	}
	return -1
}

// Attacked reports whether s is Attacked by c's men, with occupancy occ,
// leaving out the man in slot skip (a captured one; -1 for none).
func (nd *Node) Attacked(s board.Square, c board.Color, occ board.Bitboard, skip int) bool {
	for i := 0; i < nd.N; i++ {
		if i == skip || nd.Pieces[i].Color() != c {
			continue
		}
		if board.Attacks(nd.Pieces[i].Type(), c, nd.Sq[i], occ).Has(s) {
			return true
		}
	}
	return false
}

// Legal reports whether the side not to move is out of check.
func (nd *Node) Legal() bool {
	k := nd.king(nd.Stm.Other())
	return k >= 0 && !nd.Attacked(nd.Sq[k], nd.Stm, nd.Occupied(), -1)
}

func (nd *Node) InCheck() bool {
	k := nd.king(nd.Stm)
	return nd.Attacked(nd.Sq[k], nd.Stm.Other(), nd.Occupied(), -1)
}

// Move is a legal Move of a node.
type Move struct {
	Slot    int8            // the man that moves
	Capture int8            // the man taken, or -1
	To      board.Square    // where it goes
	Promo   board.PieceType // the piece a pawn becomes, or NoPieceType
	Ep      bool            // an en-passant capture
	Double  bool            // a pawn's double step
}

// Quiet reports whether m keeps the material and moves no pawn: the moves
// that stay inside one slice of a table.
func (m Move) Quiet(nd *Node) bool {
	return m.Capture < 0 && nd.Pieces[m.Slot].Type() != board.Pawn
}

// Moves appends the legal Moves of the side to move.
func (nd *Node) Moves(out []Move) []Move {
	out, _ = nd.generate(out, genAll, nd.ThreatsTo(nd.Stm))
	return out
}

// Conversions appends the legal moves of the side to move that are not
// quiet (captures and pawn moves), and counts the quiet ones: all that a
// position's set-up needs when no two quiet moves can lead to one stored
// position. th is nd.threatsTo(nd.stm).
func (nd *Node) Conversions(out []Move, th Threats) ([]Move, int) {
	return nd.generate(out, genConversions, th)
}

// CapturesAndPromotions appends the legal captures and promotions of the
// side to move: the moves a probe of a format-3 table reads beside the
// stored byte. th is nd.threatsTo(nd.stm).
func (nd *Node) CapturesAndPromotions(out []Move, th Threats) []Move {
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

// Threats is what the enemy of one side does to that side's king.
type Threats struct {
	// the squares the enemy attacks, the king lifted off the board
	Danger board.Bitboard
	// an enemy slider stands on a line with the king: a pin is possible
	aligned bool
}

// ThreatsTo returns the enemy's threats to c's king. The king's square
// blocks no ray to itself, so danger holds that square exactly when c is
// in check.
func (nd *Node) ThreatsTo(c board.Color) Threats {
	var th Threats
	ksq := nd.Sq[nd.king(c)]
	occ := nd.Occupied() &^ board.SquareBB(ksq)
	enemy := c.Other()
	for i := 0; i < nd.N; i++ {
		if pc := nd.Pieces[i]; pc.Color() == enemy {
			th.Danger |= board.Attacks(pc.Type(), enemy, nd.Sq[i], occ)
			if t := pc.Type(); t == board.Queen || t == board.Rook || t == board.Bishop {
				th.aligned = th.aligned || board.Attacks(t, enemy, nd.Sq[i], 0).Has(ksq)
			}
		}
	}
	return th
}

// generate appends the legal moves of the side to move that mode asks
// for (genConversions: the quiet ones are counted instead). th is
// nd.threatsTo(nd.stm).
func (nd *Node) generate(out []Move, mode genMode, th Threats) ([]Move, int) {
	countQuiet := mode == genConversions
	onlyTaking := mode == genCaptures
	quiet := 0
	c := nd.Stm
	occ := nd.Occupied()
	own := nd.colorBB(c)
	king := nd.king(c)
	ksq := nd.Sq[king]
	// what the full legality test can be spared: the squares the king may
	// not step to, and which men are pinned
	enemy := c.Other()
	danger, aligned := th.Danger, th.aligned
	var pinned [PlanMen]bool
	check := danger.Has(ksq)
	if aligned && !check {
		for i := 0; i < nd.N; i++ {
			if nd.Pieces[i].Color() == c && i != king {
				pinned[i] = nd.Attacked(ksq, enemy, occ&^board.SquareBB(nd.Sq[i]), -1)
			}
		}
	}
	for i := 0; i < nd.N; i++ {
		pc := nd.Pieces[i]
		if pc.Color() != c {
			continue
		}
		from := nd.Sq[i]
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
				out = append(out, Move{Slot: int8(i), Capture: nd.At(to), To: to})
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
				m := Move{Slot: int8(i), Capture: nd.At(to), To: to}
				if legal {
					out = append(out, m)
					continue
				}
				n := len(out)
				out = nd.addIfLegal(out, m, king, occ)
				if countQuiet && len(out) > n && m.Capture < 0 {
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
			out = nd.addPawn(out, Move{Slot: int8(i), Capture: -1, To: push}, king, occ, last)
			if int(from)/8 == start && !occ.Has(push+dir) {
				out = nd.addIfLegal(out, Move{Slot: int8(i), Capture: -1, To: push + dir, Double: true}, king, occ)
			}
		}
		caps := board.PawnAttacks(c, from)
		for t := caps & nd.colorBB(c.Other()); t != 0; {
			to := t.PopFirst()
			out = nd.addPawn(out, Move{Slot: int8(i), Capture: nd.At(to), To: to}, king, occ, last)
		}
		if nd.Ep != board.NoSquare && caps.Has(nd.Ep) {
			victim := nd.At(nd.Ep - dir)
			if victim >= 0 && nd.Pieces[victim] == board.MakePiece(c.Other(), board.Pawn) {
				out = nd.addIfLegal(out, Move{Slot: int8(i), Capture: victim, To: nd.Ep, Ep: true}, king, occ)
			}
		}
	}
	return out, quiet
}

func (nd *Node) addPawn(out []Move, m Move, king int, occ board.Bitboard, last int) []Move {
	if int(m.To)/8 != last {
		return nd.addIfLegal(out, m, king, occ)
	}
	n := len(out)
	out = nd.addIfLegal(out, m, king, occ)
	if len(out) == n {
		return out
	}
	out = out[:n]
	for _, t := range Promotions {
		m.Promo = t
		out = append(out, m)
	}
	return out
}

// Promotions are the pieces a pawn may become, strongest first.
var Promotions = [4]board.PieceType{board.Queen, board.Rook, board.Bishop, board.Knight}

// At returns the slot of the man on s, or -1.
func (nd *Node) At(s board.Square) int8 {
	for i := 0; i < nd.N; i++ {
		if nd.Sq[i] == s {
			return int8(i)
		}
	}
	return -1
}

func (nd *Node) addIfLegal(out []Move, m Move, king int, occ board.Bitboard) []Move {
	from := nd.Sq[m.Slot]
	after := occ&^board.SquareBB(from) | board.SquareBB(m.To)
	if m.Ep {
		after &^= board.SquareBB(nd.Sq[m.Capture])
	}
	ks := nd.Sq[king]
	if int(m.Slot) == king {
		ks = m.To
	}
	// the moved man is on m.to; enemy men see the new occupancy
	if nd.attackedAfter(ks, nd.Stm.Other(), after, int(m.Capture)) {
		return out
	}
	return append(out, m)
}

// attackedAfter is attacked for a position after a move: the captured
// man is left out, and no man stands on a square the mover left.
func (nd *Node) attackedAfter(s board.Square, c board.Color, occ board.Bitboard, skip int) bool {
	return nd.Attacked(s, c, occ, skip)
}

// Play returns the node after m.
func (nd *Node) Play(m Move) Node {
	ch := *nd
	ch.Sq[m.Slot] = m.To
	if m.Promo != board.NoPieceType {
		ch.Pieces[m.Slot] = board.MakePiece(nd.Stm, m.Promo)
	}
	if m.Capture >= 0 {
		last := ch.N - 1
		ch.Pieces[m.Capture], ch.Sq[m.Capture] = ch.Pieces[last], ch.Sq[last]
		ch.N--
	}
	ch.Stm = nd.Stm.Other()
	ch.Ep = board.NoSquare
	if m.Double {
		ch.Ep = (nd.Sq[m.Slot] + m.To) / 2
	}
	return ch
}

// MaterialKey packs the count of each coloured piece type (3 bits each):
// two nodes have the same material exactly when their keys are equal.
func (nd *Node) MaterialKey() uint32 {
	var k uint32
	for i := 0; i < nd.N; i++ {
		k += 1 << (3 * (uint(nd.Pieces[i].Color())*6 + uint(nd.Pieces[i].Type()) - 1))
	}
	return k
}

// FEN writes the node as a FEN (clocks 0 1).
func (nd *Node) FEN() string {
	var grid [64]board.Piece
	for i := 0; i < nd.N; i++ {
		grid[nd.Sq[i]] = nd.Pieces[i]
	}
	ep := "-"
	if nd.Ep != board.NoSquare {
		ep = nd.Ep.String()
	}
	return board.Placement(&grid) + " " + nd.Stm.String() + " - " + ep + " 0 1"
}
