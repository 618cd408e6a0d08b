package lichess

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"mateline.dev/mateline/internal/readtest"
	"mateline.dev/mateline/internal/shareddata"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
)

func TestLichessReader(t *testing.T) {
	recs := readtest.File(t, "testdata/"+"lichess.csv", NewReader)
	byID := map[string]record.Record{}
	for _, r := range recs {
		byID[r.ID] = r
	}
	// 000rZ: after d4e6 Black mates with Qxh2#.
	r := byID["000rZ"]
	if r.Err != nil || r.Line != 2 || r.Claim.Mate != 1 || readtest.ClaimUCI(r, "keys") != "d6h2" ||
		r.FEN != "2kr1b1r/p1p2pp1/2pqN3/7p/6n1/2NPB3/PPP2PPP/R2Q1RK1 b - - 0 13" || !r.Claim.OnlyLastVaries {
		t.Errorf("000rZ: %+v", r)
	}
	if r := byID["002X3"]; r.Claim.Mate != 2 || readtest.ClaimUCI(r, "line") != "g2a8 c7b8 a8b8" {
		t.Errorf("002X3: mate %d line %q", r.Claim.Mate, readtest.ClaimUCI(r, "line"))
	}
	for id, want := range map[string]string{
		"BADMV": "Moves[0] (the opponent's move)",
		"BADQT": "unclosed quote",
		"NOFEN": "wrong field count",
	} {
		r, ok := byID[id]
		if id == "BADQT" {
			r, ok = findLine(recs, 11)
		}
		if !ok || r.Err == nil || !strings.Contains(r.Err.Error(), want) || !strings.HasPrefix(r.Err.Error(), "testdata/lichess.csv:") {
			t.Errorf("%s: %v, want an error saying %q", id, r.Err, want)
		}
	}
}

func findLine(recs []record.Record, line int) (record.Record, bool) {
	for _, r := range recs {
		if r.Line == line {
			return r, true
		}
	}
	return record.Record{}, false
}

// TestValidateVerdicts checks that each verdict fires on rows built to
// earn it.
func TestValidateVerdicts(t *testing.T) {
	want := map[string]puzzles.Verdict{
		"000rZ": puzzles.VerdictOK,
		"001KR": puzzles.VerdictOK, // two mates in 1: allowed at the last move
		"002X3": puzzles.VerdictOK,
		"LONG1": puzzles.VerdictLonger,
		"SHRT2": puzzles.VerdictShorter,
		"WRNGK": puzzles.VerdictWrongKey,
		"COOK5": puzzles.VerdictCooked,
		"BADMV": puzzles.VerdictUnreadable,
		"NOFEN": puzzles.VerdictUnreadable,
	}
	sv := solver.New(16)
	for _, r := range readtest.File(t, "testdata/"+"lichess.csv", NewReader) {
		v, ok := want[r.ID]
		if !ok {
			continue
		}
		o := puzzles.Validate(context.Background(), sv, &r, solver.Options{}, 2)
		if o.Verdict != v {
			t.Errorf("%s: verdict %s (%s), want %s", r.ID, o.Verdict, o.Error, v)
		}
	}
}

// TestLichessSample validates every mate-tagged puzzle of the shared
// Lichess sample and compares the flagged ones with the fixture.
func TestLichessSample(t *testing.T) {
	path := shareddata.Path(t, "suites", "lichess-sample", "lichess_db_puzzle.csv")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f, path)
	fixture, err := os.ReadFile("testdata/lichess-flagged.txt")
	if err != nil {
		t.Fatal(err)
	}
	wantFlagged := map[string]string{}
	for _, l := range strings.Split(string(fixture), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && !strings.HasPrefix(l, "#") {
			wantFlagged[f[0]] = f[1]
		}
	}
	sv := solver.New(32)
	validated := 0
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Err == nil && rec.Claim.Mate == 0 {
			continue
		}
		validated++
		o := puzzles.Validate(context.Background(), sv, &rec, solver.Options{Nodes: 5_000_000}, 2)
		if want, ok := wantFlagged[rec.ID]; ok && string(o.Verdict) != want || !ok && o.Verdict != puzzles.VerdictOK {
			t.Errorf("%s (line %d): verdict %s %s, fixture says %q", rec.ID, rec.Line, o.Verdict, o.Error, wantFlagged[rec.ID])
		}
	}
	if validated != 892 {
		t.Errorf("validated %d mate puzzles, the sample has 892", validated)
	}
}

// FuzzLichessCSV checks that no row makes the CSV reader panic.
func FuzzLichessCSV(f *testing.F) {
	data, _ := os.ReadFile("testdata/lichess.csv")
	lines := strings.Split(string(data), "\n")
	for _, l := range lines[1:] {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, row string) {
		for _, rec := range readtest.All(t, NewReader(strings.NewReader(lines[0]+"\n"+row), "fuzz")) {
			if rec.Err == nil && !rec.Pos.HasLegalMove() {
				t.Fatalf("%q: accepted a position with no legal move", row)
			}
		}
	})
}
