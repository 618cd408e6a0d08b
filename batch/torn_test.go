package batch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mateline.dev/mateline/report"
)

// timing matches the fields that differ from run to run: milliseconds in
// JSON and CSV, seconds in EPD, and the time and rate of a text record.
var timing = regexp.MustCompile(`"ms":[0-9.]+|,[0-9]+\.[0-9]{3},|acs [0-9.]+;|, [0-9.]+ (ms|s)(, [0-9.]+[kM]? nodes/s)?,`)

// untimed is an output with its timing fields blanked.
func untimed(b []byte) string { return timing.ReplaceAllString(string(b), "T") }

// TestTornRecordResumed: a kill leaves the output cut anywhere — between
// records, in the middle of one, in the header or the shard marker.
// --resume drops what is torn, redoes it, and the result is byte for byte
// what an uninterrupted run writes, but for the timing fields. In every
// format that can be resumed, and in a sharded run.
func TestTornRecordResumed(t *testing.T) {
	dir, input := writeInput(t, benchEPD(24))
	for _, tc := range []struct {
		format report.Format
		shard  Shard
	}{
		{report.FormatJSONL, Shard{}}, {report.FormatCSV, Shard{}}, {report.FormatEPD, Shard{}}, {report.FormatText, Shard{}},
		{report.FormatJSONL, Shard{1, 2}}, {report.FormatCSV, Shard{0, 2}}, {report.FormatEPD, Shard{1, 2}},
		{report.FormatPGN, Shard{}}, {report.FormatPGN, Shard{1, 2}},
	} {
		name := string(tc.format)
		if tc.shard.Count > 0 {
			name += "-shard"
		}
		t.Run(name, func(t *testing.T) {
			whole := filepath.Join(dir, "whole-"+name)
			j := newTestJob(whole, input)
			j.Format, j.Shard = tc.format, tc.shard
			if _, err := j.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			full := mustRead(t, whole)
			want := untimed(full)
			end := strings.Index(string(full), tc.format.Terminator()) + len(tc.format.Terminator())
			// Cut points: nothing, inside the first line (a header or a
			// marker), right after it, inside a record, between records,
			// one byte short of the end.
			cuts := []int{0, end / 2, end, end + 7, len(full) / 2, len(full) * 3 / 4, len(full) - 1}
			for _, cut := range cuts {
				out := filepath.Join(dir, fmt.Sprintf("%s-cut%d", name, cut))
				// A killed run leaves its records in FILE.partial.
				if err := os.WriteFile(out+partialSuffix, full[:cut], 0o644); err != nil {
					t.Fatal(err)
				}
				j := newTestJob(out, input)
				j.Format, j.Shard, j.Resume = tc.format, tc.shard, true
				if _, err := j.Run(context.Background()); err != nil {
					t.Fatalf("cut at %d: %v", cut, err)
				}
				if got := untimed(mustRead(t, out)); got != want {
					t.Errorf("cut at %d of %d bytes: the resumed output differs\n--- got\n%s\n--- want\n%s", cut, len(full), got, want)
				}
			}
		})
	}
}
