package tablefile

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// testLayout is the layout of the table of signature sig.
func testLayout(t *testing.T, sig string) *Layout {
	t.Helper()
	mat, err := ParseMaterial(sig)
	if err != nil {
		t.Fatal(err)
	}
	return NewLayout(mat)
}

// TestWideValues checks the two-byte values against their meaning, for
// every mate up to MaxWideMoves: a one-byte value is unchanged, every
// value is a win or a loss of its length and no other, its plies and
// the value one move earlier agree with its moves, and a move's value
// keeps the order of the side that picks it.
func TestWideValues(t *testing.T) {
	seen := map[Value]string{Draw: "draw"}
	for n := 0; n <= MaxWideMoves; n++ {
		for _, c := range []struct {
			v     Value
			win   bool
			plies int
		}{{LossIn(n), false, 2 * n}, {WinIn(n), true, 2*n - 1}} {
			v := c.v
			if n == 0 && c.win {
				continue
			}
			if prev, ok := seen[v]; ok {
				t.Fatalf("%d moves: value %d is also %s", n, v, prev)
			}
			seen[v] = v.String()
			if v.Win() != c.win || v.Loss() == c.win || v.Moves() != n || v.Plies() != c.plies || FromPlies(c.plies) != v {
				t.Errorf("%d moves, win %v: value %d: win %v loss %v moves %d plies %d", n, c.win, v, v.Win(), v.Loss(), v.Moves(), v.Plies())
			}
			if v.Wide() != (n > MaxMoves) {
				t.Errorf("value %v: wide %v", v, v.Wide())
			}
			if n <= MaxMoves && (c.win && v != Value(128+n) || !c.win && v != Value(1+n)) {
				t.Errorf("%d moves: value %d changed from its byte", n, v)
			}
			before, err := v.BeforeWide()
			switch {
			case !c.win && n == MaxWideMoves:
				if err != ErrTooLong {
					t.Errorf("mated in %d before: %v %v", n, before, err)
				}
			case err != nil:
				t.Errorf("%v before: %v", v, err)
			case c.win && before != LossIn(n), !c.win && before != WinIn(n+1):
				t.Errorf("%v before: %v", v, before)
			}
		}
	}
	// a quicker mate is better, a slower loss is better, a draw between
	order := []Value{WinIn(1), WinIn(127), WinIn(128), WinIn(262), Draw, LossIn(262), LossIn(128), LossIn(127), LossIn(0)}
	for i := 1; i < len(order); i++ {
		if !order[i-1].Better(order[i]) {
			t.Errorf("%v not better than %v", order[i-1], order[i])
		}
	}
	// exactly with Wide; for a generator of a byte a value, a mate past
	// MaxMoves counts as a draw and the position must end a win
	for _, c := range []struct {
		wide  bool
		after []Value
		want  Value
		err   error
	}{
		{true, []Value{LossIn(200), Draw, WinIn(3), LossIn(261)}, WinIn(201), nil},
		{false, []Value{LossIn(200), Draw, WinIn(3), LossIn(261)}, Draw, ErrTooLong},
		{false, []Value{LossIn(200), LossIn(3)}, WinIn(4), nil},
		{false, []Value{LossIn(MaxMoves), WinIn(2)}, Draw, ErrTooLong},
		{true, []Value{LossIn(MaxMoves), WinIn(2)}, WinIn(MaxMoves + 1), nil},
		{false, []Value{WinIn(130), WinIn(2)}, Draw, ErrTooLong}, // mated in 130: too long for a byte
		{true, []Value{WinIn(130), WinIn(2)}, LossIn(130), nil},
		{true, []Value{LossIn(MaxWideMoves), WinIn(2)}, Draw, ErrTooLong},
	} {
		b := BestMove{Wide: c.wide}
		for _, after := range c.after {
			b.Add(after)
		}
		if v, err := b.Value(); v != c.want || err != c.err {
			t.Errorf("wide %v, best of %v: %v %v, want %v %v", c.wide, c.after, v, err, c.want, c.err)
		}
	}
}

// TestWideBlocks checks a wide block's bytes: low bytes, then high
// bytes, and its longest mate.
func TestWideBlocks(t *testing.T) {
	vals := []Value{WinIn(262), Draw, LossIn(5), LossIn(261), WinIn(1)}
	pairs := make([]byte, 2*len(vals))
	for i, v := range vals {
		pairs[2*i], pairs[2*i+1] = byte(v), byte(v>>8)
	}
	got := wideBlocks(pairs, make([]byte, len(pairs)), 2) // blocks of 4: one of 4, one of 1
	for i, v := range vals {
		from, k := 0, 4
		if i >= 4 {
			from, k = 4, 1
		}
		j := i - from
		if w := Value(got[2*from+j]) | Value(got[2*from+k+j])<<8; w != v {
			t.Errorf("value %d: %v, want %v", i, w, v)
		}
	}
	if n := longestWideMate(got[:8]); n != 262 {
		t.Errorf("longest mate %d, want 262", n)
	}
}

// TestDecidedWideFile writes two-byte values, some over 255, with random
// decided and unused bits as a file of format 5, and reads it back:
// every stored position neither decided nor unused holds its value, a
// decided one a value no better than its own (the probe takes the best
// of that and its captures), and the header says the longest mate.
func TestDecidedWideFile(t *testing.T) {
	l := testLayout(t, "KQvK")
	rng := rand.New(rand.NewPCG(5, 6))
	codes := []Value{Draw, WinIn(1), LossIn(3), WinIn(127), WinIn(128), LossIn(128), WinIn(262), LossIn(261), WinIn(1000)}
	var vals [2][]Value
	var decided, unused [2][]uint64
	for s := range 2 {
		vals[s] = make([]Value, l.Size)
		for i := range vals[s] {
			vals[s][i] = codes[rng.IntN(len(codes))]
		}
		decided[s], unused[s] = make([]uint64, (l.Size+63)/64), make([]uint64, (l.Size+63)/64)
		for k := range decided[s] {
			decided[s][k], unused[s][k] = rng.Uint64()&rng.Uint64(), rng.Uint64()&rng.Uint64()&rng.Uint64()
		}
	}
	st := Stream{
		Values: func(side int, from int64, dst []byte) error {
			for i := range int64(len(dst) / 2) {
				v := vals[side][from+i]
				dst[2*i], dst[2*i+1] = byte(v), byte(v>>8)
			}
			return nil
		},
		Wide: true,
		Flags: func(side int, from int64, d, u []uint64) error {
			copy(d, decided[side][from/64:])
			copy(u, unused[side][from/64:])
			return nil
		},
		OneSide: true,
	}
	path := filepath.Join(t.TempDir(), "KQvK"+FileSuffix)
	if _, err := WriteFileFrom(path, l, st, 1<<ZOneSideShift, 2); err != nil {
		t.Fatal(err)
	}
	z, release, err := OpenCompressed(path, l, true)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	z.Cache = NewBlockCache(1 << 24)
	if h := z.Header; h.Version != ZFormatDecidedWide || !h.Wide() || !h.Decides() || h.SidesStored() != 1 || h.Longest != 1000 {
		t.Fatalf("header %+v", h)
	}
	side := int(z.Header.Sides >> 1)
	exact, filled := 0, 0
	for i := range l.Size {
		got, err := z.At(side, i)
		if err != nil {
			t.Fatal(err)
		}
		want := vals[side][i]
		d, u := decided[side][i/64]>>(i%64)&1 != 0, unused[side][i/64]>>(i%64)&1 != 0
		switch {
		case u:
		case d:
			if got.Better(want) {
				t.Fatalf("index %d (decided): %v, better than its value %v", i, got, want)
			}
			filled++
		case got != want:
			t.Fatalf("index %d: %v, want %v", i, got, want)
		default:
			exact++
		}
	}
	t.Logf("%d values exact, %d decided no better", exact, filled)
}

// TestRecompressBest: a six-man file's kept blocks, compressed again at
// zstd's best level, decode to the same bytes, and no larger.
func TestRecompressBest(t *testing.T) {
	l := testLayout(t, "KRvKN")
	rng := rand.New(rand.NewPCG(7, 8))
	st := Stream{
		Values: func(side int, from int64, dst []byte) error {
			for i := range dst {
				dst[i] = byte(rng.IntN(4)) // (runs a compressor can find)
				if i > 0 && rng.IntN(8) != 0 {
					dst[i] = dst[i-1]
				}
			}
			return nil
		},
		Flags: func(side int, from int64, d, u []uint64) error {
			clear(d)
			clear(u)
			return nil
		},
		OneSide: true,
	}
	c, err := newStreamedTable(l, st, 1<<ZOneSideShift)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.compressFrom(l, st, 1<<ZOneSideShift, 2, nil); err != nil {
		t.Fatal(err)
	}
	side := c.stored[0]
	var before [][]byte
	size := 0
	for i := range c.per {
		raw, err := zstdDecoder().DecodeAll(c.comp[side*c.per+i], nil)
		if err != nil {
			t.Fatal(err)
		}
		before = append(before, raw)
		size += len(c.comp[side*c.per+i])
	}
	if err := c.recompressBest(2); err != nil {
		t.Fatal(err)
	}
	after := 0
	for i := range c.per {
		raw, err := zstdDecoder().DecodeAll(c.comp[side*c.per+i], nil)
		if err != nil || string(raw) != string(before[i]) {
			t.Fatalf("block %d: %v, or its bytes differ", i, err)
		}
		after += len(c.comp[side*c.per+i])
	}
	if after > size {
		t.Errorf("best %d bytes, better %d", after, size)
	}
	t.Logf("%d blocks: better %d bytes, best %d", c.per, size, after)
}
