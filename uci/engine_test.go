package uci

import (
	"bufio"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/solver"
)

// session drives an engine in-process, line by line.
type session struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func newSession(t *testing.T) *session {
	t.Helper()
	return newSessionWith(t, Config{Name: "mateline test", Author: "test", DefaultHash: 8, MaxHash: 1024})
}

func newSessionWith(t *testing.T, cfg Config) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, lines: make(chan string, 1000), done: make(chan error, 1)}
	e := New(cfg, outW)
	go func() {
		err := e.Run(context.Background(), inR)
		outW.Close()
		s.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			t.Error("the engine did not end after its input closed")
		}
	})
	return s
}

func (s *session) send(lines ...string) {
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// until reads lines up to one starting with prefix and returns them all.
func (s *session) until(prefix string, timeout time.Duration) []string {
	s.t.Helper()
	var got []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("output ended before %q; got %q", prefix, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, prefix) {
				return got
			}
		case <-deadline:
			s.t.Fatalf("no %q within %v; got %q", prefix, timeout, got)
		}
	}
}

func contains(lines []string, sub string) bool {
	for _, l := range lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

// fenOf asks the engine for its position with "d".
func (s *session) fenOf() string {
	s.send("d")
	for _, l := range s.until("Checkers:", 5*time.Second) {
		if f, ok := strings.CutPrefix(l, "Fen: "); ok {
			return f
		}
	}
	return ""
}

func TestHandshake(t *testing.T) {
	s := newSession(t)
	s.send("uci")
	got := s.until("uciok", 5*time.Second)
	for _, want := range []string{"id name mateline test", "option name Hash type spin default 8 min 1 max 1024",
		"option name Threads type spin", "option name MultiPV type spin default 1", "option name ProveShortest type check default true",
		"option name SyzygyPath type string default <empty>", "option name BookFile type string default <empty>",
		"option name Clear Hash type button"} {
		if !contains(got, want) {
			t.Errorf("uci answer lacks %q:\n%s", want, strings.Join(got, "\n"))
		}
	}
	s.send("isready")
	s.until("readyok", 5*time.Second)
}

// TestBadInput: every kind of bad input gets an info string, and the
// engine goes on.
func TestBadInput(t *testing.T) {
	s := newSession(t)
	cases := []struct {
		send string
		want string
	}{
		{"xyzzy 1 2", "info string unknown command: xyzzy 1 2"},
		{"position fen 8/8/8/8/8/8/8/8 w - - 0 1", "info string bad FEN"},
		{"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e2e4", "info string moves: number 2"},
		{"position sideways", "want startpos or fen"},
		{"setoption name NoSuch value 3", `info string no such option: "NoSuch"`},
		{"setoption name Hash value lots", "info string option Hash wants a number"},
		{"setoption name Hash value 0", "out of range"},
		{"setoption name ProveShortest value maybe", "wants true or false"},
		{"setoption Hash", "setoption needs name"},
		{"go mate zero", `go: mate "zero" is not a count`},
		// a limit it cannot read: answered at once, never a search
		// without the limit the GUI meant
		{"go wtime abc btime 1000", "bestmove "},
	}
	for _, tc := range cases {
		s.send(tc.send, "isready")
		got := s.until("readyok", 5*time.Second)
		if !contains(got, tc.want) {
			t.Errorf("%q: want %q, got %q", tc.send, tc.want, got)
		}
	}
	// The bad FEN left the position where the illegal move stopped it.
	if f := s.fenOf(); f != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" {
		t.Errorf("position after the bad commands: %s", f)
	}
	// An empty line is no command, and the engine still answers.
	s.send("", "   ", "isready")
	if got := s.until("readyok", 5*time.Second); len(got) != 1 {
		t.Errorf("empty lines answered: %q", got)
	}
}

func TestGoBeforePosition(t *testing.T) {
	s := newSession(t)
	s.send("go depth 1")
	got := s.until("bestmove", 10*time.Second)
	if !contains(got, "info string go before position: searching the start position") {
		t.Errorf("%q", got)
	}
	m := strings.Fields(got[len(got)-1])[1]
	start := board.StartPosition()
	if _, err := start.ParseUCI(m); err != nil {
		t.Errorf("bestmove %s is not legal in the start position", m)
	}
}

func TestNoLegalMove(t *testing.T) {
	s := newSession(t)
	for _, tc := range []struct{ fen, word string }{
		{"R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "checkmated"},
		{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemated"},
	} {
		s.send("position fen "+tc.fen, "go mate 2")
		got := s.until("bestmove", 5*time.Second)
		if got[len(got)-1] != "bestmove 0000" || !contains(got, tc.word) {
			t.Errorf("%s: %q", tc.fen, got)
		}
	}
}

// finalScore returns the mate score and pv of the last info line with a
// score before bestmove.
func finalScore(t *testing.T, lines []string) (mate int, pv []string) {
	t.Helper()
	for _, l := range lines {
		f := strings.Fields(l)
		for i := 0; i+2 < len(f); i++ {
			if f[i] == "score" && f[i+1] == "mate" {
				mate, _ = strconv.Atoi(f[i+2])
				pv = nil
				for j, w := range f {
					if w == "pv" {
						pv = f[j+1:]
					}
				}
			}
		}
	}
	return mate, pv
}

// replay plays pv from fen and reports whether it ends in checkmate.
func replay(t *testing.T, fen string, mate int, pv []string) bool {
	t.Helper()
	pos, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	line, err := pos.ParseUCILine(pv)
	if err == nil {
		err = solver.CheckLine(pos, problem.Mate(mate), line)
	}
	if err != nil {
		t.Errorf("pv %v: %v", pv, err)
		return false
	}
	return true
}

func TestMateScores(t *testing.T) {
	s := newSession(t)
	cases := []struct {
		fen  string
		mate int
		best string // "" for any
	}{
		{"4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 0 1", 2, "b3b8"},
		{"1Q2kb1r/p2n1ppp/4q3/4p1B1/4P3/8/PPP2PPP/2KR4 b k - 0 1", -1, "d7b8"},
		{"8/1Q6/8/8/k7/8/2K5/8 b - - 0 1", -2, "a4a5"},
		{"r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1", 4, "g5f7"},
	}
	for _, tc := range cases {
		s.send("position fen "+tc.fen, "go mate 5")
		got := s.until("bestmove", 20*time.Second)
		mate, pv := finalScore(t, got)
		best := strings.Fields(got[len(got)-1])[1]
		if mate != tc.mate || best != tc.best || !replay(t, tc.fen, mate, pv) {
			t.Errorf("%s: score mate %d pv %v bestmove %s; want mate %d bestmove %s\n%s", tc.fen, mate, pv, best, tc.mate, tc.best, strings.Join(got, "\n"))
		}
		if !contains(got, "info string ma") {
			t.Errorf("%s: no plain-words summary: %q", tc.fen, got)
		}
	}
}

func TestMultiPVAndSearchMoves(t *testing.T) {
	s := newSession(t)
	s.send("setoption name MultiPV value 3", "position fen 6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1", "go mate 1")
	got := s.until("bestmove", 10*time.Second)
	if !contains(got, "multipv 1 score mate 1") || !contains(got, "multipv 2 score mate 1") || contains(got, "multipv 3") {
		t.Errorf("two keys with MultiPV 3: %q", got)
	}
	s.send("setoption name multipv value 1", "go mate 1 searchmoves e1e8 g1h1")
	got = s.until("bestmove", 10*time.Second)
	if got[len(got)-1] != "bestmove e1e8" || contains(got, "multipv 2") {
		t.Errorf("searchmoves e1e8: %q", got)
	}
}

// TestInfiniteAndStop: during go infinite, isready is answered, and
// bestmove follows stop at once (within half a second, as other tests may
// load both cores; scripts/promptness.sh measures the latency).
func TestInfiniteAndStop(t *testing.T) {
	s := newSession(t)
	s.send("position startpos", "go infinite")
	time.Sleep(300 * time.Millisecond)
	s.send("isready")
	s.until("readyok", time.Second)
	start := time.Now()
	s.send("stop")
	s.until("bestmove", 2*time.Second)
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("bestmove came %v after stop", d)
	}
	// A proof that ends during go infinite waits for stop.
	s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go infinite")
	got := s.until("info string", 5*time.Second)
	select {
	case l := <-s.lines:
		if strings.HasPrefix(l, "bestmove") {
			t.Errorf("bestmove before stop in go infinite: %q", append(got, l))
		}
	case <-time.After(200 * time.Millisecond):
	}
	s.send("stop")
	s.until("bestmove a1a8", 2*time.Second)
}

func TestPonderHit(t *testing.T) {
	s := newSession(t)
	s.send("position startpos", "go ponder wtime 2000 btime 2000")
	time.Sleep(100 * time.Millisecond)
	s.send("ponderhit")
	start := time.Now()
	s.until("bestmove", 5*time.Second)
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("bestmove %v after ponderhit with a 2 s clock", d)
	}
}

func TestQuitDuringSearch(t *testing.T) {
	s := newSession(t)
	s.send("position startpos", "go infinite")
	time.Sleep(100 * time.Millisecond)
	s.send("quit")
	s.until("bestmove", 2*time.Second)
	select {
	case err := <-s.done:
		if err != nil {
			t.Error(err)
		}
		s.done <- nil
	case <-time.After(2 * time.Second):
		t.Error("quit did not end the engine")
	}
}

// TestProveShortestOff: the first forced mate proved is reported, with a
// line of exactly its length that ends in mate.
func TestProveShortestOff(t *testing.T) {
	s := newSession(t)
	fen := "b3kqr1/2p1p2K/2R2b2/1Q6/p1p5/1p6/8/8 w - - 0 1" // mate in 9
	s.send("setoption name ProveShortest value false", "position fen "+fen, "go mate 12")
	got := s.until("bestmove", 60*time.Second)
	mate, pv := finalScore(t, got)
	if mate < 9 || mate > 12 || !replay(t, fen, mate, pv) {
		t.Errorf("score mate %d pv %v:\n%s", mate, pv, strings.Join(got, "\n"))
	}
	if !contains(got, "ProveShortest is off") && !contains(got, "proved shortest") {
		t.Errorf("no summary: %q", got)
	}
}
