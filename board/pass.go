package board

// Pass gives the move to the other side without a move, as in a
// series-mover, where one side makes every move. The side to move must
// not be giving check (the side it passes to would capture the king): a
// series move never checks before the last.
func (p *Position) Pass() {
	if p.epCapturable() {
		p.key ^= zobristEP[p.ep.File()]
	}
	p.ep = NoSquare
	p.side = p.side.Other()
	p.key ^= zobristSide
}
