package record

// LichessInfo is what a Lichess puzzle row says about the puzzle besides
// its position, for the HTML report.
type LichessInfo struct {
	PuzzleID   string
	Rating     int
	Popularity int
	Themes     string
	GameURL    string
}

// TrainingURL is the puzzle's page on Lichess.
func (l *LichessInfo) TrainingURL() string {
	if l.PuzzleID == "" {
		return ""
	}
	return "https://lichess.org/training/" + l.PuzzleID
}
