package report

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"

	"mateline.dev/mateline/puzzles"
)

// csvHeader is the first row of CSV output.
var csvHeader = []string{"id", "line", "fen", "status", "mate", "mate_within", "keys", "all_keys", "pv", "pv_san", "depth",
	"nodes", "ms", "tb_hits", "verdict", "expected_mate", "expected_keys", "error", "warnings", "stipulation", "solutions", "cut"}

// oneLine keeps a cell on one line: one record, one line, so that a torn
// last line is easy to find.
var oneLine = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// csvRow writes the CSV row of an outcome; shard, when not empty, is its
// last cell.
func csvRow(b *bytes.Buffer, o *puzzles.Answer, shard string) {
	mate, within, allKeys, expMate, expKeys := "", "", "", "", ""
	if o.Mate != 0 {
		mate = strconv.Itoa(int(o.Mate))
	}
	if o.MateWithin != 0 {
		within = strconv.Itoa(int(o.MateWithin))
	}
	if len(o.Keys) > 0 {
		allKeys = strconv.FormatBool(o.AllKeys)
	}
	if o.Expected != nil {
		if o.Expected.Mate != 0 {
			expMate = strconv.Itoa(int(o.Expected.Mate))
		}
		expKeys = strings.Join(o.Expected.Keys, " ")
	}
	row := []string{o.ID, strconv.Itoa(o.Line), o.FEN, string(o.Status), mate, within, strings.Join(o.Keys, " "), allKeys,
		strings.Join(o.PV, " "), strings.Join(o.PVSAN, " "), strconv.Itoa(o.Depth),
		strconv.FormatUint(o.Nodes, 10), strconv.FormatFloat(o.MS, 'f', 3, 64),
		strconv.FormatUint(o.TBHits, 10), string(o.Verdict), expMate, expKeys, o.Error, strings.Join(o.Warnings, "; "),
		o.Stipulation, solutionsCell(o.Solutions), string(o.Cut)}
	if shard != "" {
		row = append(row, shard)
	}
	for i, cell := range row {
		row[i] = oneLine.Replace(cell)
	}
	cw := csv.NewWriter(b)
	cw.Write(row)
	cw.Flush()
}

// solutionsCell writes a helpmate's solutions in one cell: UCI moves
// separated by spaces, solutions by " | ".
func solutionsCell(sols [][]string) string {
	var parts []string
	for _, s := range sols {
		parts = append(parts, strings.Join(s, " "))
	}
	return strings.Join(parts, " | ")
}
