package report

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/corentings/chess/v2"
	chessimage "github.com/corentings/chess/v2/image"

	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
)

// The page's template, style and script are files of their own, embedded
// in the binary: the page needs no network.
//
//go:embed assets/report.html assets/report.css assets/report.js
var assets embed.FS

var (
	pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
		"join":     strings.Join,
		"duration": Duration,
	}).ParseFS(assets, "assets/report.html"))
	pageCSS    = template.CSS(mustAsset("assets/report.css"))
	pageScript = template.JS(mustAsset("assets/report.js"))
)

func mustAsset(name string) string {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic(err) // embedded at build time: cannot happen
	}
	return string(b)
}

// htmlWriter writes one self-contained HTML page, for the people who fix
// puzzles: a header (inputs, date, settings, version), an index of the
// counts per verdict with filter and sort controls (plain JavaScript; with
// none, everything stays visible), and a card per puzzle with its diagram
// (the key as an arrow, the side to move marked), claim, finding, keys and
// line, and for Lichess rows their links, rating, popularity and themes.
// validate shows the puzzles that are not ok; solve shows every position.
// Cards are spooled to a temporary file, so memory stays flat however many
// there are.
type htmlWriter struct {
	w     io.Writer
	run   RunInfo
	spool *os.File
	buf   *bufio.Writer
	n     int
	shown map[string]int // cards per verdict (or status)
}

func newHTMLWriter(w io.Writer, run RunInfo) (*htmlWriter, error) {
	f, err := os.CreateTemp("", "mateline-report-*.html")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name()) // the open file stays usable
	return &htmlWriter{w: w, run: run, spool: f, buf: bufio.NewWriter(f), shown: map[string]int{}}, nil
}

// shownInReport says whether an outcome gets a card: in validate, the
// puzzles that are not ok (skipped ones, which are not mate puzzles, are
// only counted); in solve, every position.
func shownInReport(o *puzzles.Answer) bool {
	if o.Verdict != "" {
		return !o.Verdict.Passes()
	}
	return true
}

// Write spools the card of an outcome.
func (h *htmlWriter) Write(o *puzzles.Answer, rendered []byte) error {
	if rendered == nil {
		rendered = h.Render(o)
	}
	if len(rendered) == 0 {
		return nil
	}
	h.n++
	h.shown[kindOf(o)]++
	_, err := h.buf.Write(rendered)
	return err
}

// maxKeysShown is how many keys a card lists before it folds them.
const maxKeysShown = 8

// card is what the card template shows of one outcome.
type card struct {
	*puzzles.Answer
	Class, Kind    string
	Rating, N      int
	Diagram        template.HTML
	BlackToMove    bool
	Lichess        *record.LichessInfo
	Claim, Finding string
	Reason         string // the verdict's, or what a limit cut
	Keys           []string
	KeysLabel      string
	FoldKeys       bool
	Stats          string
}

// Render draws the card of an outcome (nothing for one the report leaves
// out).
func (h *htmlWriter) Render(o *puzzles.Answer) []byte {
	if !shownInReport(o) {
		return []byte{}
	}
	c := card{Answer: o, Kind: kindOf(o), Class: "s-" + string(o.Status), N: o.Mate.Moves(),
		Lichess: o.Lichess(), Finding: describeFinding(o), Reason: verdictReason(o), Keys: o.KeysSAN, KeysLabel: "keys"}
	if o.Verdict != "" {
		c.Class = "v-" + string(o.Verdict)
	}
	if c.Lichess != nil {
		c.Rating = c.Lichess.Rating
	}
	if o.Expected != nil {
		if o.Expected.Mate != 0 {
			c.N = o.Expected.Mate.Moves()
		}
		c.Claim = describeClaim(o)
	}
	c.Diagram = template.HTML(diagram(o)) // our own drawing: the chess library's SVG and our arrows
	c.BlackToMove = len(strings.Fields(o.FEN)) > 1 && strings.Fields(o.FEN)[1] == "b"
	if o.Mate < 0 {
		c.KeysLabel = "defences"
	}
	if o.Stipulation != "" {
		c.Keys, c.KeysLabel = o.KeysText, "keys"
		if len(o.SolutionText) > 0 {
			c.Keys, c.KeysLabel = o.SolutionText, "solutions"
		}
	}
	c.FoldKeys = len(c.Keys) > maxKeysShown
	if o.Status != puzzles.StatusError && o.Status != puzzles.StatusSkipped {
		c.Stats = statsLine(o)
	}
	var b bytes.Buffer
	if err := pageTemplate.ExecuteTemplate(&b, "card", c); err != nil {
		return []byte(fmt.Sprintf("<section class=\"card\">%s</section>\n", template.HTMLEscapeString(err.Error())))
	}
	return b.Bytes()
}

// kindOf is what a card is filed under: its verdict, else its status.
func kindOf(o *puzzles.Answer) string {
	if o.Verdict != "" {
		return string(o.Verdict)
	}
	return string(o.Status)
}

// count is one row of the index or one filter: a kind and how many.
type count struct {
	Kind string
	N    int
}

// page is what the page's start and end templates show.
type page struct {
	Title   string
	CSS     template.CSS
	Script  template.JS
	Run     RunInfo
	Summary *Summary
	Counts  []count // the index: every verdict (validate) or status (solve)
	Shown   []count // the filters: the kinds that have cards
	Cards   int
}

// Close writes the page: header, index and the spooled cards.
func (h *htmlWriter) Close(s *Summary) error {
	defer h.spool.Close()
	if err := h.buf.Flush(); err != nil {
		return err
	}
	p := page{Title: "mateline report", CSS: pageCSS, Script: pageScript, Run: h.run, Summary: s, Cards: h.n}
	if len(h.run.Inputs) > 0 {
		p.Title += ": " + strings.Join(h.run.Inputs, ", ")
	}
	if s != nil {
		var kinds []string
		if s.Validate {
			for _, v := range puzzles.Verdicts {
				kinds = append(kinds, string(v))
				p.Counts = append(p.Counts, count{string(v), s.Verdict[v]})
			}
		} else {
			for _, st := range []puzzles.Status{puzzles.StatusMate, puzzles.StatusLimit, puzzles.StatusCapped, puzzles.StatusNoMate, puzzles.StatusError} {
				kinds = append(kinds, string(st))
				p.Counts = append(p.Counts, count{string(st), s.Status[st]})
			}
		}
		for _, k := range kinds {
			if h.shown[k] > 0 {
				p.Shown = append(p.Shown, count{k, h.shown[k]})
			}
		}
	}
	w := bufio.NewWriter(h.w)
	if err := pageTemplate.ExecuteTemplate(w, "start", p); err != nil {
		return err
	}
	if _, err := h.spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.Copy(w, h.spool); err != nil {
		return err
	}
	if err := pageTemplate.ExecuteTemplate(w, "end", p); err != nil {
		return err
	}
	return w.Flush()
}

// diagram draws the position with the chess library's SVG encoder, from
// the side to move, with the key found as an arrow, and the claimed key,
// grey and dashed, when it is another.
func diagram(o *puzzles.Answer) string {
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
	// Every key found (a cooked puzzle has several), and the claimed key
	// (grey, dashed) when it is none of them.
	var arrows string
	keys := o.Keys
	if len(keys) == 0 && len(o.PV) > 0 {
		keys = o.PV[:1]
	}
	if o.Stipulation != "" || o.Mate < 0 {
		keys = nil // a helpmate's or a mated side's moves are no keys to draw
		if len(o.PV) > 0 {
			keys = o.PV[:1]
		}
	}
	for i, k := range keys {
		arrows += arrowSVG(k, black, false, fmt.Sprintf("ah%d-%x-%d", o.Line, record.IDHash(o.ID)&0xffffff, i))
	}
	if o.Expected != nil && len(o.Expected.Keys) > 0 && !slices.Contains(keys, o.Expected.Keys[0]) {
		arrows += arrowSVG(o.Expected.Keys[0], black, true, fmt.Sprintf("ac%d-%x", o.Line, record.IDHash(o.ID)&0xffffff))
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
