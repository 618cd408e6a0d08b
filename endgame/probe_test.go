package endgame

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/shareddata"
)

// TestProbeVectors matches every row of the Fathom reference probes: WDL,
// DTZ, root WDL and each move's WDL and DTZ.
func TestProbeVectors(t *testing.T) {
	tb := openShared(t)
	rows := readTSV(t, shareddata.Path(t, "syzygy", "probe-vectors.tsv"))
	bad := 0
	for _, r := range rows {
		pos, err := board.ParseFEN(r["fen"])
		if err != nil {
			t.Fatalf("%s: %v", r["fen"], err)
		}
		wdl, err1 := tb.ProbeWDL(&pos)
		dtz, err2 := tb.ProbeDTZ(&pos)
		moves, rootWDL, err3 := tb.ProbeRoot(&pos)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Errorf("%s: %v %v %v", r["fen"], err1, err2, err3)
			bad++
			continue
		}
		var got []string
		for _, m := range moves {
			got = append(got, m.Move.UCI()+":"+strconv.Itoa(m.WDL)+":"+strconv.Itoa(m.DTZ))
		}
		want := strings.Split(r["root_moves"], ",")
		sort.Strings(got)
		sort.Strings(want)
		if strconv.Itoa(wdl) != r["wdl"] || strconv.Itoa(dtz) != r["dtz"] || strconv.Itoa(rootWDL) != r["root_wdl"] ||
			strings.Join(got, ",") != strings.Join(want, ",") {
			bad++
			if bad <= 15 {
				t.Errorf("%s: wdl %d dtz %d root %d, want %s %s %s\n got  %s\n want %s", r["fen"], wdl, dtz, rootWDL,
					r["wdl"], r["dtz"], r["root_wdl"], strings.Join(got, ","), strings.Join(want, ","))
			}
		}
	}
	t.Logf("%d rows, %d wrong", len(rows), bad)
}

// BenchmarkWDL probes the WDL of every vector position in turn.
func BenchmarkWDL(b *testing.B) {
	tb := openShared(b)
	var positions []board.Position
	for _, r := range readTSV(b, shareddata.Path(b, "syzygy", "probe-vectors.tsv")) {
		p, _ := board.ParseFEN(r["fen"])
		positions = append(positions, p)
	}
	for i := range positions { // open every table before timing
		tb.ProbeWDL(&positions[i])
	}
	n := 0
	for b.Loop() {
		if _, err := tb.ProbeWDL(&positions[n%len(positions)]); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "probes/s")
}
