package report

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/internal/readtest"
	"mateline.dev/mateline/lichess"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/solver"
)

// node helpers over the parsed page.
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func findAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func tag(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == name }
}

func class(c string) func(*html.Node) bool {
	return func(n *html.Node) bool {
		for _, f := range strings.Fields(attr(n, "class")) {
			if f == c {
				return true
			}
		}
		return false
	}
}

// reportPage validates a few records and renders the HTML report.
func reportPage(t *testing.T) string {
	t.Helper()
	rows := "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl\n" +
		"LSHRT,6k1/5ppp/8/8/8/8/8/R3R1K1 b - - 0 1,g8h8 a1a8,1725,80,93,1000,mate mateIn2 short,https://lichess.org/abcdEFGH#40\n"
	lrecs := readtest.All(t, lichess.NewReader(strings.NewReader(rows), "puzzles.csv"))
	epdText := "6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 1; id \"fine\";\n" +
		"4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - dm 3; id \"opera\";\n" +
		"1Q2kb1r/p2n1ppp/4q3/4p1B1/4P3/8/PPP2PPP/2KR4 b k - bm #-2; id \"defence\";\n" +
		"k7/8/2K5/8/8/8/8/1R5R w - - dm 2; id \"many\";\n"
	recs := append(lrecs, readtest.All(t, epd.NewReader(strings.NewReader(epdText), "set.epd"))...)
	var b bytes.Buffer
	w, err := New(FormatHTML, &b, Options{Run: RunInfo{Inputs: []string{"puzzles.csv", "set.epd"},
		Settings: "--timeout 10s -j 2", Version: "v1.2.3 (revision abc)", Date: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)}})
	if err != nil {
		t.Fatal(err)
	}
	s := NewSummary(true)
	sv := solver.New(8)
	for i := range recs {
		o := puzzles.Validate(context.Background(), sv, &recs[i], solver.Options{}, 1)
		s.Add(&o.Outcome)
		if err := w.Write(&o, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(s); err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("MATELINE_HTML_OUT"); out != "" {
		os.WriteFile(out, b.Bytes(), 0o644)
	}
	return b.String()
}

// TestHTMLReportStructure parses the report with an HTML parser and checks
// what an editor works with: header, index and controls, cards with
// diagrams, arrows, side to move, links, folded key lists; one file with
// no network fetch.
func TestHTMLReportStructure(t *testing.T) {
	page := reportPage(t)
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	// Header.
	meta := text(findAll(doc, tag("header"))[0])
	for _, want := range []string{"puzzles.csv, set.epd", "2026-11-23 10:00", "--timeout 10s -j 2", "mateline v1.2.3 (revision abc)"} {
		if !strings.Contains(meta, want) {
			t.Errorf("header lacks %q: %q", want, meta)
		}
	}
	// Index: a row per verdict with its count.
	counts := map[string]string{}
	for _, tr := range findAll(doc, func(n *html.Node) bool { return n.Data == "tr" && hasAttr(n, "data-verdict") }) {
		counts[attr(tr, "data-verdict")] = strings.TrimSpace(text(findAll(tr, tag("td"))[0]))
	}
	wantCounts := map[string]string{"ok": "1", "shorter": "3", "cooked": "1", "longer": "0", "timeout": "0"}
	for v, n := range wantCounts {
		if counts[v] != n {
			t.Errorf("index: %s %q, want %s (all %v)", v, counts[v], n, counts)
		}
	}
	// Controls: hidden without JavaScript, a filter per verdict shown.
	controls := findAll(doc, func(n *html.Node) bool { return attr(n, "id") == "controls" })
	if len(controls) != 1 || !hasAttr(controls[0], "hidden") {
		t.Fatal("no hidden #controls")
	}
	filters := map[string]bool{}
	for _, in := range findAll(controls[0], class("filter")) {
		filters[attr(in, "value")] = true
	}
	if !filters["cooked"] || !filters["shorter"] || filters["ok"] {
		t.Errorf("filters %v", filters)
	}
	if len(findAll(controls[0], tag("select"))) != 1 {
		t.Error("no sort control")
	}
	// Cards: the not-ok puzzles, each visible without JavaScript.
	cards := findAll(doc, class("card"))
	byID := map[string]*html.Node{}
	for _, c := range cards {
		byID[attr(c, "data-id")] = c
		if hasAttr(c, "hidden") {
			t.Errorf("card %s hidden without JavaScript", attr(c, "data-id"))
		}
		for _, k := range []string{"data-verdict", "data-rating", "data-n", "data-order"} {
			if !hasAttr(c, k) {
				t.Errorf("card %s lacks %s", attr(c, "data-id"), k)
			}
		}
	}
	if len(cards) != 4 || byID["fine"] != nil {
		t.Fatalf("%d cards (%v); want the 4 that are not ok", len(cards), byID)
	}
	// The Lichess card links the puzzle and the game and shows rating,
	// popularity and themes.
	lc := byID["LSHRT"]
	var hrefs []string
	for _, a := range findAll(lc, tag("a")) {
		hrefs = append(hrefs, attr(a, "href"))
	}
	if strings.Join(hrefs, " ") != "https://lichess.org/training/LSHRT https://lichess.org/abcdEFGH#40" ||
		!strings.Contains(text(lc), "1725 (popularity 93)") || !strings.Contains(text(lc), "mateIn2") || attr(lc, "data-rating") != "1725" {
		t.Errorf("Lichess card: links %v, text %q", hrefs, text(lc))
	}
	// Every key as an arrow, from the side to move's view: after Black's
	// Kh8 White mates with Ra8 (a1 to a8) and Re8 (e1 to e8).
	arrows := findAll(lc, class("key-arrow"))
	if len(arrows) != 2 || attr(arrows[0], "x1") != "22.5" || attr(arrows[0], "y1") != "337.5" || attr(arrows[0], "y2") != "22.5" ||
		attr(arrows[1], "x1") != "202.5" || attr(arrows[1], "y2") != "22.5" {
		t.Errorf("key arrows of Ra8 and Re8: %v", arrows)
	}
	if !strings.Contains(text(lc), "White to move") {
		t.Error("the Lichess card does not say who is to move")
	}
	// Black to move: the board seen from Black, the arrow mirrored.
	dc := byID["defence"]
	if !strings.Contains(text(dc), "Black to move") {
		t.Errorf("defence card: %q", text(dc))
	}
	if a := findAll(dc, class("key-arrow")); len(a) != 1 || attr(a[0], "x1") != "202.5" || attr(a[0], "y1") != "292.5" || attr(a[0], "x2") != "292.5" {
		t.Errorf("arrow of Nxb8 from Black's side: %v", a)
	}
	// A long key list is folded.
	many := byID["many"]
	det := findAll(many, tag("details"))
	if len(det) != 1 || !strings.HasSuffix(strings.TrimSpace(text(findAll(det[0], tag("summary"))[0])), "keys") {
		t.Errorf("many keys not folded: %q", text(many))
	}
	// One file: no fetched resources, and ids unique.
	for _, n := range findAll(doc, func(n *html.Node) bool { return hasAttr(n, "src") || n.Data == "link" }) {
		t.Errorf("the page fetches %s %s", n.Data, attr(n, "src")+attr(n, "href"))
	}
	seen := map[string]bool{}
	for _, n := range findAll(doc, func(n *html.Node) bool { return hasAttr(n, "id") }) {
		if seen[attr(n, "id")] {
			t.Errorf("id %q twice", attr(n, "id"))
		}
		seen[attr(n, "id")] = true
	}
	if len(findAll(doc, tag("script"))) != 1 {
		t.Error("no script")
	}
}
