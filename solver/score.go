package solver

// Scores are exact: Mate-k means the side to move mates k plies from the
// root of the search, -(Mate-k) that it is mated k plies from the root, and
// 0 that neither happens within the plies searched. There is no evaluation.
const (
	mateScore = 30000
	infinity  = mateScore + 1
	// MaxPly bounds the search path, and with it every extension.
	MaxPly = 250
	// noLoop says a result does not depend on a repetition of a position
	// above it in the search path.
	noLoop = MaxPly + 1
)

// isWin reports whether s proves that the side to move mates.
func isWin(s int) bool { return s > mateScore-MaxPly-1 }

// isLoss reports whether s proves that the side to move is mated.
func isLoss(s int) bool { return s < -(mateScore - MaxPly - 1) }

// scoreToTT converts a score relative to the root into one relative to the
// node at ply, for storing; scoreFromTT undoes it.
func scoreToTT(s, ply int) int {
	switch {
	case isWin(s):
		return s + ply
	case isLoss(s):
		return s - ply
	}
	return s
}

func scoreFromTT(s, ply int) int {
	switch {
	case isWin(s):
		return s - ply
	case isLoss(s):
		return s + ply
	}
	return s
}
