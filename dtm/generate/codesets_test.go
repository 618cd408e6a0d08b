package generate

import "testing"

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
