package puzzles

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"image/color"
	"io"
	"os"
	"strings"
	"time"

	"github.com/corentings/chess/v2"
	chessimage "github.com/corentings/chess/v2/image"
)

// htmlWriter writes one self-contained HTML page: the summary, then a
// board diagram with claim, finding and line for every puzzle that failed.
// Failures are spooled to a temporary file, so memory stays flat however
// many there are.
type htmlWriter struct {
	w      io.Writer
	report ReportInfo
	spool  *os.File
	buf    *bufio.Writer
	n      int
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
	return &htmlWriter{w: w, report: report, spool: f, buf: bufio.NewWriter(f)}, nil
}

func failed(o *Outcome) bool {
	if o.Verdict != "" {
		return o.Verdict != VerdictOK
	}
	return o.Status == StatusError
}

// Write spools the card of a failing puzzle.
func (h *htmlWriter) Write(o *Outcome) error {
	b := o.Rendered
	if b == nil {
		b = h.Render(o)
	}
	if len(b) == 0 {
		return nil
	}
	h.n++
	_, err := h.buf.Write(b)
	return err
}

// Render draws the card of a failing puzzle (nothing for the others).
func (h *htmlWriter) Render(o *Outcome) []byte {
	if !failed(o) {
		return []byte{}
	}
	e := html.EscapeString
	b := &bytes.Buffer{}
	fmt.Fprintf(b, "<section class=\"card %s\">\n", e(cssClass(o)))
	if svg := diagram(o); svg != "" {
		fmt.Fprintf(b, "<div class=\"board\">%s</div>\n", svg)
	}
	fmt.Fprintf(b, "<div class=\"facts\"><h2>%s <span class=\"verdict\">%s</span></h2>\n", e(o.ID), e(verdictOrStatus(o)))
	fmt.Fprintf(b, "<p class=\"src\">%s:%d</p>\n", e(o.Source), o.Line)
	if o.FEN != "" {
		fmt.Fprintf(b, "<p class=\"fen\"><code>%s</code></p>\n", e(o.FEN))
	}
	b.WriteString("<table>\n")
	if o.Expected != nil {
		fmt.Fprintf(b, "<tr><th>claim</th><td>%s</td></tr>\n", e(describeClaim(o.Expected, o.Record)))
	}
	fmt.Fprintf(b, "<tr><th>finding</th><td>%s</td></tr>\n", e(describeFinding(o)))
	if len(o.KeysSAN) > 0 {
		label := "keys"
		if o.Mate < 0 {
			label = "defences"
		}
		fmt.Fprintf(b, "<tr><th>%s</th><td>%s</td></tr>\n", label, e(strings.Join(o.KeysSAN, " ")))
	}
	if o.LineSAN != "" {
		fmt.Fprintf(b, "<tr><th>line</th><td>%s</td></tr>\n", e(o.LineSAN))
	}
	if o.Error != "" {
		fmt.Fprintf(b, "<tr><th>error</th><td>%s</td></tr>\n", e(o.Error))
	}
	for _, w := range o.Warnings {
		fmt.Fprintf(b, "<tr><th>warning</th><td>%s</td></tr>\n", e(w))
	}
	if o.Status != StatusError {
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
		return fmt.Sprintf("no mate in %d moves or fewer (proved)", o.Depth)
	case "limit":
		if o.MateWithin != 0 {
			return fmt.Sprintf("limit reached; proved a forced mate in %d moves or fewer (%+d), and no mate in %d moves or fewer",
				abs(o.MateWithin), o.MateWithin, o.Depth)
		}
		return fmt.Sprintf("limit reached; proved no mate in %d moves or fewer", o.Depth)
	}
	return "not searched"
}

// diagram draws the position with the chess library's SVG encoder, from
// the side to move, with the first move of the line marked.
func diagram(o *Outcome) string {
	if o.FEN == "" {
		return ""
	}
	opt, err := chess.FEN(o.FEN)
	if err != nil {
		return ""
	}
	pos := chess.NewGame(opt).Position()
	var buf bytes.Buffer
	perspective := chess.White
	if pos.Turn() == chess.Black {
		perspective = chess.Black
	}
	marks := markSquares(o)
	if err := chessimage.SVG(&buf, pos.Board(), chessimage.Perspective(perspective),
		chessimage.MarkSquares(color.RGBA{R: 0xee, G: 0xcc, B: 0x44, A: 0xff}, marks...)); err != nil {
		return ""
	}
	svg := buf.String()
	if i := strings.Index(svg, "<svg"); i >= 0 {
		svg = svg[i:]
	}
	// The encoder draws a fixed 360x360 canvas without a viewBox; give it
	// one so the page can scale the board instead of clipping it.
	return strings.Replace(svg, `<svg width="360" height="360"`, `<svg viewBox="0 0 360 360" width="360" height="360"`, 1)
}

func markSquares(o *Outcome) []chess.Square {
	if len(o.PV) == 0 || len(o.PV[0]) < 4 {
		return nil
	}
	sq := func(s string) chess.Square {
		return chess.Square(int(s[1]-'1')*8 + int(s[0]-'a'))
	}
	return []chess.Square{sq(o.PV[0][0:2]), sq(o.PV[0][2:4])}
}

const htmlHead = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>mateline report</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222;background:#fafafa}
h1{font-size:1.5em} table{border-collapse:collapse} th{text-align:left;padding:.2em .8em .2em 0;vertical-align:top;color:#555}
td{padding:.2em 0} .summary td{text-align:right;padding-left:1.5em}
.card{display:flex;gap:1.5em;align-items:flex-start;background:#fff;border:1px solid #ddd;border-radius:6px;padding:1em;margin:1em 0}
.board svg{width:280px;height:280px} .facts h2{margin:0 0 .3em;font-size:1.15em}
.verdict{font-size:.8em;padding:.1em .5em;border-radius:4px;background:#c33;color:#fff;margin-left:.5em}
.v-timeout .verdict{background:#888} .v-cooked .verdict,.v-shorter .verdict{background:#d80}
.src,.fen{margin:.2em 0;color:#666;font-size:.9em}
</style></head><body>
`

func (h *htmlWriter) Close(s *Summary) error {
	defer h.spool.Close()
	if err := h.buf.Flush(); err != nil {
		return err
	}
	w := bufio.NewWriter(h.w)
	w.WriteString(htmlHead)
	w.WriteString("<h1>mateline report</h1>\n<table class=\"summary\">\n")
	if s != nil {
		if s.Validate {
			for _, v := range Verdicts {
				fmt.Fprintf(w, "<tr><th>%s</th><td>%d</td></tr>\n", v, s.Verdict[v])
			}
		} else {
			for k, n := range s.Status {
				fmt.Fprintf(w, "<tr><th>%s</th><td>%d</td></tr>\n", html.EscapeString(k), n)
			}
		}
		rate := 0.0
		if s.Elapsed > 0 {
			rate = float64(s.Positions) / s.Elapsed.Seconds()
		}
		fmt.Fprintf(w, "<tr><th>positions</th><td>%d</td></tr>\n<tr><th>time</th><td>%.1f s</td></tr>\n"+
			"<tr><th>rate</th><td>%.1f positions/s</td></tr>\n", s.Positions, s.Elapsed.Seconds(), rate)
	}
	fmt.Fprintf(w, "</table>\n<h1>%d failing puzzle(s)</h1>\n", h.n)
	if _, err := h.spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.Copy(w, h.spool); err != nil {
		return err
	}
	w.WriteString("</body></html>\n")
	return w.Flush()
}
