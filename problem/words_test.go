package problem

import "testing"

func TestNoMateIn(t *testing.T) {
	for n, want := range map[int]string{1: "no mate in 1 move", 2: "no mate in 2 moves or fewer", 17: "no mate in 17 moves or fewer"} {
		if got := NoMateIn(n); got != want {
			t.Errorf("NoMateIn(%d) = %q, want %q", n, got, want)
		}
	}
}
