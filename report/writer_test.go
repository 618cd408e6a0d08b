package report

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/solver"
)

func outcomeFor(t *testing.T, line string, validate bool) puzzles.Answer {
	t.Helper()
	rec := epd.ParseLine("t.epd", 1, line)
	sv := solver.New(4)
	if validate {
		return puzzles.Validate(context.Background(), sv, &rec, solver.Options{}, 1)
	}
	return puzzles.Solve(context.Background(), sv, &rec, solver.Options{MaxMate: 3, AllKeys: true}, nil)
}

func TestAnnotatedEPD(t *testing.T) {
	o := outcomeFor(t, `4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - dm 3; c1 "Morphy; 1858"; id "opera"; xyz 1 2;`, true)
	var b bytes.Buffer
	if err := EPD(&b, &o); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		`4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - dm 2;`, // the finding replaces the claim in place
		`c1 "Morphy; 1858";`, `id "opera";`, `xyz 1 2;`, // input operations kept
		`acd 2;`, `acn `, `acs `, `pv Qb8+ Nxb8 Rd8#;`, `bm Qb8+;`,
		`c9 "verdict: shorter";`, `c7 "was: dm 3";`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("annotated EPD lacks %q:\n%s", want, got)
		}
	}
	// The annotated line reads back with the finding as its claim.
	rec := epd.ParseLine("again", 1, strings.TrimSpace(got))
	if rec.Err != nil || rec.ID != "opera" || rec.Claim.Mate != 2 || len(rec.Claim.Line) != 3 {
		t.Errorf("reading the annotated line back: %+v", rec)
	}
	mated := outcomeFor(t, `1Q2kb1r/p2n1ppp/4q3/4p1B1/4P3/8/PPP2PPP/2KR4 b k -`, false)
	b.Reset()
	EPD(&b, &mated)
	if s := b.String(); !strings.Contains(s, `c0 "mated in 1";`) || !strings.Contains(s, `id "line:1";`) || strings.Contains(s, " dm ") {
		t.Errorf("mated-in-1 line: %s", s)
	}
}

func TestCSVAndHTML(t *testing.T) {
	ok := outcomeFor(t, `6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 1; id "a";`, true)
	cooked := outcomeFor(t, `6k1/5ppp/8/8/8/8/8/R3R1K1 w - - dm 1; id "b";`, true)
	var b bytes.Buffer
	w, _ := New(FormatCSV, &b, Options{})
	w.Write(&ok, nil)
	w.Write(&cooked, nil)
	w.Close(nil)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || lines[0] != strings.Join(csvHeader, ",") || !strings.Contains(lines[2], ",cooked,1,") {
		t.Errorf("CSV:\n%s", b.String())
	}

	b.Reset()
	w, err := New(FormatHTML, &b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := NewSummary(true)
	for _, o := range []*puzzles.Answer{&ok, &cooked} {
		s.Add(&o.Outcome)
		w.Write(o, nil)
	}
	if err := w.Close(s); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Count(page, `class="board"`) != 1 || !strings.Contains(page, "1 puzzle(s) below") ||
		!strings.Contains(page, "Ra8# Re8#") || !strings.HasSuffix(page, "</html>\n") {
		t.Errorf("HTML page: one card, for the cooked puzzle, expected:\n%.600s", page)
	}
	if os.Getenv("MATELINE_HTML_OUT") != "" {
		os.WriteFile(os.Getenv("MATELINE_HTML_OUT"), b.Bytes(), 0o644)
	}
}

// TestMateWithinReported: a limit that stopped the proof of shortness after
// a forced mate was proved reports that mate as an upper bound in every
// format, never as the mate (TestLimitVerdict: validate calls it a timeout).
func TestMateWithinReported(t *testing.T) {
	rec := epd.ParseLine("t.epd", 4, `b3kqr1/2p1p2K/2R2b2/1Q6/p1p5/1p6/8/8 w - - bm #9; id "long";`)
	res := solver.Result{Status: solver.StatusLimit, MateWithin: 9, Depth: 6}
	o := puzzles.NewAnswer(&rec, res)
	var b bytes.Buffer
	if err := JSON(&b, &o); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !strings.Contains(s, `"status":"limit","mate_within":9,"depth":6`) || strings.Contains(s, `"mate":`) {
		t.Errorf("JSON: %s", s)
	}
	b.Reset()
	Text(&b, &o)
	if s := b.String(); !strings.Contains(s, "limit reached: mate in 9 proved, no mate in 6 or fewer; shortest not yet proved") {
		t.Errorf("text: %s", s)
	}
	b.Reset()
	EPD(&b, &o)
	if s := b.String(); !strings.Contains(s, `c0 "mate in at most 9 (not proved shortest)";`) || strings.Contains(s, " dm ") {
		t.Errorf("EPD: %s", s)
	}
	// With the shortness proved, the field is left out: mate says it all.
	o = puzzles.NewAnswer(&rec, solver.Result{Status: solver.StatusMate, Mate: 9, MateWithin: 9, Depth: 9})
	b.Reset()
	JSON(&b, &o)
	if s := b.String(); strings.Contains(s, "mate_within") || !strings.Contains(s, `"mate":9`) {
		t.Errorf("JSON of a proved mate: %s", s)
	}
}

// TestTruncatedPVIsSolved: a record whose pv is cut off mid-move is
// searched, and the warning reaches every output format.
func TestTruncatedPVIsSolved(t *testing.T) {
	rec := epd.ParseLine("wac.epd", 114, `6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "WAC.x"; pv Ra8# R;`)
	if rec.Err != nil {
		t.Fatal(rec.Err)
	}
	o := puzzles.Solve(context.Background(), solver.New(1), &rec, solver.Options{MaxMate: 2}, nil)
	if o.Status != puzzles.StatusMate || o.Mate != 1 || len(o.Warnings) != 1 {
		t.Fatalf("status %s mate %d warnings %q", o.Status, o.Mate, o.Warnings)
	}
	for _, format := range []Format{FormatJSONL, FormatText, FormatCSV, FormatHTML} {
		var b bytes.Buffer
		w, err := New(format, &b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		o.Verdict = puzzles.VerdictCooked // the HTML report shows failures only
		if err := w.Write(&o, nil); err != nil {
			t.Fatal(err)
		}
		w.Close(nil)
		if got := b.String(); !strings.Contains(got, "ply 2") {
			t.Errorf("%s output lacks the warning:\n%s", format, got)
		}
	}
}
