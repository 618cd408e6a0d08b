package generate

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"mateline.dev/mateline/dtm/tablefile"
)

// TestDecidedRow checks decidedRow, eight positions a word, against the
// rule position by position: a conversion code (0 none, 1 a draw, else a
// value) that gives the position's value.
func TestDecidedRow(t *testing.T) {
	cases := []struct {
		name   string
		capc   byte
		vb     byte
		wanted bool
	}{
		{"no conversion, drawn", 0, 0, false},
		{"no conversion, mated", 0, 1, false},
		{"a drawing conversion, drawn", 1, 0, true},
		{"a drawing conversion, mated now", 1, 1, false},
		{"a win converted, the same win", 6, 6, true},
		{"a win converted, a shorter win", 6, 4, false},
		{"a loss converted, drawn", 9, 0, false},
		{"the longest code", 255, 255, true},
	}
	for _, c := range cases {
		for f := 0; f < 64; f += 13 {
			var capc, vb [64]byte
			capc[f], vb[f] = c.capc, c.vb
			got := decidedRow(capc[:], vb[:])
			want := uint64(0)
			if c.wanted {
				want = 1 << f
			}
			if got != want {
				t.Errorf("%s at %d: got %#x, want %#x", c.name, f, got, want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		var capc, vb [64]byte
		for i := range capc {
			// small codes, so that equal bytes and the draw's code are common
			capc[i], vb[i] = byte(rng.IntN(4)), byte(rng.IntN(4))
			if rng.IntN(8) == 0 {
				capc[i], vb[i] = byte(rng.Uint32()), byte(rng.Uint32())
			}
		}
		want := uint64(0)
		for f := range capc {
			if c := capc[f]; c != 0 && convValue(c) == tablefile.Value(vb[f]) {
				want |= 1 << f
			}
		}
		if got := decidedRow(capc[:], vb[:]); got != want {
			t.Fatalf("row %d: got %#x, want %#x (%d differ)", n, got, want, bits.OnesCount64(got^want))
		}
	}
}
