package serve

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
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

// TestPageInBrowser drives the page in headless Chromium as a user does:
// it loads /, enters a FEN, reads the status line and the moves with their
// badges, clicks a move, reads the DTM the page shows for the position it
// leads to, and goes back with the browser's back button.
func TestPageInBrowser(t *testing.T) {
	exe := chromium(t)
	ts, _ := newTestServer(t, false)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.NoFirstRun, chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(420, 900)) // a phone's narrow screen
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	defer cancelT()

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
	if strings.Count(boardHTML, "<text") != 3 {
		t.Errorf("the board shows %d pieces, want 3", strings.Count(boardHTML, "<text"))
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
