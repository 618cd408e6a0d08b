package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/endgame"
	"mateline.dev/mateline/internal/shareddata"
	"mateline.dev/mateline/solver"
)

// newTestServer serves from DTM tables of up to four men (built in a
// temporary cache) and, when the shared data is there, Syzygy.
func newTestServer(t *testing.T, syzygy bool) (*httptest.Server, Tables) {
	t.Helper()
	store := dtm.Open(t.TempDir(), dtm.Options{BuildMen: 4})
	t.Cleanup(func() { store.Close() })
	tables := Tables{DTM: store}
	if syzygy {
		tb, err := endgame.Open(shareddata.Path(t, "syzygy"))
		if err != nil {
			t.Fatal(err)
		}
		tables.Syzygy = tb
	}
	base := solver.Options{DTM: store.Prober(4), SearchDTM: store.Prober(4)}
	srv := New(Config{Tables: tables, Solve: NewSolvePool(1, 1, 16, base, 2*time.Second, 5*time.Second), Version: "test"})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts, tables
}

// get fetches a path and decodes its JSON body.
func get(t *testing.T, ts *httptest.Server, path string, v any) int {
	t.Helper()
	res, err := http.Get(ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if v != nil {
		if err := json.NewDecoder(res.Body).Decode(v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	return res.StatusCode
}

func fenQuery(fen string) string { return url.QueryEscape(strings.ReplaceAll(fen, " ", "_")) }

// TestLichessExample: the example of lila-tablebase's README, field for
// field: KPvKP with both pawns on the seventh.
func TestLichessExample(t *testing.T) {
	ts, _ := newTestServer(t, true)
	var p map[string]any
	if code := get(t, ts, "/standard?fen=4k3/6KP/8/8/8/8/7p/8_w_-_-_0_1", &p); code != 200 {
		t.Fatalf("status %d: %v", code, p)
	}
	want := map[string]any{"dtz": 1.0, "precise_dtz": 1.0, "dtm": 17.0, "dtw": nil, "dtc": nil, "checkmate": false,
		"stalemate": false, "variant_win": false, "variant_loss": false, "insufficient_material": false, "category": "win"}
	for k, v := range want {
		if p[k] != v {
			t.Errorf("%s = %v, want %v", k, p[k], v)
		}
	}
	first := p["moves"].([]any)[0].(map[string]any)
	for k, v := range map[string]any{"uci": "h7h8q", "san": "h8=Q+", "dtz": -2.0, "precise_dtz": -2.0, "dtm": -16.0,
		"zeroing": true, "conversion": true, "checkmate": false, "category": "loss"} {
		if first[k] != v {
			t.Errorf("first move %s = %v, want %v", k, first[k], v)
		}
	}
	var ml Mainline
	if code := get(t, ts, "/standard/mainline?fen=4k3/6KP/8/8/8/8/7p/8_w_-_-_0_1", &ml); code != 200 {
		t.Fatalf("mainline: %d", code)
	}
	if ml.DTZ != 1 || len(ml.Mainline) != 17 || ml.Mainline[0].SAN != "h8=Q+" || ml.Mainline[0].DTZ != -2 ||
		ml.Mainline[16].DTZ != -1 || ml.Winner == nil || *ml.Winner != "w" {
		t.Errorf("mainline: %+v", ml)
	}
}

// TestStandardRules: on positions of three and four men, the answer
// agrees with the tables it is read from, and follows the API's rules:
// moves best first, the root's category the opposite of its best move's,
// dtm in plies, dtz Syzygy's, zeroing and conversion moves.
func TestStandardRules(t *testing.T) {
	ts, tables := newTestServer(t, true)
	fens := []string{
		"8/8/8/8/k7/8/8/1K2Q3 w - - 0 1",    // KQvK, a win
		"8/8/8/8/k7/8/8/1K2Q3 b - - 0 1",    // KQvK, a loss
		"8/8/8/8/4k3/8/3P4/4K3 w - - 0 1",   // KPvK, a win
		"8/8/8/8/4k3/4p3/8/4K3 w - - 0 1",   // KvKP, a draw
		"8/8/8/4k3/8/8/2Q5/3qK3 w - - 0 1",  // KQvKQ
		"8/8/8/3k4/8/8/8/KR5r w - - 0 1",    // KRvKR
		"k7/2K5/1Q6/8/8/8/8/8 b - - 0 1",    // stalemate
		"k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",    // checkmate
		"8/8/8/8/8/8/2k5/K1N5 w - - 0 1",    // KNvK: insufficient
		"8/8/4k3/8/8/8/p7/1N1K4 b - - 0 1",  // KNvKP
		"8/6k1/8/8/8/1Q6/8/K6r w - - 60 80", // a clock
		"7K/8/8/8/8/8/1kq5/8 w - - 0 1",     // KvKQ: White is mated
		"8/8/8/8/3k4/8/2PK4/8 b - - 0 1",    // KPvK, Black to move
		"4k3/4P3/4K3/8/8/8/8/8 b - - 0 1",   // KPvK stalemate trap
		"6k1/8/6K1/8/8/8/8/R7 w - - 0 1",    // KRvK, mate in 1
		"8/8/8/8/8/5k2/6p1/6K1 w - - 0 1",   // KvKP
		"8/2k5/8/8/8/8/1B1N4/K7 w - - 0 1",  // KBNvK
		"8/8/8/8/4p3/4k3/8/4K3 b - - 99 90", // a clock at 99
		"K7/8/8/8/8/8/8/1k1r4 w - - 0 1",    // KvKR
		"8/8/8/8/8/8/pk6/3K4 w - - 0 1",     // KvKP on the seventh
		"8/8/1k6/8/8/8/6PP/6K1 w - - 0 1",   // KPPvK
		"3k4/8/3K4/3P4/8/8/8/8 w - - 0 1",   // KPvK key squares
		"8/8/8/8/1k6/8/8/1K1B1b2 w - - 0 1", // KBvKB
		"1k6/8/1K6/8/8/8/8/2R5 w - - 0 1",   // KRvK mate in 1
		"8/k7/8/8/8/8/8/KQ6 b - - 0 1",      // KQvK Black to move
		"8/8/8/8/8/2k5/1p6/1K6 w - - 0 1",   // KvKP
		"8/8/3k4/8/8/8/8/R3K3 w - - 0 1",    // KRvK, no castling
		"8/8/8/8/8/4k3/8/4K2R w - - 0 1",    // KRvK
		"8/8/8/2k5/8/2K5/8/2Q5 w - - 0 1",   // KQvK
		"8/8/8/8/8/8/k1K5/8 w - - 0 1",      // KvK
		"8/8/8/8/8/p7/k7/2K5 b - - 0 1",     // KvKP
		"8/8/8/1k6/8/1P6/1K6/8 w - - 0 1",   // KPvK
		"8/8/8/8/8/1k6/1p6/1K6 b - - 0 1",   // KvKP
		"6rk/8/8/8/8/8/8/5RK1 w - - 0 1",    // KRvKR
	}
	for _, fen := range fens {
		var p Probe
		if code := get(t, ts, "/standard?fen="+fenQuery(fen), &p); code != 200 {
			t.Errorf("%s: status %d", fen, code)
			continue
		}
		pos := board.MustParseFEN(fen)
		// dtm from the tables, in plies
		if p.Checkmate {
			if p.DTM != nil || p.Category != Loss || len(p.Moves) != 0 {
				t.Errorf("%s: checkmate with dtm %v, %s, %d moves", fen, p.DTM, p.Category, len(p.Moves))
			}
			continue
		}
		v, err := tables.DTM.Probe(&pos)
		if err != nil || p.DTM == nil || *p.DTM != plies(v.Signed()) {
			t.Errorf("%s: dtm %v, the tables %v (%v)", fen, deref(p.DTM), v.Signed(), err)
		}
		z, err := tables.Syzygy.ProbeDTZ(&pos)
		if err != nil || p.DTZ == nil || *p.DTZ != z {
			t.Errorf("%s: dtz %v, Syzygy %d", fen, deref(p.DTZ), z)
		}
		var l board.MoveList
		pos.LegalMoves(&l)
		if len(p.Moves) != l.N {
			t.Errorf("%s: %d moves, %d legal", fen, len(p.Moves), l.N)
			continue
		}
		for i := 1; i < len(p.Moves); i++ {
			if compareMoves(p.Moves[i-1], p.Moves[i]) > 0 {
				t.Errorf("%s: %s before %s", fen, p.Moves[i-1].UCI, p.Moves[i].UCI)
			}
		}
		if len(p.Moves) > 0 {
			best := p.Moves[0]
			if p.Category != best.Category.Neg() {
				t.Errorf("%s: category %s, best move %s leaves %s", fen, p.Category, best.UCI, best.Category)
			}
			// The best move keeps the DTM: one ply more than the child's,
			// with the sign turned.
			if p.DTM != nil && *p.DTM != 0 && best.DTM != nil && *best.DTM != -(*p.DTM-sign(*p.DTM)) {
				t.Errorf("%s: dtm %d, best move %s dtm %d", fen, *p.DTM, best.UCI, *best.DTM)
			}
		}
		for _, m := range p.Moves {
			mv, _ := pos.ParseUCI(m.UCI)
			capture := pos.PieceAt(mv.To()) != board.NoPiece || mv.IsEnPassant()
			pawn := pos.PieceAt(mv.From()).Type() == board.Pawn
			if m.Zeroing != (capture || pawn) || m.Conversion != (capture || mv.Promotion() != board.NoPieceType) || m.SAN != pos.SAN(mv) {
				t.Errorf("%s: move %s zeroing %v conversion %v san %s", fen, m.UCI, m.Zeroing, m.Conversion, m.SAN)
			}
		}
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

// TestCategories: the category rules of the API, by DTZ and the clock,
// and by DTM when no Syzygy file answers.
func TestCategories(t *testing.T) {
	for _, c := range []struct {
		dtz     int
		precise bool
		h       int
		want    Category
	}{
		{0, true, 0, Draw}, {5, true, 0, Win}, {5, true, 95, Win}, {5, true, 96, CursedWin}, {105, true, 0, CursedWin},
		{-5, true, 0, Loss}, {-5, true, 96, BlessedLoss}, {-105, true, 0, BlessedLoss},
		{4, false, 96, SyzygyWin}, {-4, false, 96, SyzygyLoss}, {4, false, 0, Win},
	} {
		if got := dtzCategory(c.dtz, c.precise, c.h); got != c.want {
			t.Errorf("dtz %d precise %v clock %d: %s, want %s", c.dtz, c.precise, c.h, got, c.want)
		}
	}
	for _, c := range []struct {
		dtm, h int
		want   Category
	}{{0, 0, Draw}, {17, 0, Win}, {17, 90, MaybeWin}, {-16, 0, Loss}, {-16, 90, MaybeLoss}} {
		if got := dtmCategory(c.dtm, c.h); got != c.want {
			t.Errorf("dtm %d clock %d: %s, want %s", c.dtm, c.h, got, c.want)
		}
	}
	for c := Loss; c <= Win; c++ {
		if c.Neg().Neg() != c {
			t.Errorf("%s: Neg twice gives %s", c, c.Neg().Neg())
		}
	}
}

// TestErrors: a bad FEN is 400, a position no table holds 404, each with
// a JSON body that says why; garbage and a huge FEN never crash it.
func TestErrors(t *testing.T) {
	ts, _ := newTestServer(t, false)
	for _, c := range []struct {
		path string
		code int
		msg  string
	}{
		{"/standard", 400, "missing fen"},
		{"/standard?fen=garbage", 400, "invalid fen"},
		{"/standard?fen=" + strings.Repeat("k", 10<<10), 400, "a FEN is at most"},
		{"/standard?fen=" + url.QueryEscape("8/8/8/8/8/8/8/8 w - - 0 1"), 400, "kings"},
		{"/standard?fen=" + url.QueryEscape("k7/8/8/8/8/8/8/K6\xe9 w - - 0 1"), 400, "invalid fen"},
		{"/standard?fen=" + fenQuery(board.StartFEN), 404, "castling rights"},
		{"/standard?fen=" + fenQuery("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"), 404, "32 men"},
		{"/standard?fen=" + fenQuery("8/8/8/4k3/8/8/2RPK3/7r w - - 0 1"), 404, "not built"},
		{"/standard/mainline?fen=" + fenQuery("8/8/8/8/k7/8/8/1K2Q3 w - - 0 1"), 404, "--syzygy"},
		{"/solve?fen=" + fenQuery("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1") + "&mate=0", 400, "want a number"},
		{"/solve?fen=" + fenQuery("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1") + "&timeout=soon", 400, "duration"},
		{"/nowhere", 404, ""},
	} {
		res, err := http.Get(ts.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.code || !strings.Contains(string(body), c.msg) {
			t.Errorf("%.60s: %d %s", c.path, res.StatusCode, body)
		}
		if c.msg != "" && !strings.HasPrefix(string(body), `{"error":`) {
			t.Errorf("%.60s: not a JSON error: %s", c.path, body)
		}
	}
}

// TestNotInTablesMoves: a position no table answers is 404 with its
// legal moves, mates and draws it gives at once said, the rest unknown.
func TestNotInTablesMoves(t *testing.T) {
	ts, _ := newTestServer(t, false)
	for _, c := range []struct {
		name, fen string
		mates     int // moves that mate at once
	}{
		{"six men, a back-rank mate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1},
		{"castling rights", board.StartFEN, 0},
		{"a table not built", "8/8/8/4k3/8/8/2RPK3/7r w - - 0 1", 0},
	} {
		var body struct {
			Error string     `json:"error"`
			Moves []MoveInfo `json:"moves"`
		}
		if code := get(t, ts, "/standard?fen="+fenQuery(c.fen), &body); code != 404 {
			t.Errorf("%s: status %d", c.name, code)
			continue
		}
		pos := board.MustParseFEN(c.fen)
		var l board.MoveList
		pos.LegalMoves(&l)
		if len(body.Moves) != len(l.Slice()) || body.Error == "" {
			t.Errorf("%s: %d moves, want %d; error %q", c.name, len(body.Moves), len(l.Slice()), body.Error)
			continue
		}
		unknown := 0
		for _, m := range body.Moves {
			child := pos
			mv, err := child.ParseUCI(m.UCI)
			if err != nil {
				t.Fatalf("%s: %s: %v", c.name, m.UCI, err)
			}
			child.Play(mv)
			want := Unknown
			switch {
			case child.IsCheckmate():
				want = Loss
			case child.IsStalemate() || child.InsufficientMaterial():
				want = Draw
			}
			if m.Category != want || m.SAN != pos.SAN(mv) {
				t.Errorf("%s: %s %s: %v, want %v", c.name, m.UCI, m.SAN, m.Category, want)
			}
			if want == Unknown {
				unknown++
			}
		}
		mates := len(l.Slice()) - unknown
		if mates != c.mates {
			t.Errorf("%s: %d moves known, want %d mates", c.name, mates, c.mates)
		}
		if c.mates > 0 && body.Moves[0].Category != Loss {
			t.Errorf("%s: first %s %v, want a mate first", c.name, body.Moves[0].SAN, body.Moves[0].Category)
		}
	}
}

// TestMateWithoutTables: a checkmate or a stalemate of more men than the
// tables hold is answered all the same, with no moves.
func TestMateWithoutTables(t *testing.T) {
	ts, _ := newTestServer(t, false)
	for _, c := range []struct {
		fen       string
		checkmate bool
		category  Category
	}{
		{"R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", true, Loss},
		{"7k/5Q2/6K1/8/8/8/PPP5/8 b - - 0 1", false, Draw},
	} {
		var p Probe
		if code := get(t, ts, "/standard?fen="+fenQuery(c.fen), &p); code != 200 {
			t.Errorf("%s: status %d", c.fen, code)
			continue
		}
		if p.Checkmate != c.checkmate || p.Stalemate == c.checkmate || p.Category != c.category || p.Moves == nil || len(p.Moves) != 0 {
			t.Errorf("%s: checkmate %v stalemate %v %v, %d moves", c.fen, p.Checkmate, p.Stalemate, p.Category, len(p.Moves))
		}
	}
}

// TestSolve: /solve answers what solve --json does; the queue refuses what
// it cannot hold with 503 and Retry-After; a client that goes away
// cancels its search.
func TestSolve(t *testing.T) {
	ts, _ := newTestServer(t, false)
	var o map[string]any
	if code := get(t, ts, "/solve?fen="+fenQuery("r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1"), &o); code != 200 {
		t.Fatalf("status %d", code)
	}
	if o["status"] != "mate" || o["mate"] != 4.0 || len(o["pv_san"].([]any)) != 7 {
		t.Errorf("solve: %v", o)
	}
	// One worker, a queue of one: a long search, one waiting, the third
	// refused.
	long := "/solve?timeout=3s&fen=" + fenQuery("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	codes := make(chan int, 2)
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+long, nil)
			res, err := http.DefaultClient.Do(req)
			if err == nil {
				codes <- res.StatusCode
				res.Body.Close()
			}
		}()
		time.Sleep(200 * time.Millisecond)
	}
	res, err := http.Get(ts.URL + long)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 503 || res.Header.Get("Retry-After") == "" {
		t.Errorf("a full queue: %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	// The two clients go away: their searches stop, and the slot is free
	// again at once, not after the three seconds.
	// (the server sees the connections close a moment after the
	// clients do: it is asked again until then, under the race detector
	// too, but well before the three seconds)
	start := time.Now()
	cancel()
	wg.Wait()
	code := get(t, ts, "/solve?fen="+fenQuery("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), &o)
	for code == 503 && time.Since(start) < 1500*time.Millisecond {
		time.Sleep(20 * time.Millisecond)
		code = get(t, ts, "/solve?fen="+fenQuery("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), &o)
	}
	if code != 200 || o["mate"] != 1.0 {
		t.Errorf("after the cancelled searches: %d %v", code, o)
	}
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("the cancelled searches held the slot %v", d)
	}
}

// TestManyAtOnce: a thousand requests at once are all answered.
func TestManyAtOnce(t *testing.T) {
	ts, _ := newTestServer(t, false)
	const n = 1000
	var wg sync.WaitGroup
	var mu sync.Mutex
	bad := map[int]int{}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 100, MaxConnsPerHost: 200}}
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fen := "8/8/8/8/k7/8/8/1K2Q3 w - - 0 1"
			if i%3 == 1 {
				fen = "garbage"
			}
			res, err := client.Get(ts.URL + "/standard?fen=" + fenQuery(fen))
			code := 0
			if err == nil {
				code = res.StatusCode
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
			if want := map[bool]int{true: 400, false: 200}[i%3 == 1]; code != want {
				mu.Lock()
				bad[code]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(bad) > 0 {
		t.Errorf("unexpected answers: %v", bad)
	}
}

// TestPage: the page and its assets, under 100 KB in all, nothing from
// another host.
func TestPage(t *testing.T) {
	ts, _ := newTestServer(t, false)
	total := 0
	for _, p := range []string{"/", "/assets/app.js", "/assets/style.css"} {
		res, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
		total += len(body)
		if strings.Contains(string(body), "http://") && p != "/assets/app.js" || strings.Contains(string(body), "https://") {
			t.Errorf("%s loads from another host", p)
		}
	}
	if total >= 100<<10 {
		t.Errorf("the page's first load is %d bytes", total)
	}
	t.Logf("first load: %d bytes", total)
}

func ExampleTables_Standard() {
	store := dtm.Open(tempDir(), dtm.Options{BuildMen: 3})
	defer store.Close()
	pos := board.MustParseFEN("6k1/8/6K1/8/8/8/8/R7 w - - 0 1")
	p, _ := Tables{DTM: store}.Standard(&pos)
	fmt.Println(p.Category, *p.DTM, p.Moves[0].SAN, p.Moves[0].Checkmate)
	// Output: win 1 Ra8# true
}

func tempDir() string {
	d, _ := os.MkdirTemp("", "serve-example-")
	return d
}

// FuzzStandard: whatever the fen parameter holds, /standard answers 200,
// 400 or 404, with a JSON body, and never panics.
func FuzzStandard(f *testing.F) {
	for _, s := range []string{"4k3/6KP/8/8/8/8/7p/8_w_-_-_0_1", "garbage", "", "8/8/8/8/8/8/8/8 w - - 0 1",
		"k7/8/8/8/8/8/8/K6R w KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_-_-_0_1"} {
		f.Add(s)
	}
	store := dtm.Open(f.TempDir(), dtm.Options{BuildMen: 3})
	defer store.Close()
	srv := New(Config{Tables: Tables{DTM: store}})
	f.Fuzz(func(t *testing.T, fen string) {
		req := httptest.NewRequest("GET", "/standard?fen="+url.QueryEscape(fen), nil)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if c := w.Code; c != 200 && c != 400 && c != 404 {
			t.Fatalf("%q: status %d", fen, c)
		}
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%q: not JSON: %s", fen, w.Body.String())
		}
	})
}
