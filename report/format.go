package report

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Format is an output format.
type Format string

// The output formats.
const (
	FormatText  Format = "text"
	FormatEPD   Format = "epd"
	FormatJSONL Format = "jsonl"
	FormatCSV   Format = "csv"
	FormatHTML  Format = "html"
	FormatPGN   Format = "pgn"
)

// formats lists the output formats, in the order --help gives them.
var formats = []Format{FormatText, FormatEPD, FormatJSONL, FormatCSV, FormatHTML, FormatPGN}

// ParseFormat reads a format name (--format).
func ParseFormat(s string) (Format, error) {
	for _, f := range formats {
		if string(f) == strings.ToLower(s) {
			return f, nil
		}
	}
	return "", fmt.Errorf("--format %q: want text, epd, jsonl, csv, html or pgn", s)
}

// KeepsIDs reports whether the format writes each record's id with it, so
// that shards can be merged: jsonl, csv, epd and pgn.
func (f Format) KeepsIDs() bool {
	return f == FormatJSONL || f == FormatCSV || f == FormatEPD || f == FormatPGN
}

// Resumable reports whether a run writing this format can be resumed: the
// formats that keep ids, and text, whose records name their source and
// line. The HTML page is written at the end of a run, not as it goes.
func (f Format) Resumable() bool { return f.KeepsIDs() || f == FormatText }

// Terminator is what ends every record of a resumable format: a newline,
// for text a blank line, for PGN two (a blank line also follows a game's
// tags). A file that does not end with it was cut off in the middle of a
// record.
func (f Format) Terminator() string {
	switch f {
	case FormatText:
		return "\n\n"
	case FormatPGN:
		return "\n\n\n"
	}
	return "\n"
}

// FormatOfPath tells a record-per-line output format from a file name.
func FormatOfPath(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".json", ".ndjson":
		return FormatJSONL, nil
	case ".csv":
		return FormatCSV, nil
	case ".epd":
		return FormatEPD, nil
	case ".pgn":
		return FormatPGN, nil
	}
	return "", fmt.Errorf("%s: cannot tell the format from the name (want .jsonl, .csv, .epd or .pgn)", path)
}
