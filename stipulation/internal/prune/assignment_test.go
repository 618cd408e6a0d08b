package prune

import (
	"math/rand"
	"testing"
)

// bruteAssignment is the least cost by trying every assignment.
func bruteAssignment(cost *assignCosts, rows, cols int, row int, used uint32) int32 {
	if row == rows {
		return 0
	}
	best := int32(1 << 30)
	for j := 0; j < cols; j++ {
		if used&(1<<j) == 0 {
			best = min(best, cost[row][j]+bruteAssignment(cost, rows, cols, row+1, used|1<<j))
		}
	}
	return best
}

func TestCheapestAssignment(t *testing.T) {
	var c assignCosts
	c[0] = [maxCols]int32{4, 1, 3}
	c[1] = [maxCols]int32{2, 0, 5}
	c[2] = [maxCols]int32{3, 2, 2}
	if got := cheapestAssignment(&c, 3, 3, 1<<30); got != 5 { // 1 + 2 + 2
		t.Errorf("3x3: %d, want 5", got)
	}
	rng := rand.New(rand.NewSource(5))
	for n := 0; n < 3000; n++ {
		rows := 1 + rng.Intn(6)
		cols := rows + rng.Intn(4)
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				c[i][j] = int32(rng.Intn(9))
				if rng.Intn(4) == 0 {
					c[i][j] = unreachable
				}
			}
		}
		want := bruteAssignment(&c, rows, cols, 0, 0)
		if got := cheapestAssignment(&c, rows, cols, 1<<30); got != want {
			t.Fatalf("%dx%d %v: %d, want %d", rows, cols, c, got, want)
		}
		limit := int32(rng.Intn(30))
		if got := cheapestAssignment(&c, rows, cols, limit); (got <= limit) != (want <= limit) || got > want {
			t.Fatalf("%dx%d %v, limit %d: %d, want %d", rows, cols, c, limit, got, want)
		}
	}
}
