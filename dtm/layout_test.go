package dtm

import (
	"math/rand"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
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
		m, _ := tablefile.ParseMaterial(c.sig)
		l := tablefile.NewLayout(m)
		g := l.SliceGroups()
		if len(l.Slices) != c.slices {
			t.Errorf("%s: %d slices, want %d", c.sig, len(l.Slices), c.slices)
		}
		if c.groups > 0 && len(g) != c.groups {
			t.Errorf("%s: %d groups, want %d", c.sig, len(g), c.groups)
		}
		next := 0
		for _, r := range g {
			if r[0] != next || r[1] <= r[0] {
				t.Fatalf("%s: group %v after %d", c.sig, r, next)
			}
			if r[1]-r[0] > 1 && int64(r[1]-r[0])*l.PerSlice > tablefile.GroupPositions {
				t.Errorf("%s: group %v holds %d positions", c.sig, r, int64(r[1]-r[0])*l.PerSlice)
			}
			for s := r[0]; s < r[1]; s++ {
				if l.Advance[s] != l.Advance[r[0]] {
					t.Errorf("%s: group %v mixes advancements %d and %d", c.sig, r, l.Advance[r[0]], l.Advance[s])
				}
			}
			next = r[1]
		}
		if next != len(l.Slices) {
			t.Errorf("%s: groups end at %d of %d slices", c.sig, next, len(l.Slices))
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
		m, _ := tablefile.ParseMaterial(sig)
		l := tablefile.NewLayout(m)
		steps := 0
		for i := 0; i < 20000; i++ {
			idx := r.Int63n(l.Size)
			sq := l.Decode(idx)
			var occ board.Bitboard
			distinct := true
			for k := 0; k < l.Men; k++ {
				distinct = distinct && !occ.Has(sq[k])
				occ |= board.SquareBB(sq[k])
			}
			if !distinct {
				continue
			}
			c, ok := l.Index(&sq)
			if got, want := l.Canonical(idx, &sq), ok && c == idx; got != want {
				t.Fatalf("%s: canonical(%d) = %v, index gives %d %v", sig, idx, got, c, ok)
			}
			if !ok || c != idx || len(l.Pawns) > 0 {
				continue
			}
			for slot := 0; slot < 2; slot++ {
				for to := board.KingAttacks(sq[slot]) &^ occ; to != 0; {
					s := to.PopFirst()
					x, ok := l.KingStep(idx, &sq, slot, s)
					if !ok {
						continue
					}
					steps++
					moved := sq
					moved[slot] = s
					if want, _ := l.Index(&moved); x != want {
						t.Fatalf("%s: king %d to %v from %d: %d, want %d", sig, slot, s, idx, x, want)
					}
				}
			}
		}
		if len(l.Pawns) == 0 && steps < 1000 {
			t.Errorf("%s: only %d king steps checked", sig, steps)
		}
	}
}

// TestRowStored: a row's stored slots, read at once, are those stored()
// finds index by index, in every row whose kings admit only the identity
// (every row of the four-man tables, every 31st of the five-man ones).
func TestRowStored(t *testing.T) {
	for _, sig := range []string{"KQvK", "KNNvK", "KBBvK", "KQvKR", "KNNvKN", "KRRRvK", "KQQvKQ", "KBNvKN"} {
		m, _ := tablefile.ParseMaterial(sig)
		l := tablefile.NewLayout(m)
		step := int64(64)
		if l.Men == 5 {
			step = 31 * 64
		}
		rows := 0
		for idx := int64(0); idx < l.Size; idx += step {
			kk := tablefile.KkPairs[idx/l.KkWeight]
			if tr := tablefile.KkTransforms[kk[0]][kk[1]]; tr&(tr-1) != 0 {
				continue
			}
			got := l.RowStored(idx)
			for j := int64(0); j < 64; j++ {
				if _, ok := l.Stored(idx + j); ok != (got>>j&1 == 1) {
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
