package board

// Color is the side of a piece or the side to move.
type Color uint8

// The two colours.
const (
	White Color = iota
	Black
)

// Other returns the opposite colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "w" or "b", as in FEN.
func (c Color) String() string {
	if c == White {
		return "w"
	}
	return "b"
}

// PieceType is a kind of piece without colour.
type PieceType uint8

// The piece types. NoPieceType is the zero value.
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Piece is a coloured piece: colour<<3 | type. NoPiece is the zero value.
type Piece uint8

// NoPiece marks an empty square.
const NoPiece Piece = 0

// MakePiece builds a piece from colour and type.
func MakePiece(c Color, t PieceType) Piece { return Piece(c)<<3 | Piece(t) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's colour. It is meaningless for NoPiece.
func (p Piece) Color() Color { return Color(p >> 3) }

const pieceLetters = " PNBRQK  pnbrqk"

// String returns the FEN letter of the piece, or " " for NoPiece.
func (p Piece) String() string {
	if int(p) >= len(pieceLetters) {
		return "?"
	}
	return pieceLetters[p : p+1]
}

// pieceFromLetter maps a FEN letter to a piece.
func pieceFromLetter(b byte) (Piece, bool) {
	for i := 1; i < len(pieceLetters); i++ {
		if pieceLetters[i] == b && b != ' ' {
			return Piece(i), true
		}
	}
	return NoPiece, false
}

// Square is a board square, 0 = a1, 7 = h1, 63 = h8.
type Square int8

// NoSquare marks the absence of a square (for example no en-passant square).
const NoSquare Square = 64

// Named squares used by castling.
const (
	A1 Square = 0
	B1 Square = 1
	C1 Square = 2
	D1 Square = 3
	E1 Square = 4
	F1 Square = 5
	G1 Square = 6
	H1 Square = 7
	A8 Square = 56
	B8 Square = 57
	C8 Square = 58
	D8 Square = 59
	E8 Square = 60
	F8 Square = 61
	G8 Square = 62
	H8 Square = 63
)

// MakeSquare builds a square from file (0 = a) and rank (0 = 1).
func MakeSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0 for the a-file through 7 for the h-file.
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0 for the first rank through 7 for the eighth.
func (s Square) Rank() int { return int(s) >> 3 }

// String returns the square in algebraic form, such as "e4", or "-" for NoSquare.
func (s Square) String() string {
	if s < 0 || s >= 64 {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads a square such as "e4".
func ParseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, false
	}
	return MakeSquare(int(s[0]-'a'), int(s[1]-'1')), true
}

// CastlingRights is a set of the four castling rights.
type CastlingRights uint8

// The castling rights.
const (
	WhiteKingside CastlingRights = 1 << iota
	WhiteQueenside
	BlackKingside
	BlackQueenside
	NoCastling  CastlingRights = 0
	AllCastling CastlingRights = 15
)

// String returns the FEN castling field, such as "KQkq" or "-".
func (cr CastlingRights) String() string {
	if cr == 0 {
		return "-"
	}
	var b []byte
	for i, ch := range "KQkq" {
		if cr&(1<<i) != 0 {
			b = append(b, byte(ch))
		}
	}
	return string(b)
}
