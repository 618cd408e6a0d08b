package prune

// The budget test gives each flight a distinct man of the side to be
// mated, the moves of all of them within a budget: an assignment problem.
// A few rows and columns at most (a king's ring, the other side's men),
// solved exactly by the Hungarian method with potentials, in
// O(rows² × columns).

// maxRows, maxCols bound an assignment: eight flights and a man taken;
// fifteen men besides the king.
const (
	maxRows = 9
	maxCols = 16
)

// unreachable is the cost of a man that cannot stand on a square; an
// assignment costing that much or more uses one.
const unreachable = 1 << 20

// assignCosts is the cost of each row (a square) for each column (a man).
type assignCosts [maxRows][maxCols]int32

// cheapestAssignment is the least total cost of giving each of the first
// rows rows a distinct column among the first cols (rows <= cols); once
// the first rows alone cost more than limit, that cost (a bound below the
// whole) is returned.
func cheapestAssignment(cost *assignCosts, rows, cols int, limit int32) int32 {
	const inf = int32(1 << 30)
	// u, v: the potentials of rows and columns; p[j]: the row given
	// column j (0: none), rows and columns counted from 1 here
	var u [maxRows + 1]int32
	var v, minv [maxCols + 1]int32
	var p, way [maxCols + 1]int
	var used [maxCols + 1]bool
	for i := 1; i <= rows; i++ {
		p[0] = i
		j0 := 0
		for j := 0; j <= cols; j++ {
			minv[j], used[j] = inf, false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], inf, 0
			for j := 1; j <= cols; j++ {
				if used[j] {
					continue
				}
				if cur := cost[i0-1][j-1] - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= cols; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
		// -v[0]: the least cost of the rows so far, none negative
		if -v[0] > limit {
			return -v[0]
		}
	}
	var total int32
	for j := 1; j <= cols; j++ {
		if p[j] != 0 {
			total += cost[p[j]-1][j-1]
		}
	}
	return total
}
