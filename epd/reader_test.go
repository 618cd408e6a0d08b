package epd

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"mateline.dev/mateline/internal/readtest"
	"mateline.dev/mateline/internal/shareddata"
	"mateline.dev/mateline/puzzles"
)

func TestEPDDialects(t *testing.T) {
	recs := readtest.File(t, "testdata/"+"dialects.epd", NewReader)
	want := []struct {
		line        int
		id          string
		mate        int
		keys, line2 string
		avoid       string
		fen         string
	}{
		{3, `back "rank"`, 1, "", "", "", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"},
		{4, "opera", 0, "b3b8", "b3b8 d7b8 d1d8", "", "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 16"},
		{5, "line:5", -1, "", "", "", "1Q2kb1r/p2n1ppp/4q3/4p1B1/4P3/8/PPP2PPP/2KR4 b k - 2 16"},
		{6, "line:6", 3, "", "", "h1a8", "8/8/8/8/k7/8/2K5/7Q w - - 0 1"},
		{7, "line:7", 0, "g4g6", "g4g6 b7a8 g6b6 a8a7 d7c7 a7a8 b6a6", "", "8/1k1K4/8/8/6R1/8/8/8 w - - 0 1"},
		{8, "line:8", 4, "g5f7", "", "", "r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1"},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i, w := range want {
		r := recs[i]
		if r.Err != nil {
			t.Errorf("line %d: %v", w.line, r.Err)
			continue
		}
		if r.Line != w.line || r.ID != w.id || int(r.Claim.Mate) != w.mate || r.FEN != w.fen ||
			readtest.ClaimUCI(r, "keys") != w.keys || readtest.ClaimUCI(r, "line") != w.line2 || readtest.ClaimUCI(r, "avoid") != w.avoid {
			t.Errorf("record %d: line %d id %q mate %d keys %q line %q avoid %q fen %q", i, r.Line, r.ID, r.Claim.Mate,
				readtest.ClaimUCI(r, "keys"), readtest.ClaimUCI(r, "line"), readtest.ClaimUCI(r, "avoid"), r.FEN)
		}
	}
	// Operations keep their quoted text and order.
	if ops := recs[0].Ops; len(ops) != 3 || ops[2].Code != "c0" || ops[2].Args[0] != "semi; colon" {
		t.Errorf("ops of line 3: %+v", recs[0].Ops)
	}
	if ops := recs[3].Ops; len(ops) != 6 || ops[3].Code != "acn" || ops[5].Args[0] != "32763" {
		t.Errorf("ops of line 6: %+v", recs[3].Ops)
	}
}

func TestLooseDialect(t *testing.T) {
	rec := ParseLine("x", 1, "r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1 bm Nf7+ dm 4")
	if rec.Err != nil || rec.Claim.Mate != 4 || len(rec.Claim.Keys) != 1 || len(rec.Ops) != 2 {
		t.Errorf("%+v", rec)
	}
	// c4 is a pawn move here, not the comment opcode c4.
	rec = ParseLine("x", 1, "4r3/2P1rk2/4p1p1/2K1Qp1p/3P3P/2P2P2/6P1/8 w - - 0 1 bm c4 dm 21")
	if rec.Err != nil || len(rec.Warnings) > 0 || rec.Claim.Mate != 21 || readtest.ClaimUCI(rec, "keys") != "c3c4" {
		t.Errorf("bm c4 dm 21: %+v", rec)
	}
	rec = ParseLine("x", 1, `6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 bm Ra8# c4 "a comment" dm 1`)
	if rec.Err != nil || len(rec.Ops) != 3 || rec.Ops[1].Code != "c4" || rec.Claim.Mate != 1 {
		t.Errorf("loose comment: %+v", rec.Ops)
	}
	path := shareddata.Path(t, "suites", "epd-sets", "hard-mates-blass-uri.epd")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs := readtest.All(t, NewReader(f, path))
	claims := 0
	for _, rec := range recs {
		if rec.Err != nil || len(rec.Warnings) > 0 {
			t.Errorf("line %d: %v %q", rec.Line, rec.Err, rec.Warnings)
		}
		if rec.Claim.Mate >= 13 {
			claims++
		}
	}
	if len(recs) != 24 || claims != 24 {
		t.Errorf("%d records, %d with dm >= 13; want 24 and 24", len(recs), claims)
	}
}

// TestMalformedLines checks that every bad line yields a record that names
// its line and what is wrong, and that the good lines around them survive.
func TestMalformedLines(t *testing.T) {
	recs := readtest.File(t, "testdata/"+"malformed.epd", NewReader)
	want := map[int]string{
		2:  "bad piece letter",
		3:  "wrong rank count",
		4:  "wrong rank count",
		5:  "wrong number of kings",
		6:  "side not to move is in check",
		7:  "bad side to move",
		8:  "bad castling field",
		9:  "bad en-passant field",
		10: "unclosed quote",
		11: "dm 0",
		12: "dm -1",
		15: "line longer than",
	}
	// Line 13 is a legal position whose side to move is already mated:
	// readable, with nothing to search.
	good := map[int]bool{1: true, 13: true, 14: true, 16: true}
	if len(recs) != len(want)+len(good) {
		t.Fatalf("%d records, want %d", len(recs), len(want)+len(good))
	}
	for _, r := range recs {
		if good[r.Line] {
			if r.Err != nil {
				t.Errorf("good line %d: %v", r.Line, r.Err)
			}
			continue
		}
		if r.Err == nil {
			t.Errorf("line %d: no error", r.Line)
			continue
		}
		msg := r.Err.Error()
		if !strings.Contains(msg, want[r.Line]) || !strings.HasPrefix(msg, "testdata/malformed.epd:"+strconv.Itoa(r.Line)+":") {
			t.Errorf("line %d: %q, want it to name the line and say %q", r.Line, msg, want[r.Line])
		}
	}
	kinds := map[int]string{5: "illegal", 6: "illegal", 2: "unreadable", 10: "unreadable", 11: "unreadable"}
	for _, r := range recs {
		if k, ok := kinds[r.Line]; ok && string(puzzles.ErrorVerdict(&r)) != k {
			t.Errorf("line %d: kind %q, want %q", r.Line, puzzles.ErrorVerdict(&r), k)
		}
	}
}

// FuzzEPDLine checks that no input line makes the EPD reader panic, and
// that a record without an error has a legal position.
func FuzzEPDLine(f *testing.F) {
	data, _ := os.ReadFile("testdata/dialects.epd")
	for _, l := range strings.Split(string(data), "\n") {
		f.Add(l)
	}
	data, _ = os.ReadFile("testdata/malformed.epd")
	for _, l := range strings.Split(string(data), "\n") {
		if len(l) < 1000 {
			f.Add(l)
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, rec := range readtest.All(t, NewReader(strings.NewReader(line), "fuzz")) {
			if rec.Err == nil && !rec.Pos.HasLegalMove() && rec.Terminal == "" {
				t.Fatalf("%q: a position with no legal move is not marked terminal", line)
			}
			if rec.Err == nil && rec.FEN == "" {
				t.Fatalf("%q: a readable record without its FEN", line)
			}
		}
	})
}
