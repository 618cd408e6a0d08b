package puzzles

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/corentings/chess/v2"
	chessimage "github.com/corentings/chess/v2/image"
)

// htmlWriter writes one self-contained HTML page, for the people who fix
// puzzles: a header (inputs, date, settings, version), an index of the
// counts per verdict with filter and sort controls (plain JavaScript; with
// none, everything stays visible), and a card per puzzle with its diagram
// (the key as an arrow, the side to move marked), claim, finding, keys and
// line, and for Lichess rows their links, rating, popularity and themes.
// validate shows the puzzles that are not ok; solve shows every position.
// Cards are spooled to a temporary file, so memory stays flat however many
// there are; the page needs no network.
type htmlWriter struct {
	w      io.Writer
	report ReportInfo
	spool  *os.File
	buf    *bufio.Writer
	n      int
	shown  map[string]int // cards per verdict (or status)
}

// ReportInfo describes a run, for the HTML report's header.
type ReportInfo struct {
	Inputs   []string
	Settings string
	Version  string
	Date     time.Time
}

func newHTMLWriter(w io.Writer, report ReportInfo) (*htmlWriter, error) {
	f, err := os.CreateTemp("", "mateline-report-*.html")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name()) // the open file stays usable
	return &htmlWriter{w: w, report: report, spool: f, buf: bufio.NewWriter(f), shown: map[string]int{}}, nil
}

// shownInReport says whether an outcome gets a card: in validate, the
// puzzles that are not ok (skipped ones, which are not mate puzzles, are
// only counted); in solve, every position.
func shownInReport(o *Outcome) bool {
	if o.Verdict != "" {
		return o.Verdict != VerdictOK && o.Verdict != VerdictSkipped
	}
	return true
}

// Write spools the card of an outcome.
func (h *htmlWriter) Write(o *Outcome) error {
	b := o.Rendered
	if b == nil {
		b = h.Render(o)
	}
	if len(b) == 0 {
		return nil
	}
	h.n++
	h.shown[verdictOrStatus(o)]++
	_, err := h.buf.Write(b)
	return err
}

// maxKeysShown is how many keys a card lists before it folds them.
const maxKeysShown = 8

// Render draws the card of an outcome (nothing for one the report leaves
// out).
func (h *htmlWriter) Render(o *Outcome) []byte {
	if !shownInReport(o) {
		return []byte{}
	}
	e := html.EscapeString
	b := &bytes.Buffer{}
	v := verdictOrStatus(o)
	rating, n := 0, o.Mate.Moves()
	if o.Record != nil && o.Record.Lichess != nil {
		rating = o.Record.Lichess.Rating
	}
	if o.Expected != nil && o.Expected.Mate != 0 {
		n = o.Expected.Mate.Moves()
	}
	fmt.Fprintf(b, "<section class=\"card %s\" data-verdict=\"%s\" data-id=\"%s\" data-rating=\"%d\" data-n=\"%d\" data-order=\"%d\">\n",
		e(cssClass(o)), e(v), e(o.ID), rating, n, o.Line)
	if svg := diagram(o); svg != "" {
		fmt.Fprintf(b, "<div class=\"board\">%s%s</div>\n", svg, sideToMove(o.FEN))
	}
	fmt.Fprintf(b, "<div class=\"facts\"><h2>%s <span class=\"verdict\">%s</span></h2>\n", e(o.ID), e(v))
	fmt.Fprintf(b, "<p class=\"src\">%s:%d</p>\n", e(o.Source), o.Line)
	if o.FEN != "" {
		fmt.Fprintf(b, "<p class=\"fen\"><code>%s</code></p>\n", e(o.FEN))
	}
	b.WriteString("<table>\n")
	if o.Record != nil && o.Record.Lichess != nil {
		l := o.Record.Lichess
		var links []string
		if u := l.TrainingURL(); u != "" {
			links = append(links, fmt.Sprintf("<a href=\"%s\">puzzle %s</a>", e(u), e(l.PuzzleID)))
		}
		if l.GameURL != "" {
			links = append(links, fmt.Sprintf("<a href=\"%s\">game</a>", e(l.GameURL)))
		}
		if len(links) > 0 {
			fmt.Fprintf(b, "<tr><th>Lichess</th><td>%s</td></tr>\n", strings.Join(links, " · "))
		}
		fmt.Fprintf(b, "<tr><th>rating</th><td>%d (popularity %d)</td></tr>\n", l.Rating, l.Popularity)
		if l.Themes != "" {
			fmt.Fprintf(b, "<tr><th>themes</th><td>%s</td></tr>\n", e(l.Themes))
		}
	}
	if o.Expected != nil {
		fmt.Fprintf(b, "<tr><th>claim</th><td>%s</td></tr>\n", e(describeClaim(o.Expected, o.Record)))
	}
	fmt.Fprintf(b, "<tr><th>finding</th><td>%s</td></tr>\n", e(describeFinding(o)))
	if len(o.KeysSAN) > 0 {
		label := "keys"
		if o.Mate < 0 {
			label = "defences"
		}
		keys := e(strings.Join(o.KeysSAN, " "))
		if len(o.KeysSAN) > maxKeysShown {
			keys = fmt.Sprintf("<details><summary>%d %s</summary>%s</details>", len(o.KeysSAN), label, keys)
		}
		fmt.Fprintf(b, "<tr><th>%s</th><td>%s</td></tr>\n", label, keys)
	}
	if o.LineSAN != "" {
		fmt.Fprintf(b, "<tr><th>line</th><td>%s</td></tr>\n", e(o.LineSAN))
	}
	if o.Error != "" {
		fmt.Fprintf(b, "<tr><th>error</th><td>%s</td></tr>\n", e(o.Error))
	}
	if o.Note != "" {
		fmt.Fprintf(b, "<tr><th>note</th><td>%s</td></tr>\n", e(o.Note))
	}
	for _, w := range o.Warnings {
		fmt.Fprintf(b, "<tr><th>warning</th><td>%s</td></tr>\n", e(w))
	}
	if o.Status != StatusError && o.Status != "skipped" {
		fmt.Fprintf(b, "<tr><th>search</th><td>%s</td></tr>\n", e(o.statsLine()))
	}
	b.WriteString("</table></div>\n</section>\n")
	return b.Bytes()
}

func cssClass(o *Outcome) string {
	if o.Verdict != "" {
		return "v-" + o.Verdict
	}
	return "s-" + o.Status
}

func verdictOrStatus(o *Outcome) string {
	if o.Verdict != "" {
		return o.Verdict
	}
	return o.Status
}

func describeClaim(x *Expected, rec *Record) string {
	var parts []string
	switch {
	case x.Mate > 0:
		parts = append(parts, fmt.Sprintf("mate in %d", x.Mate))
	case x.Mate < 0:
		parts = append(parts, fmt.Sprintf("mated in %d", -x.Mate))
	}
	if rec != nil && len(rec.Claim.Keys) > 0 {
		var keys []string
		for _, k := range rec.Claim.Keys {
			keys = append(keys, rec.Pos.SAN(k))
		}
		parts = append(parts, "key "+strings.Join(keys, " "))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func describeFinding(o *Outcome) string {
	switch o.Status {
	case "mate":
		if o.Mate > 0 {
			return fmt.Sprintf("mate in %d, proved shortest", o.Mate)
		}
		return fmt.Sprintf("mated in %d, proved", -o.Mate)
	case "no-mate":
		if o.Note != "" {
			return "no mate: " + o.Note
		}
		return fmt.Sprintf("no mate in %d moves or fewer (proved)", o.Depth)
	case "limit":
		if o.MateWithin != 0 {
			return fmt.Sprintf("limit reached; proved a forced mate in %d moves or fewer (%+d); no shorter one ruled out beyond %d moves",
				o.MateWithin.Moves(), o.MateWithin, o.Depth)
		}
		return fmt.Sprintf("limit reached; proved no mate in %d moves or fewer; longer mates not decided", o.Depth)
	case "skipped":
		return "not checked: " + o.Note
	}
	return "not searched"
}

// sideToMove marks who is to move under the diagram.
func sideToMove(fen string) string {
	f := strings.Fields(fen)
	if len(f) < 2 {
		return ""
	}
	if f[1] == "b" {
		return `<p class="tomove"><span class="dot black"></span>Black to move</p>`
	}
	return `<p class="tomove"><span class="dot white"></span>White to move</p>`
}

// diagram draws the position with the chess library's SVG encoder, from
// the side to move, with the key found as an arrow, and the claimed key,
// grey and dashed, when it is another.
func diagram(o *Outcome) string {
	if o.FEN == "" || !isASCII(o.FEN) {
		return ""
	}
	opt, err := chess.FEN(o.FEN)
	if err != nil {
		return ""
	}
	pos := chess.NewGame(opt).Position()
	var buf bytes.Buffer
	black := pos.Turn() == chess.Black
	perspective := chess.White
	if black {
		perspective = chess.Black
	}
	if err := chessimage.SVG(&buf, pos.Board(), chessimage.Perspective(perspective)); err != nil {
		return ""
	}
	svg := buf.String()
	if i := strings.Index(svg, "<svg"); i >= 0 {
		svg = svg[i:]
	}
	// The encoder draws a fixed 360x360 canvas without a viewBox; give it
	// one so the page can scale the board instead of clipping it.
	svg = strings.Replace(svg, `<svg width="360" height="360"`, `<svg viewBox="0 0 360 360" width="360" height="360"`, 1)
	// The piece drawings carry ids that would repeat on a page of boards.
	svg = svgIDs.ReplaceAllString(svg, "")
	// The key found, and the claimed key (grey, dashed) when it is another.
	var arrows string
	found := ""
	if len(o.PV) > 0 {
		found = o.PV[0]
		arrows += arrowSVG(found, black, false, fmt.Sprintf("ah%d-%x", o.Line, IDHash(o.ID)&0xffffff))
	}
	if o.Expected != nil && len(o.Expected.Keys) > 0 && o.Expected.Keys[0] != found {
		arrows += arrowSVG(o.Expected.Keys[0], black, true, fmt.Sprintf("ac%d-%x", o.Line, IDHash(o.ID)&0xffffff))
	}
	if i := strings.LastIndex(svg, "</svg>"); i >= 0 && arrows != "" {
		svg = svg[:i] + arrows + svg[i:]
	}
	return svg
}

// svgIDs matches the id attributes of the encoder's drawings.
var svgIDs = regexp.MustCompile(`\s+id="[^"]*"`)

// arrowSVG draws a move (UCI) as an arrow over a 360-pixel board seen
// from Black when flipped; id names its arrowhead, unique in the page.
func arrowSVG(uci string, flipped, dashed bool, id string) string {
	if len(uci) < 4 {
		return ""
	}
	center := func(sq string) (float64, float64, bool) {
		f, r := int(sq[0]-'a'), int(sq[1]-'1')
		if f < 0 || f > 7 || r < 0 || r > 7 {
			return 0, 0, false
		}
		if flipped {
			return float64(7-f)*45 + 22.5, float64(r)*45 + 22.5, true
		}
		return float64(f)*45 + 22.5, float64(7-r)*45 + 22.5, true
	}
	x1, y1, ok1 := center(uci[0:2])
	x2, y2, ok2 := center(uci[2:4])
	if !ok1 || !ok2 {
		return ""
	}
	colour, dash := "#1d6fd8", ""
	if dashed {
		colour, dash = "#777777", ` stroke-dasharray="10,6"`
	}
	return fmt.Sprintf(`<defs><marker id="%s" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3" markerHeight="3" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker></defs>`+
		`<line class="key-arrow" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="8" stroke-opacity="0.8" stroke-linecap="round"%s marker-end="url(#%s)"/>`,
		id, colour, x1, y1, x2, y2, colour, dash, id)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

const htmlHead = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5em 2em;color:#222;background:#fafafa}
h1{font-size:1.5em;margin:0 0 .4em} h2{font-size:1.15em} table{border-collapse:collapse}
th{text-align:left;padding:.2em .8em .2em 0;vertical-align:top;color:#555;font-weight:600}
td{padding:.2em 0;vertical-align:top} .meta td{color:#333} .summary td{text-align:right;padding-left:1.5em}
.summary a{color:inherit} #controls{margin:.8em 0;display:flex;flex-wrap:wrap;gap:.4em 1em;align-items:center}
#controls label{white-space:nowrap} #controls[hidden]{display:none}
.card{display:flex;gap:1.5em;align-items:flex-start;background:#fff;border:1px solid #ddd;border-radius:6px;padding:1em;margin:1em 0}
.card[hidden]{display:none}
.board svg{width:280px;height:280px;display:block} .facts h2{margin:0 0 .3em}
.verdict{font-size:.8em;padding:.1em .5em;border-radius:4px;background:#c33;color:#fff;margin-left:.5em}
.v-timeout .verdict,.s-limit .verdict,.v-skipped .verdict{background:#888} .v-cooked .verdict,.v-shorter .verdict{background:#d80}
.s-mate .verdict{background:#2a8a3a} .s-no-mate .verdict{background:#557}
.src,.fen{margin:.2em 0;color:#666;font-size:.9em} .tomove{margin:.3em 0 0;font-size:.9em;color:#444}
.dot{display:inline-block;width:.8em;height:.8em;border-radius:50%%;border:1px solid #333;margin-right:.4em;vertical-align:-.05em}
.dot.white{background:#fff} .dot.black{background:#222}
details summary{cursor:pointer;color:#1d6fd8}
</style></head><body>
`

// Close writes the page: header, index and the spooled cards.
func (h *htmlWriter) Close(s *Summary) error {
	defer h.spool.Close()
	if err := h.buf.Flush(); err != nil {
		return err
	}
	e := html.EscapeString
	w := bufio.NewWriter(h.w)
	title := "mateline report"
	if len(h.report.Inputs) > 0 {
		title += ": " + strings.Join(h.report.Inputs, ", ")
	}
	fmt.Fprintf(w, htmlHead, e(title))
	w.WriteString("<header><h1>mateline report</h1>\n<table class=\"meta\">\n")
	if len(h.report.Inputs) > 0 {
		fmt.Fprintf(w, "<tr><th>input</th><td>%s</td></tr>\n", e(strings.Join(h.report.Inputs, ", ")))
	}
	if !h.report.Date.IsZero() {
		fmt.Fprintf(w, "<tr><th>date</th><td>%s</td></tr>\n", e(h.report.Date.Format("2006-01-02 15:04 MST")))
	}
	if h.report.Settings != "" {
		fmt.Fprintf(w, "<tr><th>settings</th><td><code>%s</code></td></tr>\n", e(h.report.Settings))
	}
	if h.report.Version != "" {
		fmt.Fprintf(w, "<tr><th>version</th><td>mateline %s</td></tr>\n", e(h.report.Version))
	}
	w.WriteString("</table></header>\n<nav id=\"index\"><h2>Index</h2>\n<table class=\"summary\">\n")
	var kinds []string
	if s != nil {
		if s.Validate {
			for _, v := range Verdicts {
				fmt.Fprintf(w, "<tr data-verdict=\"%s\"><th>%s</th><td>%d</td></tr>\n", v, v, s.Verdict[v])
				if h.shown[v] > 0 {
					kinds = append(kinds, v)
				}
			}
		} else {
			for _, k := range []string{"mate", "no-mate", "limit", StatusError} {
				fmt.Fprintf(w, "<tr data-verdict=\"%s\"><th>%s</th><td>%d</td></tr>\n", k, k, s.Status[k])
				if h.shown[k] > 0 {
					kinds = append(kinds, k)
				}
			}
		}
		rate := 0.0
		if s.Elapsed > 0 {
			rate = float64(s.Positions) / s.Elapsed.Seconds()
		}
		fmt.Fprintf(w, "<tr><th>positions</th><td>%d</td></tr>\n<tr><th>time</th><td>%s</td></tr>\n"+
			"<tr><th>rate</th><td>%.1f positions/s</td></tr>\n", s.Positions, e(FormatDuration(s.Elapsed)), rate)
	}
	w.WriteString("</table>\n")
	// The controls appear only with JavaScript; without it every card is
	// shown, in input order.
	w.WriteString("<div id=\"controls\" hidden><span>show:</span>\n")
	for _, k := range kinds {
		fmt.Fprintf(w, "<label><input type=\"checkbox\" class=\"filter\" value=\"%s\" checked> %s (%d)</label>\n", k, k, h.shown[k])
	}
	w.WriteString("<label>sort by <select id=\"sort\"><option value=\"order\">input order</option><option value=\"id\">id</option>" +
		"<option value=\"rating\">rating</option><option value=\"n\">N (mate length)</option></select></label></div>\n")
	fmt.Fprintf(w, "<p>%d puzzle(s) below.</p></nav>\n<main id=\"cards\">\n", h.n)
	if _, err := h.spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.Copy(w, h.spool); err != nil {
		return err
	}
	w.WriteString("</main>\n<script>\n" + reportScript + "</script>\n</body></html>\n")
	return w.Flush()
}

// reportScript filters the cards by verdict and sorts them; it only hides
// and reorders what the page already holds.
const reportScript = `(function () {
  var cards = Array.prototype.slice.call(document.querySelectorAll('#cards > .card'));
  var controls = document.getElementById('controls');
  controls.hidden = false;
  var boxes = controls.querySelectorAll('input.filter');
  function filter() {
    var on = {};
    boxes.forEach(function (b) { on[b.value] = b.checked; });
    cards.forEach(function (c) { c.hidden = on[c.dataset.verdict] === false; });
  }
  boxes.forEach(function (b) { b.addEventListener('change', filter); });
  document.getElementById('sort').addEventListener('change', function (ev) {
    var key = ev.target.value, numeric = key !== 'id';
    var sorted = cards.slice().sort(function (a, b) {
      var x = a.dataset[key], y = b.dataset[key];
      if (numeric) { return Number(x) - Number(y) || Number(a.dataset.order) - Number(b.dataset.order); }
      return x < y ? -1 : x > y ? 1 : 0;
    });
    var main = document.getElementById('cards');
    sorted.forEach(function (c) { main.appendChild(c); });
  });
})();
`
