package endgame

// Constant tables of the index encoding.
var (
	binomial [64][8]uint64
	triangle [64]int // triangle code of a1-d1-d4 squares, -1 elsewhere
	lower    [64]int // number of each square below the diagonal, -1 elsewhere
	kkIndex  [10][64]int
	flapOf   [64]int
	twistOf  [64]int
	leadIdx  [7][24]uint64 // [k][flap]
	leadSize [7][4]uint64  // [k][file]
)

func fileOf(s int) int { return s & 7 }
func rankOf(s int) int { return s >> 3 }

func transpose(s int) int { return ((s >> 3) | (s << 3)) & 63 }

// init computes the constant tables of the index encoding (binomials, the
// triangle and diagonal codes, the king-pair index, the pawn file tables):
// a few thousand entries in microseconds, each derived in the open from
// the rule the format notes (docs/syzygy.md) state, which a generated
// table would hide.
func init() {
	for n := 0; n < 64; n++ {
		binomial[n][0] = 1
		for k := 1; k < 8 && k <= n; k++ {
			binomial[n][k] = binomial[n-1][k-1] + binomial[n-1][k]
		}
	}
	for s := range triangle {
		triangle[s], lower[s] = -1, -1
	}
	// b1 c1 d1 c2 d2 d3, then the diagonal a1 b2 c3 d4.
	for code, name := range []string{"b1", "c1", "d1", "c2", "d2", "d3", "a1", "b2", "c3", "d4"} {
		triangle[int(name[0]-'a')+8*int(name[1]-'1')] = code
	}
	n := 0
	for s := 0; s < 64; s++ {
		if fileOf(s) > rankOf(s) {
			lower[s] = n
			n++
		}
	}
	adjacent := func(a, b int) bool {
		df, dr := fileOf(a)-fileOf(b), rankOf(a)-rankOf(b)
		return df >= -1 && df <= 1 && dr >= -1 && dr <= 1
	}
	squareOfTriangle := [10]int{}
	for s := 0; s < 64; s++ {
		if triangle[s] >= 0 {
			squareOfTriangle[triangle[s]] = s
		}
	}
	for t := range kkIndex {
		for s := range kkIndex[t] {
			kkIndex[t][s] = -1
		}
	}
	c := 0
	for t := 0; t < 6; t++ {
		p0 := squareOfTriangle[t]
		for s := 0; s < 64; s++ {
			if s != p0 && !adjacent(s, p0) {
				kkIndex[t][s] = c
				c++
			}
		}
	}
	for t := 6; t < 10; t++ {
		p0 := squareOfTriangle[t]
		for s := 0; s < 64; s++ {
			if fileOf(s) > rankOf(s) && !adjacent(s, p0) {
				kkIndex[t][s] = c
				c++
			}
		}
	}
	for t := 6; t < 10; t++ {
		p0 := squareOfTriangle[t]
		for d := 0; d < 8; d++ {
			s := 9 * d
			if s != p0 && !adjacent(s, p0) {
				kkIndex[t][s] = c
				c++
			}
		}
	}
	for s := 8; s < 56; s++ {
		f, r := fileOf(s), rankOf(s)
		e := min(f, 7-f)
		flapOf[s] = 6*e + r - 1
		tw := 12*(3-e) + 2*(6-r)
		if f < 4 {
			tw++
		}
		twistOf[s] = tw
	}
	for k := 1; k <= 6; k++ {
		for f := 0; f < 4; f++ {
			var acc uint64
			for r := 1; r <= 6; r++ {
				s := 8*r + f
				leadIdx[k][flapOf[s]] = acc
				acc += binomial[twistOf[s]][k-1]
			}
			leadSize[k][f] = acc
		}
	}
}

// setupGroups splits the piece list into groups and computes the factors
// and the section size. file is the pawn file (0 for pawnless tables).
func (s *section) setupGroups(file int) error {
	n := len(s.pieces)
	var first int
	if s.lead > 0 {
		first = s.lead
	} else {
		unique := 0
		for _, c := range s.pieces {
			count := 0
			for _, d := range s.pieces {
				if d == c {
					count++
				}
			}
			if count == 1 {
				unique++
			}
		}
		first = 2
		if unique >= 3 {
			first = 3
		} else {
			s.kk = true
		}
	}
	s.groups = []int{first}
	i := first
	if s.lead > 0 && s.otherPwn > 0 {
		s.groups = append(s.groups, s.otherPwn)
		i += s.otherPwn
	}
	for i < n {
		j := i + 1
		for j < n && s.pieces[j] == s.pieces[i] {
			j++
		}
		s.groups = append(s.groups, j-i)
		i = j
	}
	if i != n || n > 7 {
		return corruptf("piece list of %d pieces does not split into groups", n)
	}
	placements := make([]uint64, len(s.groups))
	free := 64
	for g, size := range s.groups {
		switch {
		case g == 0 && s.lead > 0:
			placements[g] = leadSize[s.lead][file]
		case g == 0 && s.kk:
			placements[g] = 462
		case g == 0:
			placements[g] = 31332
		case g == 1 && s.lead > 0 && s.otherPwn > 0:
			placements[g] = binomial[48-s.lead][size]
		default:
			placements[g] = binomial[free][size]
		}
		free -= size
	}
	s.factors = make([]uint64, len(s.groups))
	hasGroup1 := s.lead > 0 && s.otherPwn > 0
	mult := uint64(1)
	next := 1
	if hasGroup1 {
		next = 2
	}
	done := 0
	for pos := 0; done < len(s.groups); pos++ {
		switch {
		case pos == s.order:
			s.factors[0] = mult
			mult *= placements[0]
		case hasGroup1 && pos == s.order2:
			s.factors[1] = mult
			mult *= placements[1]
		default:
			if next >= len(s.groups) {
				return corruptf("order %d/%d does not fit %d groups", s.order, s.order2, len(s.groups))
			}
			s.factors[next] = mult
			mult *= placements[next]
			next++
		}
		done++
		if pos > 16 {
			return corruptf("order %d/%d does not fit %d groups", s.order, s.order2, len(s.groups))
		}
	}
	s.tbSize = mult
	return nil
}

// encode computes the index of the squares p (in piece-list order, already
// normalised as the table kind requires, leading pawn first).
func (s *section) encode(p []int, file int) uint64 {
	var idx uint64
	g0 := s.groups[0]
	switch {
	case s.lead > 0:
		k := s.lead
		// sort p[1:k] by twist, descending (insertion sort: at most 5)
		for a := 2; a < k; a++ {
			for b := a; b > 1 && twistOf[p[b]] > twistOf[p[b-1]]; b-- {
				p[b], p[b-1] = p[b-1], p[b]
			}
		}
		g := leadIdx[k][flapOf[p[0]]]
		for i := 1; i < k; i++ {
			g += binomial[twistOf[p[i]]][k-i]
		}
		idx = g * s.factors[0]
	case s.kk:
		idx = uint64(kkIndex[triangle[p[0]]][p[1]]) * s.factors[0]
	default:
		idx = encode111(p[0], p[1], p[2]) * s.factors[0]
	}
	start := g0
	for g := 1; g < len(s.groups); g++ {
		size := s.groups[g]
		grp := p[start : start+size]
		for a := 1; a < len(grp); a++ {
			for b := a; b > 0 && grp[b] < grp[b-1]; b-- {
				grp[b], grp[b-1] = grp[b-1], grp[b]
			}
		}
		pawnGroup := g == 1 && s.lead > 0 && s.otherPwn > 0
		var v uint64
		for j, sq := range grp {
			below := 0
			for _, e := range p[:start] {
				if e < sq {
					below++
				}
			}
			x := sq - below
			if pawnGroup {
				x -= 8
			}
			v += binomial[x][j+1]
		}
		idx += v * s.factors[g]
		start += size
	}
	return idx
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// encode111 indexes three pieces on distinct squares, the first in the
// a1-d1-d4 triangle.
func encode111(p0, p1, p2 int) uint64 {
	x1 := b2i(p1 > p0)
	x2 := b2i(p2 > p0) + b2i(p2 > p1)
	off := func(s int) bool { return fileOf(s) != rankOf(s) }
	var g int
	switch {
	case off(p0):
		g = triangle[p0]*63*62 + (p1-x1)*62 + (p2 - x2)
	case off(p1):
		g = 6*63*62 + rankOf(p0)*28*62 + lower[p1]*62 + (p2 - x2)
	case off(p2):
		g = 6*63*62 + 4*28*62 + rankOf(p0)*7*28 + (rankOf(p1)-x1)*28 + lower[p2]
	default:
		g = 6*63*62 + 4*28*62 + 4*7*28 + rankOf(p0)*7*6 + (rankOf(p1)-x1)*6 + (rankOf(p2) - x2)
	}
	return uint64(g)
}
