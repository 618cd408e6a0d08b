package board

import "math/bits"

// Attack tables. Sliding attacks use "fancy" magic bitboards: the magic
// numbers (magics_gen.go) and the attack table they index (attacks_gen.go,
// 107,648 entries) are generated code, written by "go generate ./board"
// from the deterministic search in initMagics; TestGeneratedTables checks
// that they are current. The small tables (leapers, rays, lines between
// squares: 34 KiB) are filled by init from a few lines of code in about
// 70 microseconds, and are easier to trust as code than as numbers.

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard
	// between[a][b] holds the squares strictly between a and b when they
	// share a rank, file or diagonal, else nothing.
	between [64][64]Bitboard
	// line[a][b] holds the whole line through a and b when they share a
	// rank, file or diagonal, else nothing.
	line [64][64]Bitboard
)

type magic struct {
	mask   Bitboard
	number uint64
	shift  uint8
	table  []Bitboard
}

var (
	rookMagics   [64]magic
	bishopMagics [64]magic
)

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

//go:generate go test -run ^TestGeneratedTables$ -generate

// init fills the small tables and points each square's magic at its part
// of the generated attack table.
func init() {
	initLeapers()
	initRays()
	// The tables were generated with the magic numbers (go generate):
	// start-up only points each square at its part, and a search touches
	// the pages it needs. Should they not match, they are computed.
	n := useTables(&rookMagics, rookDirs, &rookMagicNumbers, attackTable[:])
	if n < 0 || useTables(&bishopMagics, bishopDirs, &bishopMagicNumbers, attackTable[n:]) < 0 {
		initMagics(&rookMagics, rookDirs, &rookMagicNumbers)
		initMagics(&bishopMagics, bishopDirs, &bishopMagicNumbers)
	}
	initLines()
}

// useTables points the magics of every square into tables, in square
// order, and returns how many entries they took, or -1 when tables is too
// short.
func useTables(magics *[64]magic, dirs [4][2]int, known *[64]uint64, tables []Bitboard) int {
	used := 0
	for s := Square(0); s < 64; s++ {
		m := &magics[s]
		m.mask = relevantMask(s, dirs)
		n := m.mask.Count()
		if used+1<<n > len(tables) || known[s] == 0 {
			return -1
		}
		m.shift, m.number = uint8(64-n), known[s]
		m.table = tables[used : used+1<<n : used+1<<n]
		used += 1 << n
	}
	return used
}

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

func initLeapers() {
	knightSteps := [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	kingSteps := [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	for s := Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		for _, d := range knightSteps {
			if onBoard(f+d[0], r+d[1]) {
				knightAttacks[s] |= SquareBB(MakeSquare(f+d[0], r+d[1]))
			}
		}
		for _, d := range kingSteps {
			if onBoard(f+d[0], r+d[1]) {
				kingAttacks[s] |= SquareBB(MakeSquare(f+d[0], r+d[1]))
			}
		}
		pawnAttacks[White][s] = pawnAttacksBB(White, SquareBB(s))
		pawnAttacks[Black][s] = pawnAttacksBB(Black, SquareBB(s))
	}
}

// slidingAttacks walks each direction until the edge or a blocker; it is
// the slow reference the magic tables are built from.
func slidingAttacks(s Square, occ Bitboard, dirs [4][2]int) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for onBoard(f, r) {
			sq := SquareBB(MakeSquare(f, r))
			att |= sq
			if occ&sq != 0 {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return att
}

// relevantMask returns the squares whose occupancy can change the attacks
// from s: the rays without their last square.
func relevantMask(s Square, dirs [4][2]int) Bitboard {
	var m Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for onBoard(f+d[0], r+d[1]) {
			m |= SquareBB(MakeSquare(f, r))
			f, r = f+d[0], r+d[1]
		}
	}
	return m
}

// xorshift is a small deterministic generator for magic search and Zobrist keys.
type xorshift uint64

func (x *xorshift) next() uint64 {
	*x ^= *x >> 12
	*x ^= *x << 25
	*x ^= *x >> 27
	return uint64(*x) * 2685821657736338717
}

func (x *xorshift) sparse() uint64 { return x.next() & x.next() & x.next() }

// rays[d][s] are the squares from s to the edge in direction d (rookDirs
// then bishopDirs), s itself left out; positive says whether a direction
// runs to higher square numbers.
var (
	rays     [8][64]Bitboard
	positive [8]bool
)

func initRays() {
	for i, d := range append(rookDirs[:], bishopDirs[:]...) {
		positive[i] = d[1] > 0 || d[1] == 0 && d[0] > 0
		for s := Square(0); s < 64; s++ {
			f, r := s.File()+d[0], s.Rank()+d[1]
			for onBoard(f, r) {
				rays[i][s] |= SquareBB(MakeSquare(f, r))
				f, r = f+d[0], r+d[1]
			}
		}
	}
}

// rayAttacks is slidingAttacks from the rays: each ray is cut behind its
// first blocker. first is 0 for the rook's directions, 4 for the bishop's.
func rayAttacks(s Square, occ Bitboard, first int) Bitboard {
	var att Bitboard
	for i := first; i < first+4; i++ {
		ray := rays[i][s]
		if blockers := ray & occ; blockers != 0 {
			var b Square
			if positive[i] {
				b = blockers.First()
			} else {
				b = Square(63 - bits.LeadingZeros64(uint64(blockers)))
			}
			ray &^= rays[i][b]
		}
		att |= ray
	}
	return att
}

// initMagics fills the magic tables. Each square first tries its number
// from known (magics_gen.go, written by go generate); a number that does
// not work (or a zero) falls back to the search, which takes about half a
// second for all rook squares. All squares' tables share one allocation.
func initMagics(magics *[64]magic, dirs [4][2]int, known *[64]uint64) {
	first := 0
	if dirs == bishopDirs {
		first = 4
	}
	rng := xorshift(0x9e3779b97f4a7c15)
	total := 0
	for s := Square(0); s < 64; s++ {
		magics[s].mask = relevantMask(s, dirs)
		total += 1 << magics[s].mask.Count()
	}
	tables := make([]Bitboard, total)
	occs := make([]Bitboard, 4096)
	refs := make([]Bitboard, 4096)
	// used[idx] == attempt marks a slot filled in this attempt; attempts
	// count on across squares, so the marks need no clearing.
	used := make([]int32, 4096)
	attempt := int32(0)
	for s := Square(0); s < 64; s++ {
		m := &magics[s]
		n := m.mask.Count()
		m.shift = uint8(64 - n)
		size := 0
		// Enumerate every subset of the mask (carry-rippler).
		for sub := Bitboard(0); ; {
			occs[size] = sub
			refs[size] = rayAttacks(s, sub, first)
			size++
			sub = (sub - m.mask) & m.mask
			if sub == 0 {
				break
			}
		}
		m.table, tables = tables[:1<<n:1<<n], tables[1<<n:]
		if number := known[s]; number != 0 {
			// The generated numbers are right (TestKnownMagics checks each
			// one): fill the table without checking for collisions.
			m.number = number
			for i := 0; i < size; i++ {
				m.table[(uint64(occs[i])*number)>>m.shift] = refs[i]
			}
			continue
		}
		for {
			attempt++
			m.number = rng.sparse()
			if bits.OnesCount64((uint64(m.mask)*m.number)&0xff00000000000000) < 6 {
				continue
			}
			ok := true
			for i := 0; i < size && ok; i++ {
				idx := (uint64(occs[i]) * m.number) >> m.shift
				if used[idx] != attempt {
					used[idx] = attempt
					m.table[idx] = refs[i]
				} else if m.table[idx] != refs[i] {
					ok = false
				}
			}
			if ok {
				break
			}
		}
	}
}

func initLines() {
	for a := Square(0); a < 64; a++ {
		for _, kind := range []struct {
			first int
			dirs  [4][2]int
		}{{0, rookDirs}, {4, bishopDirs}} {
			first, dirs := kind.first, kind.dirs
			for _, d := range dirs {
				f, r := a.File()+d[0], a.Rank()+d[1]
				var path Bitboard
				for onBoard(f, r) {
					b := MakeSquare(f, r)
					between[a][b] = path
					path |= SquareBB(b)
					f, r = f+d[0], r+d[1]
				}
			}
			fromA := rayAttacks(a, 0, first)
			for b := Square(0); b < 64; b++ {
				if a != b && fromA.Has(b) {
					line[a][b] = fromA&rayAttacks(b, 0, first) | SquareBB(a) | SquareBB(b)
				}
			}
		}
	}
}

// RookAttacks returns the squares a rook on s attacks given occupancy occ.
func RookAttacks(s Square, occ Bitboard) Bitboard {
	m := &rookMagics[s]
	return m.table[(uint64(occ&m.mask)*m.number)>>m.shift]
}

// BishopAttacks returns the squares a bishop on s attacks given occupancy occ.
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &bishopMagics[s]
	return m.table[(uint64(occ&m.mask)*m.number)>>m.shift]
}

// QueenAttacks returns the squares a queen on s attacks given occupancy occ.
func QueenAttacks(s Square, occ Bitboard) Bitboard {
	return RookAttacks(s, occ) | BishopAttacks(s, occ)
}

// Between returns the squares strictly between a and b when they share a
// rank, file or diagonal, else the empty set.
func Between(a, b Square) Bitboard { return between[a][b] }

// Line returns the whole line (rank, file or diagonal, edge to edge)
// through a and b when they share one, else the empty set.
func Line(a, b Square) Bitboard { return line[a][b] }

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s Square) Bitboard { return knightAttacks[s] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) Bitboard { return kingAttacks[s] }

// PawnAttacks returns the squares a pawn of colour c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return pawnAttacks[c][s] }

// Attacks returns the squares a piece of type t and colour c on s attacks.
func Attacks(t PieceType, c Color, s Square, occ Bitboard) Bitboard {
	switch t {
	case Pawn:
		return pawnAttacks[c][s]
	case Knight:
		return knightAttacks[s]
	case Bishop:
		return BishopAttacks(s, occ)
	case Rook:
		return RookAttacks(s, occ)
	case Queen:
		return QueenAttacks(s, occ)
	case King:
		return kingAttacks[s]
	}
	return 0
}
