package report

import "testing"

// TestIsProblemFinding: the first line of every problem stipulation's
// finding is read back, whatever its first letter; a direct mate's and
// other lines are not.
func TestIsProblemFinding(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"  h#2: 3 solutions (every one)", true},
		{"  s#3: 1 key (every one): 1.Qd1-d8 !", true},
		{"  r#2: 1 key (every one): 1.Qd4-b6 + !", true},
		{"  =2: no solution (proved)", true},
		{"  reci-h#3: 2 solutions (every one)", true},
		{"  pser-h#6: 1 solution (every one)", true},
		{"  2->ser-h#4: 1 solution (every one)", true},
		{"  exact-s#2: 1 key (every one): 1.Qd1-d8 !", true},
		{"  #2: whatever", false},
		{"  verdict: cooked", false},
		{"  title: a problem", false},
		{"h#2: no indent", false},
	} {
		if got := isProblemFinding(c.line); got != c.want {
			t.Errorf("%q: %v, want %v", c.line, got, c.want)
		}
	}
}
