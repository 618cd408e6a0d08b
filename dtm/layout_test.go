package dtm

import (
	"math/rand"
	"testing"

	"mateline.dev/mateline/board"
)

// TestSliceGroups checks that slices are solved in runs of equal pawn
// advancement that cover the table, and how many runs each layout has.
func TestSliceGroups(t *testing.T) {
	for _, c := range []struct {
		sig            string
		slices, groups int
	}{
		{"KQvKR", 1, 1},
		{"KQvKP", 24, 6},     // four files, six ranks
		{"KPvKP", 1128, 11},  // 48*47/2; advancements 0..10, each under 4 M positions
		{"KPPvK", 576, 11},   // (48*47/2 + 24 symmetric) / 2
		{"KRPvKR", 24, 24},   // slices of 16.8 M positions: one each
		{"KPPvKP", 25944, 0}, // checked below: runs of at most 16 slices
	} {
		m, _ := ParseMaterial(c.sig)
		l := newLayout(m)
		g := l.sliceGroups()
		if len(l.slices) != c.slices {
			t.Errorf("%s: %d slices, want %d", c.sig, len(l.slices), c.slices)
		}
		if c.groups > 0 && len(g) != c.groups {
			t.Errorf("%s: %d groups, want %d", c.sig, len(g), c.groups)
		}
		next := 0
		for _, r := range g {
			if r[0] != next || r[1] <= r[0] {
				t.Fatalf("%s: group %v after %d", c.sig, r, next)
			}
			if r[1]-r[0] > 1 && int64(r[1]-r[0])*l.perSlice > groupPositions {
				t.Errorf("%s: group %v holds %d positions", c.sig, r, int64(r[1]-r[0])*l.perSlice)
			}
			for s := r[0]; s < r[1]; s++ {
				if l.advance[s] != l.advance[r[0]] {
					t.Errorf("%s: group %v mixes advancements %d and %d", c.sig, r, l.advance[r[0]], l.advance[s])
				}
			}
			next = r[1]
		}
		if next != len(l.slices) {
			t.Errorf("%s: groups end at %d of %d slices", c.sig, next, len(l.slices))
		}
	}
}

// TestCanonicalAndSteps checks the set-up's and the backward step's
// shortcuts against the full index: canonical against index, on every
// kind of layout, and kingStep against index for every king move of
// random pawnless positions.
func TestCanonicalAndSteps(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, sig := range []string{"KQvKR", "KBBvK", "KQvKP", "KPvKP", "KPPvK", "KRRvKR", "KBNvKN"} {
		m, _ := ParseMaterial(sig)
		l := newLayout(m)
		steps := 0
		for i := 0; i < 20000; i++ {
			idx := r.Int63n(l.size)
			sq := l.decode(idx)
			var occ board.Bitboard
			distinct := true
			for k := 0; k < l.men; k++ {
				distinct = distinct && !occ.Has(sq[k])
				occ |= board.SquareBB(sq[k])
			}
			if !distinct {
				continue
			}
			c, ok := l.index(&sq)
			if got, want := l.canonical(idx, &sq), ok && c == idx; got != want {
				t.Fatalf("%s: canonical(%d) = %v, index gives %d %v", sig, idx, got, c, ok)
			}
			if !ok || c != idx || len(l.pawns) > 0 {
				continue
			}
			for slot := 0; slot < 2; slot++ {
				for to := board.KingAttacks(sq[slot]) &^ occ; to != 0; {
					s := to.PopFirst()
					x, ok := l.kingStep(idx, &sq, slot, s)
					if !ok {
						continue
					}
					steps++
					moved := sq
					moved[slot] = s
					if want, _ := l.index(&moved); x != want {
						t.Fatalf("%s: king %d to %v from %d: %d, want %d", sig, slot, s, idx, x, want)
					}
				}
			}
		}
		if len(l.pawns) == 0 && steps < 1000 {
			t.Errorf("%s: only %d king steps checked", sig, steps)
		}
	}
}

// TestCodeSets checks that a block remembers the values added in it and
// no others.
func TestCodeSets(t *testing.T) {
	c := newCodeSets(3*blockSize + 5)
	c.add(0, 7)
	c.add(blockSize-1, 200)
	c.add(3*blockSize+4, 64)
	for _, x := range []struct {
		i    int64
		v    uint8
		want bool
	}{
		{5, 7, true}, {5, 200, true}, {5, 64, false}, {blockSize, 7, false},
		{3 * blockSize, 64, true}, {3*blockSize + 4, 63, false}, {2 * blockSize, 0, false},
	} {
		if got := c.has(x.i, x.v); got != x.want {
			t.Errorf("has(%d, %d) = %v, want %v", x.i, x.v, got, x.want)
		}
	}
}

// TestRowStored: a row's stored slots, read at once, are those stored()
// finds index by index, in every row whose kings admit only the identity
// (every row of the four-man tables, every 31st of the five-man ones).
func TestRowStored(t *testing.T) {
	for _, sig := range []string{"KQvK", "KNNvK", "KBBvK", "KQvKR", "KNNvKN", "KRRRvK", "KQQvKQ", "KBNvKN"} {
		m, _ := ParseMaterial(sig)
		l := newLayout(m)
		step := int64(64)
		if l.men == 5 {
			step = 31 * 64
		}
		rows := 0
		for idx := int64(0); idx < l.size; idx += step {
			kk := kkPairs[idx/l.kkWeight]
			if tr := kkTransforms[kk[0]][kk[1]]; tr&(tr-1) != 0 {
				continue
			}
			got := l.rowStored(idx)
			for j := int64(0); j < 64; j++ {
				if _, ok := l.stored(idx + j); ok != (got>>j&1 == 1) {
					t.Fatalf("%s index %d: row says %v, stored %v", sig, idx+j, !ok, ok)
				}
			}
			rows++
		}
		if rows == 0 {
			t.Fatalf("%s: no row checked", sig)
		}
	}
}
