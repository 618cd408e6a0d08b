package report

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/puzzles"
)

// problemOutcomes validates two problems given as EPD: a cooked helpmate
// and a sound selfmate.
func problemOutcomes(t *testing.T) []puzzles.Answer {
	t.Helper()
	var out []puzzles.Answer
	for i, line := range []string{
		`4kb2/5p2/8/8/8/8/8/2KQ4 b - - stip "h#2"; id "help";`,
		`8/8/8/8/1p4Q1/k7/p7/K7 w - - stip "s#2"; id "self";`,
	} {
		rec := epd.ParseLine("p.epd", i+1, line)
		out = append(out, puzzles.ValidateProblem(context.Background(), &rec, puzzles.ProblemOptions{}))
	}
	return out
}

// Every format carries a problem's stipulation and findings, and text and
// annotated EPD read back.
func TestProblemFormats(t *testing.T) {
	outs := problemOutcomes(t)
	var text bytes.Buffer
	for i := range outs {
		if err := Text(&text, &outs[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{
		"  h#2: 10 solutions (every one)\n  1.Bf8-e7 Qd1-h5   2.Ke8-f8 Qh5-h8 #\n  1.Bf8-e7 Qd1-d4   2.Ke8-f8 Qd4-h8 #\n",
		"  verdict: cooked (claim checked: h#2)",
		"  s#2: 1 key (every one): Qg4-d1\n  line: 1. Qd1 b3 2. Qg4 b2#\n",
		"  verdict: ok (claim checked: s#2)",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	// resume reads the status back from the text
	r, err := NewReader(strings.NewReader(text.String()), FormatText)
	if err != nil {
		t.Fatal(err)
	}
	for i := range outs {
		l, err := r.Next()
		if err != nil || l.Status != puzzles.StatusMate || l.Verdict != outs[i].Verdict {
			t.Errorf("text record %d read back: %+v, %v", i, l, err)
		}
	}

	var annotated bytes.Buffer
	EPD(&annotated, &outs[0])
	if s := annotated.String(); !strings.Contains(s, `stip h#2;`) || !strings.Contains(s, `pv Be7 Qh5 Kf8 Qh8#;`) || !strings.Contains(s, `c9 "verdict: cooked";`) {
		t.Errorf("annotated EPD: %s", s)
	}
	back := epd.ParseLine("again", 1, strings.TrimSpace(annotated.String()))
	if back.Err != nil || back.Stip.String() != "h#2" || len(back.Claim.Line) != 4 {
		t.Errorf("reading the annotated EPD back: %+v", back)
	}

	var csv bytes.Buffer
	w, _ := New(FormatCSV, &csv, Options{})
	w.Write(&outs[0], nil)
	w.Close(nil)
	if s := csv.String(); !strings.Contains(s, ",h#2,f8e7 d1h5 e8f8 h5h8 | f8e7 d1d4 e8f8 d4h8 | ") {
		t.Errorf("CSV: %s", s)
	}
	if got := describeFinding(&outs[1]); got != "s#2: 1 key (every one): Qg4-d1" {
		t.Errorf("HTML finding %q", got)
	}
}
