// Package readtest holds what the tests of the input readers share:
// reading every record of a reader or a test file, and a claim's moves in
// UCI.
package readtest

import (
	"io"
	"os"
	"strings"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/record"
)

// All returns every record of r; a read error fails the test.
func All(t testing.TB, r record.Reader) []record.Record {
	t.Helper()
	recs, err := record.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// File returns every record of the file path, read by the reader newReader
// makes.
func File(t testing.TB, path string, newReader func(io.Reader, string) record.Reader) []record.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return All(t, newReader(f, path))
}

// ClaimUCI writes the record's claimed keys, line or avoided moves
// (which: "keys", "line", "avoid") in UCI, space-separated.
func ClaimUCI(rec record.Record, which string) string {
	src := map[string][]board.Move{"keys": rec.Claim.Keys, "line": rec.Claim.Line, "avoid": rec.Claim.Avoid}
	var ms []string
	for _, m := range src[which] {
		ms = append(ms, m.UCI())
	}
	return strings.Join(ms, " ")
}
