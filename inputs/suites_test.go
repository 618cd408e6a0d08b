package inputs

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mateline.dev/mateline/internal/shareddata"
)

// knownBrokenSuiteLines lists the lines of the shared suites that are truly
// unreadable, each with the reason. It is empty: every line of every suite
// reads (with warnings where an annotation is malformed).
var knownBrokenSuiteLines = map[string]string{}

// TestSuitesRead reads every suite file in the shared data: each line must
// read, or be named in knownBrokenSuiteLines.
func TestSuitesRead(t *testing.T) {
	root := shareddata.Path(t, "suites")
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := strings.ToLower(filepath.Ext(path))
		if ext != ".epd" && ext != ".csv" {
			return nil
		}
		files++
		rel, _ := filepath.Rel(root, path)
		r, c, err := Open(path, FormatAuto)
		if err != nil {
			return err
		}
		defer c.Close()
		records, warned := 0, 0
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			records++
			if len(rec.Warnings) > 0 {
				warned++
			}
			where := rel + ":" + strconv.Itoa(rec.Line)
			if rec.Err != nil {
				if _, known := knownBrokenSuiteLines[where]; !known {
					t.Errorf("%s: %v", where, rec.Err)
				}
			}
		}
		t.Logf("%s: %d records, %d with warnings", rel, records, warned)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Errorf("read %d suite files; the shared data has more than 20", files)
	}
}
