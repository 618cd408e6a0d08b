package tablefile

import "testing"

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
	var b BestMove
	for _, after := range []Value{LossIn(200), Draw, WinIn(3), LossIn(261)} {
		b.Add(after)
	}
	if v, err := b.Value(); err != nil || v != WinIn(201) {
		t.Errorf("best of the moves: %v %v, want a mate in 201", v, err)
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
