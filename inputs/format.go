package inputs

import (
	"fmt"
	"strings"
)

// Format is an input format.
type Format int

// The input formats.
const (
	FormatAuto Format = iota // tell by the content
	FormatEPD
	FormatLichessCSV
	FormatPopeye // Popeye's problem language
	FormatPGN    // Portable Game Notation: a game a record
)

// ParseFormat reads --input-format: auto, epd, csv, popeye or pgn.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return FormatAuto, nil
	case "epd":
		return FormatEPD, nil
	case "csv", "lichess":
		return FormatLichessCSV, nil
	case "popeye", "inp":
		return FormatPopeye, nil
	case "pgn":
		return FormatPGN, nil
	}
	return FormatAuto, fmt.Errorf("--input-format %q: want auto, epd, csv, popeye or pgn", s)
}
