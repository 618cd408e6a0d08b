package popeye

import (
	"fmt"
	"slices"
	"strings"

	"mateline.dev/mateline/board"
)

// diagram is a problem's diagram as a problem file builds it: the men by
// square, changed by the twins.
type diagram map[board.Square]board.Piece

// pieceLetter is the English letter of a piece type.
func pieceLetter(t board.PieceType) string { return string(" PSBRQK"[t]) }

// isSquares reports whether s is one or more squares written together
// ("a2b2c2").
func isSquares(s string) bool {
	if len(s) == 0 || len(s)%2 != 0 {
		return false
	}
	for i := 0; i < len(s); i += 2 {
		if _, ok := board.ParseSquare(strings.ToLower(s[i : i+2])); !ok {
			return false
		}
	}
	return true
}

// isPieceSpec reports whether s is an orthodox man with its squares
// ("Ka3", "pa2b2c2", "Sb1g1").
func isPieceSpec(lang *language, s string) bool {
	if len(s) < 3 {
		return false
	}
	_, ok := lang.pieceType(s[0])
	return ok && isSquares(s[1:])
}

// pieceError says why s is not an orthodox man with its squares.
func pieceError(lang *language, s string) error {
	men := lang.letters()
	switch {
	case len(s) >= 3 && isSquares(s[1:]) && s[0]|0x20 == 'n' && lang == english:
		return fmt.Errorf("%q: N is Popeye's nightrider, a fairy piece; the knight is S", s)
	case len(s) >= 3 && isSquares(s[1:]):
		return fmt.Errorf("%q: %q is a fairy piece in Popeye (orthodox men in %s: %s)", s, s[:1], lang.name, men)
	case len(s) >= 4 && isSquares(s[2:]):
		return fmt.Errorf("%q: %q is a fairy piece in Popeye (orthodox men in %s: %s)", s, s[:2], lang.name, men)
	}
	return fmt.Errorf("%q is not a man and its squares (orthodox men in %s: %s, e.g. %sa3 or %sa2b2), nor a colour; piece attributes are not supported",
		s, lang.name, men, strings.ToUpper(lang.pieces[:1]), strings.ToUpper(lang.pieces[5:]))
}

// place puts the men of spec ("Pa2b2") of colour c on the board.
func (b diagram) place(lang *language, c board.Color, spec string) error {
	if !isPieceSpec(lang, spec) {
		return pieceError(lang, spec)
	}
	t, _ := lang.pieceType(spec[0])
	for i := 1; i < len(spec); i += 2 {
		sq, _ := board.ParseSquare(strings.ToLower(spec[i : i+2]))
		b[sq] = board.MakePiece(c, t)
	}
	return nil
}

func (b diagram) clone() diagram {
	out := make(diagram, len(b))
	for s, p := range b {
		out[s] = p
	}
	return out
}

// name writes a man as Popeye's twin labels do ("wRd1").
func (b diagram) name(sq board.Square) string {
	p := b[sq]
	return map[board.Color]string{board.White: "w", board.Black: "b"}[p.Color()] + pieceLetter(p.Type()) + sq.String()
}

// square reads a square argument of a twinning change.
func square(c change, s string) (board.Square, error) {
	sq, ok := board.ParseSquare(strings.ToLower(s))
	if !ok {
		return 0, perrf(c.line, "twin %s: %q is not a square", c.kind, s)
	}
	return sq, nil
}

// apply makes one twinning change, and returns its label as Popeye
// prints it.
func (b diagram) apply(lang *language, c change, stip *string) (string, error) {
	bad := func(format string, args ...any) (string, error) {
		return "", perrf(c.line, "twin %s: %s", c.kind, fmt.Sprintf(format, args...))
	}
	switch c.kind {
	case "stipulation":
		*stip = c.args[0]
		return c.args[0], nil
	case "move", "exchange":
		from, err := square(c, c.args[0])
		if err != nil {
			return "", err
		}
		to, err := square(c, c.args[1])
		if err != nil {
			return "", err
		}
		if b[from] == board.NoPiece {
			return bad("%s is empty", from)
		}
		if c.kind == "move" {
			label := b.name(from) + "-->" + to.String()
			b[to] = b[from]
			delete(b, from)
			return label, nil
		}
		if b[to] == board.NoPiece {
			return bad("%s is empty", to)
		}
		label := b.name(from) + "<-->" + b.name(to)
		b[from], b[to] = b[to], b[from]
		return label, nil
	case "remove":
		sq, err := square(c, c.args[0])
		if err != nil {
			return "", err
		}
		if b[sq] == board.NoPiece {
			return bad("%s is empty", sq)
		}
		label := "-" + b.name(sq)
		delete(b, sq)
		return label, nil
	case "add":
		colour, err := lang.keyword(c.args[0], colours)
		if err != nil || colour == "neutral" {
			return bad("want white or black, not %q", c.args[0])
		}
		col := map[string]board.Color{"white": board.White, "black": board.Black}[colour]
		if len(c.args) < 2 {
			return bad("no man to add")
		}
		var labels []string
		for _, spec := range c.args[1:] {
			if err := b.place(lang, col, spec); err != nil {
				return bad("%v", err)
			}
			for i := 1; i < len(spec); i += 2 {
				sq, _ := board.ParseSquare(strings.ToLower(spec[i : i+2]))
				labels = append(labels, "+"+b.name(sq))
			}
		}
		return strings.Join(labels, " "), nil
	case "PolishType":
		for s, p := range b {
			b[s] = board.MakePiece(p.Color().Other(), p.Type())
		}
		return "PolishType", nil
	case "substitute":
		from, ok1 := lang.pieceType(c.args[0][0])
		to, ok2 := lang.pieceType(c.args[1][0])
		if len(c.args[0]) != 1 || len(c.args[1]) != 1 || !ok1 || !ok2 {
			return bad("want two orthodox men (%s), not %q %q", lang.letters(), c.args[0], c.args[1])
		}
		for s, p := range b {
			if p.Type() == from {
				b[s] = board.MakePiece(p.Color(), to)
			}
		}
		return pieceLetter(from) + "==>" + pieceLetter(to), nil
	case "rotate", "mirror", "shift":
		f, label, err := geometry(c)
		if err != nil {
			return "", err
		}
		moved := diagram{}
		for s, p := range b {
			file, rank := f(s.File(), s.Rank())
			if file < 0 || file > 7 || rank < 0 || rank > 7 {
				return bad("%s would leave the board", b.name(s))
			}
			moved[board.MakeSquare(file, rank)] = p
		}
		for s := range b {
			delete(b, s)
		}
		for s, p := range moved {
			b[s] = p
		}
		return label, nil
	}
	return bad("not supported")
}

// geometry returns the square mapping of a rotate, mirror or shift change
// and its label.
func geometry(c change) (func(f, r int) (int, int), string, error) {
	switch c.kind {
	case "rotate":
		switch c.args[0] {
		case "90": // to the left: a8 goes to a1
			return func(f, r int) (int, int) { return 7 - r, f }, "rotate 90", nil
		case "180":
			return func(f, r int) (int, int) { return 7 - f, 7 - r }, "rotate 180", nil
		case "270":
			return func(f, r int) (int, int) { return r, 7 - f }, "rotate 270", nil
		}
		return nil, "", perrf(c.line, "twin rotate %q: want 90, 180 or 270", c.args[0])
	case "mirror":
		switch strings.ToLower(c.args[0]) {
		case "a1<-->h1":
			return func(f, r int) (int, int) { return 7 - f, r }, "mirror a1<-->h1", nil
		case "a1<-->a8":
			return func(f, r int) (int, int) { return f, 7 - r }, "mirror a1<-->a8", nil
		case "a1<-->h8":
			return func(f, r int) (int, int) { return 7 - r, 7 - f }, "mirror a1<-->h8", nil
		case "a8<-->h1":
			return func(f, r int) (int, int) { return r, f }, "mirror a8<-->h1", nil
		}
		return nil, "", perrf(c.line, "twin mirror %q: want a1<-->h1, a1<-->a8, a1<-->h8 or a8<-->h1", c.args[0])
	}
	from, err := square(c, c.args[0])
	if err != nil {
		return nil, "", err
	}
	to, err := square(c, c.args[1])
	if err != nil {
		return nil, "", err
	}
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	return func(f, r int) (int, int) { return f + df, r + dr }, "shift " + from.String() + "==>" + to.String(), nil
}

// parseForsyth reads Popeye's forsyth command: a FEN placement with the
// language's letters (in English S for a knight).
func parseForsyth(lang *language, s string) (diagram, error) {
	b := diagram{}
	ranks := strings.Split(strings.TrimSuffix(s, "/"), "/")
	if len(ranks) != 8 {
		return nil, fmt.Errorf("want 8 ranks separated by '/', got %d", len(ranks))
	}
	for i, rk := range ranks {
		rank, file := 7-i, 0
		for j := 0; j < len(rk); j++ {
			c := rk[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			t, ok := lang.pieceType(c)
			if !ok {
				if c|0x20 == 'n' && lang == english {
					return nil, fmt.Errorf("%q: N is Popeye's nightrider; the knight is S", c)
				}
				return nil, fmt.Errorf("%q is not an orthodox man (%s)", c, lang.letters())
			}
			if file > 7 {
				return nil, fmt.Errorf("rank %d is longer than 8 squares", rank+1)
			}
			col := board.White
			if c >= 'a' {
				col = board.Black
			}
			b[board.MakeSquare(file, rank)] = board.MakePiece(col, t)
			file++
		}
		if file != 8 {
			return nil, fmt.Errorf("rank %d has %d squares, not 8", rank+1, file)
		}
	}
	return b, nil
}

// fen writes the diagram as a FEN with side to move: castling allowed
// where king and rook stand on their squares and no NoCastling square
// forbids it, and the en-passant square of an EnPassant option.
func (b diagram) fen(side board.Color, noCastle, ep []board.Square) string {
	var squares [64]board.Piece
	for sq, p := range b {
		squares[sq] = p
	}
	castle := ""
	can := func(king, rook string, c board.Color) bool {
		k, _ := board.ParseSquare(king)
		r, _ := board.ParseSquare(rook)
		return b[k] == board.MakePiece(c, board.King) && b[r] == board.MakePiece(c, board.Rook) &&
			!slices.Contains(noCastle, k) && !slices.Contains(noCastle, r)
	}
	for _, cr := range []struct {
		letter, king, rook string
		c                  board.Color
	}{{"K", "e1", "h1", board.White}, {"Q", "e1", "a1", board.White}, {"k", "e8", "h8", board.Black}, {"q", "e8", "a8", board.Black}} {
		if can(cr.king, cr.rook, cr.c) {
			castle += cr.letter
		}
	}
	if castle == "" {
		castle = "-"
	}
	epText := "-"
	if len(ep) >= 3 {
		epText = ep[1].String()
	}
	return fmt.Sprintf("%s %s %s %s 0 1", board.Placement(&squares), side, castle, epText)
}

// Pieces writes the men of pos as Popeye's pieces command
// ("pieces white Ka1 Qd1 black Ke8 Pf7"), for writing problem files.
func Pieces(pos board.Position) string {
	var white, black []string
	for s := board.Square(0); s < 64; s++ {
		p := pos.PieceAt(s)
		if p == board.NoPiece {
			continue
		}
		name := pieceLetter(p.Type()) + s.String()
		if p.Color() == board.White {
			white = append(white, name)
		} else {
			black = append(black, name)
		}
	}
	return "pieces white " + strings.Join(white, " ") + " black " + strings.Join(black, " ")
}
