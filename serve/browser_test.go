package serve

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mateline.dev/mateline/board"
)

// chromium finds a Chromium or Chrome binary, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium on this machine (apt-get install chromium): skipping the browser test")
	return ""
}

// browser starts headless Chromium with a phone's narrow screen, for a
// minute at most, or skips the test.
func browser(t *testing.T) context.Context {
	t.Helper()
	exe := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.NoFirstRun, chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(420, 900)) // a phone's narrow screen
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelT)
	return ctx
}

// TestPageInBrowser drives the page in headless Chromium as a user does:
// it loads /, enters a FEN, reads the status line and the moves with their
// badges, clicks a move, reads the DTM the page shows for the position it
// leads to, and goes back with the browser's back button.
func TestPageInBrowser(t *testing.T) {
	ctx := browser(t)
	ts, _ := newTestServer(t, false)

	// KQvK: White mates; the tables are built on the first request.
	fen := "8/8/8/8/k7/8/8/1K2Q3 w - - 0 1"
	var api Probe
	if code := get(t, ts, "/standard?fen="+fenQuery(fen), &api); code != 200 {
		t.Fatalf("the API: %d", code)
	}
	best := api.Moves[0]
	wantStatus := fmt.Sprintf("White mates in %d", (*api.DTM+1)/2)
	wantBadge := fmt.Sprintf("mate in %d", -*best.DTM/2+1)
	poll := func(expr string) chromedp.Action[chromedp.Void] { return chromedp.Poll[chromedp.Void](expr) }
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#status")),
		// the page's own first position (KRPvKR: a five-man table this
		// server has not built) is answered first
		poll(`!document.getElementById("status").textContent.startsWith("\u2026")`),
		chromedp.SetValue(chromedp.CSS("#fen"), fen),
		chromedp.Click(chromedp.CSS("#fenform button")),
		poll(`document.getElementById("status").textContent.startsWith("White mates")`),
	); err != nil {
		t.Fatal(err)
	}
	text := func(sel string) string {
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return s
	}
	status := text("#status")
	badge := text("#moves .group.win .move .badge.dtm")
	uci, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS("#moves .move"), "data-uci"))
	if err != nil {
		t.Fatal(err)
	}
	firstUCI := uci.Value
	boardHTML, err := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("#board")))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS("#moves .move")),
		poll(`document.getElementById("fen").value.includes(" b ")`),
		poll(`!document.getElementById("status").textContent.startsWith("\u2026")`),
	); err != nil {
		t.Fatal(err)
	}
	value := func(sel string) string {
		s, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return s
	}
	fenAfter, statusAfter := value("#fen"), text("#status")
	if err := chromedp.Do(ctx, chromedp.NavigateBack(), poll(`document.getElementById("fen").value.includes(" w ")`)); err != nil {
		t.Fatal(err)
	}
	fenBack := value("#fen")
	if status != wantStatus || badge != wantBadge || firstUCI != best.UCI {
		t.Errorf("the page says %q, first move %s with %q; the API: %q, %s, %q", status, firstUCI, badge, wantStatus, best.UCI, wantBadge)
	}
	if strings.Count(boardHTML, "<text x=") != 3 || strings.Count(boardHTML, `class="coord"`) != 16 {
		t.Errorf("the board shows %d pieces and %d coordinates, want 3 and 16", strings.Count(boardHTML, "<text x="), strings.Count(boardHTML, `class="coord"`))
	}
	// After the best move Black is mated one move sooner.
	wantAfter := fmt.Sprintf("White mates in %d", (*api.DTM+1)/2-1)
	if !strings.Contains(fenAfter, " b ") || statusAfter != wantAfter {
		t.Errorf("after %s: FEN %q, status %q, want %q", best.UCI, fenAfter, statusAfter, wantAfter)
	}
	if fenBack != fen {
		t.Errorf("back: FEN %q, want %q", fenBack, fen)
	}
}

// squareXY is where square sq is drawn on the page, as the board stands
// (turned or not).
func squareXY(sq string) chromedp.Action[[]float64] {
	return chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => {
		const r = document.querySelector("#board svg").getBoundingClientRect(), i = sqIndex(%q);
		let c = i %% 8, row = 7 - Math.floor(i / 8);
		if (ui.flipped) { c = 7 - c; row = 7 - row; }
		return [r.left + (c + 0.5) * r.width / 8, r.top + (row + 0.5) * r.height / 8];
	})()`, sq))
}

// after is the FEN after the moves (UCI) from fen, by the board package.
func after(t *testing.T, fen string, moves ...string) string {
	t.Helper()
	pos := board.MustParseFEN(fen)
	for _, u := range moves {
		m, err := pos.ParseUCI(u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		pos.Play(m)
	}
	return pos.FEN()
}

// TestBoardInBrowser plays on the board as a user does: a move by two
// clicks, one by a drag, a promotion chosen, the board turned, a position
// made in the editor, and the legal moves of a position no table answers
// listed with "no table" badges and played by a click.
func TestBoardInBrowser(t *testing.T) {
	ctx := browser(t)
	ts, _ := newTestServer(t, false)
	poll := func(expr string) chromedp.Action[chromedp.Void] { return chromedp.Poll[chromedp.Void](expr) }
	answered := poll(`!document.getElementById("status").textContent.startsWith("\u2026")`)
	at := func(sq string) (float64, float64) {
		xy, err := chromedp.Run(ctx, squareXY(sq))
		if err != nil || len(xy) != 2 {
			t.Fatalf("square %s: %v %v", sq, xy, err)
		}
		return xy[0], xy[1]
	}
	click := func(sq string) chromedp.Action[chromedp.Void] {
		x, y := at(sq)
		return chromedp.MouseClickXY(x, y)
	}
	drag := func(from, to string) []chromedp.Action[chromedp.Void] {
		x0, y0 := at(from)
		x1, y1 := at(to)
		return []chromedp.Action[chromedp.Void]{
			chromedp.MouseEvent(chromedp.MousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)),
			chromedp.MouseEvent(chromedp.MouseMoved, (x0+x1)/2, (y0+y1)/2, chromedp.ButtonLeft),
			chromedp.MouseEvent(chromedp.MouseMoved, x1, y1, chromedp.ButtonLeft),
			chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		}
	}
	fenIs := func(want string) chromedp.Action[chromedp.Void] {
		return poll(fmt.Sprintf(`document.getElementById("fen").value === %q`, want))
	}
	js := func(expr string) string {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return s
	}
	step := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v (FEN %q)", what, err, js(`document.getElementById("fen").value`))
		}
	}

	start := "8/8/8/8/k7/8/8/1K2Q3 w - - 0 1"
	step("load", chromedp.Navigate(ts.URL+"/?fen="+fenQuery(start)), chromedp.WaitVisible(chromedp.CSS("#board svg")), answered)
	// two clicks: the queen, then e4
	qe4 := after(t, start, "e1e4")
	step("click", click("e1"))
	step("click e4", click("e4"), fenIs(qe4), answered)
	// a drag: the king from a4 to a3
	ka3 := after(t, qe4, "a4a3")
	step("drag", append(drag("a4", "a3"), fenIs(ka3), answered)...)
	// a drop on a square the man cannot reach plays nothing
	step("bad drop", drag("e4", "d6")...)
	if got := js(`document.getElementById("fen").value`); got != ka3 {
		t.Errorf("after a drop on a square the queen cannot reach: %q, want %q", got, ka3)
	}
	// the board turned: the first coordinate drawn (top left) is rank 8,
	// then rank 1
	if first := js(`document.querySelector("#board .coord").textContent`); first != "8" {
		t.Errorf("first coordinate %q, want 8", first)
	}
	step("flip", chromedp.Click(chromedp.CSS("#flip")))
	if first := js(`document.querySelector("#board .coord").textContent`); first != "1" {
		t.Errorf("turned: first coordinate %q, want 1", first)
	}
	// and a move still goes where it is dropped
	qe8 := after(t, ka3, "e4e8")
	step("drag turned", append(drag("e4", "e8"), fenIs(qe8), answered)...)
	step("unflip", chromedp.Click(chromedp.CSS("#flip")))

	// the editor: a black knight put on h8, taken off, put again; Black to move
	edited := "4Q2n/8/8/8/8/k7/8/1K6 b - - 0 1"
	step("edit", chromedp.Click(chromedp.CSS("#edit")), chromedp.WaitVisible(chromedp.CSS("#editor")),
		chromedp.Click(chromedp.CSS(`#palette [data-man="n"]`)),
		click("h8"), poll(`ui.editing.sq[63] === "n"`), click("h8"), poll(`ui.editing.sq[63] === null`), click("h8"),
		chromedp.SetValue(chromedp.CSS("#side"), "b"),
		chromedp.Click(chromedp.CSS("#done")), fenIs(edited), answered)
	if st := js(`document.getElementById("status").textContent`); !strings.Contains(st, "White mates") && !strings.Contains(st, "Draw") {
		t.Errorf("the edited position: %q", st)
	}
	// a drag off the board removes a man in the editor
	removed := "4Q3/8/8/8/8/k7/8/1K6 w - - 0 1"
	x, y := at("h8")
	step("remove", chromedp.Click(chromedp.CSS("#edit")),
		chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, x+200, y-200, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, x+200, y-200, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.SetValue(chromedp.CSS("#side"), "w"),
		chromedp.Click(chromedp.CSS("#done")), fenIs(removed), answered)

	// a promotion: the page asks which man
	promo := "8/4P3/8/8/8/k7/8/K7 w - - 0 1"
	step("promotion", append(append([]chromedp.Action[chromedp.Void]{
		chromedp.SetValue(chromedp.CSS("#fen"), promo), chromedp.Click(chromedp.CSS("#fenform button")), fenIs(promo), answered},
		drag("e7", "e8")...), chromedp.WaitVisible(chromedp.CSS("#promotion")))...)
	if n := js(`String(document.querySelectorAll("#promotion .promote").length)`); n != "4" {
		t.Errorf("%s promotions offered, want 4", n)
	}
	step("underpromote", chromedp.Click(chromedp.CSS(`#promotion [data-uci="e7e8n"]`)), fenIs(after(t, promo, "e7e8n")), answered)

	// six men: no table, every legal move listed, the mate played by clicks
	six := "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
	pos := board.MustParseFEN(six)
	var l board.MoveList
	pos.LegalMoves(&l)
	step("six men", chromedp.SetValue(chromedp.CSS("#fen"), six), chromedp.Click(chromedp.CSS("#fenform button")), fenIs(six),
		poll(`document.getElementById("status").textContent.startsWith("No table")`))
	if n, want := js(`String(document.querySelectorAll("#moves .move").length)`), fmt.Sprint(len(l.Slice())); n != want {
		t.Errorf("six men: %s moves listed, want %s", n, want)
	}
	if n, want := js(`String(document.querySelectorAll("#moves .badge.none").length)`), fmt.Sprint(len(l.Slice())-1); n != want {
		t.Errorf("six men: %s moves with no table, want %s (all but the mate)", n, want)
	}
	step("mate by clicks", click("a1"), click("a8"), fenIs(after(t, six, "a1a8")),
		poll(`document.getElementById("status").textContent.startsWith("Checkmate")`))
}
