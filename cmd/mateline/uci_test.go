package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	stdlog "log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/corentings/chess/v2"
	chessuci "github.com/corentings/chess/v2/uci"

	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/internal/shareddata"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/solver"
)

var (
	buildOnce sync.Once
	binDir    string // removed by TestMain
	binPath   string
	buildErr  error
)

// binary builds the mateline command once for the tests that run it as a
// real process.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mateline-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binDir, binPath = dir, filepath.Join(dir, "mateline")
		out, err := exec.Command("go", "build", "-buildvcs=auto", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building mateline: %v", buildErr)
	}
	return binPath
}

// uciCase is a position with the mate the solver proves, and its keys.
type uciCase struct {
	name  string
	fen   string
	claim int // the length to ask for (go mate |claim|)
	mate  int
	keys  []string
}

// solved reads the records of an EPD file and proves each in process, as
// mateline solve does; keep selects the records by their claim.
func solved(t *testing.T, path string, every int, keep func(claim int) bool, atMost int) []uciCase {
	t.Helper()
	recs, err := inputs.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sv := solver.New(32)
	var cases []uciCase
	for i, rec := range recs {
		if len(cases) >= atMost {
			break
		}
		if rec.Err != nil || rec.Claim.Mate == 0 || i%every != 0 || !keep(int(rec.Claim.Mate)) {
			continue
		}
		res := sv.Solve(context.Background(), rec.Pos, solver.Options{MaxMate: rec.Claim.Mate.Moves(), AllKeys: true})
		if res.Status != solver.StatusMate {
			t.Fatalf("%s:%d: the solver gives %v", path, rec.Line, res.Status)
		}
		uc := uciCase{name: rec.ID, fen: rec.FEN, claim: int(rec.Claim.Mate), mate: int(res.Mate)}
		for _, k := range res.Keys {
			uc.keys = append(uc.keys, k.UCI())
		}
		cases = append(cases, uc)
	}
	return cases
}

// driveWithClient asks the engine for each case through the UCI client
// of github.com/corentings/chess/v2, and checks the score and the move.
func driveWithClient(t *testing.T, cases []uciCase) {
	t.Helper()
	eng, err := chessuci.New(binary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if err := eng.Run(chessuci.CmdUCI, chessuci.CmdIsReady, chessuci.CmdUCINewGame); err != nil {
		t.Fatal(err)
	}
	if name := eng.ID()["name"]; !strings.HasPrefix(name, "mateline") {
		t.Errorf("engine name %q", name)
	}
	if _, ok := eng.Options()["ProveShortest"]; !ok {
		t.Errorf("options %v lack ProveShortest", eng.Options())
	}
	mated := 0
	for _, tc := range cases {
		opt, err := chess.FEN(tc.fen)
		if err != nil {
			t.Fatalf("%s: the chess library rejects %s: %v", tc.name, tc.fen, err)
		}
		pos := chess.NewGame(opt).Position()
		n := max(tc.claim, -tc.claim)
		if err := eng.Run(chessuci.CmdPosition{Position: pos}, chessuci.CmdGo{Mate: n}); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		res := eng.SearchResults()
		best := ""
		if res.BestMove != nil {
			best = res.BestMove.String()
		}
		if res.Info.Score.Mate != tc.mate || !slices.Contains(tc.keys, best) {
			t.Errorf("%s (%s): engine says mate %d, bestmove %s; mateline solve: mate %d, keys %v",
				tc.name, tc.fen, res.Info.Score.Mate, best, tc.mate, tc.keys)
		}
		if len(res.Info.PV) != problem.Mate(tc.mate).Plies() {
			t.Errorf("%s: pv of %d plies for mate %d", tc.name, len(res.Info.PV), tc.mate)
		}
		if tc.mate < 0 {
			mated++
		}
	}
	t.Logf("%d positions agree (%d mated-in-N)", len(cases), mated)
}

func TestUCIClientExamples(t *testing.T) {
	cases := solved(t, filepath.Join("..", "..", "examples", "mates.epd"), 1, func(int) bool { return true }, 100)
	driveWithClient(t, cases)
}

func TestUCIClientMates2000(t *testing.T) {
	path := shareddata.Path(t, "suites", "matetrack", "mates2000.epd")
	cases := solved(t, path, 7, func(c int) bool { return c >= -6 && c <= 6 }, 40)
	mated := 0
	for _, c := range cases {
		if c.mate < 0 {
			mated++
		}
	}
	if mated == 0 || mated == len(cases) {
		t.Fatalf("the sample should hold both mates and mated positions: %d of %d mated", mated, len(cases))
	}
	driveWithClient(t, cases)
}

// promptOnLoad is how soon an answer the engine gives at once must come
// while other tests load both cores: the search never finishes on its own
// in these tests, so any bound tells "at once" from "not at all"; the
// unloaded latency (under a millisecond) is measured by
// scripts/promptness.sh.
const promptOnLoad = 750 * time.Millisecond

// TestUCIStopAndIsReady: during go infinite the real binary answers
// isready, and bestmove follows stop at once; the client's stop returns
// the search.
func TestUCIStopAndIsReady(t *testing.T) {
	cmd := exec.Command(binary(t)) // no arguments: started as a bare path
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(outPipe)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	wait := func(prefix string, d time.Duration) time.Duration {
		start := time.Now()
		timeout := time.After(d)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("output ended before %q", prefix)
				}
				if strings.HasPrefix(l, prefix) {
					return time.Since(start)
				}
			case <-timeout:
				t.Fatalf("no %q within %v", prefix, d)
			}
		}
	}
	io.WriteString(in, "uci\n")
	wait("uciok", 5*time.Second)
	io.WriteString(in, "isready\n")
	wait("readyok", 5*time.Second)
	io.WriteString(in, "position startpos moves e2e4 e7e5\ngo infinite\n")
	time.Sleep(500 * time.Millisecond)
	io.WriteString(in, "isready\n")
	ready := wait("readyok", time.Second)
	if ready > promptOnLoad {
		t.Errorf("isready during go infinite answered after %v", ready)
	}
	io.WriteString(in, "stop\n")
	if d := wait("bestmove", 2*time.Second); d > promptOnLoad {
		t.Errorf("bestmove %v after stop", d)
	}
	io.WriteString(in, "quit\n")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("quit did not end the process")
	}

	// The client's stop ends its go infinite.
	eng, err := chessuci.New(binary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if err := eng.Run(chessuci.CmdUCI, chessuci.CmdIsReady, chessuci.CmdPosition{Position: chess.StartingPosition()}); err != nil {
		t.Fatal(err)
	}
	searched := make(chan error, 1)
	go func() { searched <- eng.Run(chessuci.CmdGo{Infinite: true}) }()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	if err := eng.Run(chessuci.CmdStop); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-searched:
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > promptOnLoad {
			t.Errorf("the client's go returned %v after stop", d)
		}
		if eng.SearchResults().BestMove == nil {
			t.Error("no bestmove after stop")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the client's go infinite did not return after stop")
	}
}

// TestBareStartOnTerminalGivesHelp: with no arguments and a terminal, the
// help text is printed (not UCI). The test stands in for the terminal
// check by running the command line directly.
func TestNoArgumentsHelp(t *testing.T) {
	code, out := runCLI(t, "--help")
	if code != 0 || !strings.Contains(out, "uci") || !strings.Contains(out, "solve") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}

// TestUCILiveMateLines: through the chess library's UCI client, with its
// log of every line the engine writes, each "score mate" line printed
// during a search is read back: its PV is legal, ends in checkmate and has
// the plies its score says (2N-1 to mate, 2N for a mated side), the mates
// only get shorter, and the last one is the bestmove's.
func TestUCILiveMateLines(t *testing.T) {
	cases := []struct {
		fen    string
		limit  chessuci.CmdGo
		atMost int // the mate must be at most this long (signed moves), and of its sign
	}{
		// mate in 11, found first as a longer mate and then tightened
		{"k7/2Q5/8/2p5/1pp5/1pp5/prp5/nbK5 w - - 0 1", chessuci.CmdGo{Nodes: 20_000_000}, 13},
		// matetrack #14, outside the shared samples: no claim, no cap
		{"8/2p1K1p1/3pp2b/2B3k1/N2pR2N/3p2p1/2n5/rb1B4 w - - 0 1", chessuci.CmdGo{Nodes: 8_000_000}, 20},
		// mated in 3 (mates2000.epd): the longest defence, 6 plies
		{"1r4Rk/4Nq2/7K/8/8/8/b5Q1/6R1 b - - 0 1", chessuci.CmdGo{MoveTime: 2 * time.Second}, -3},
	}
	for _, tc := range cases {
		var log strings.Builder
		var mu sync.Mutex
		eng, err := chessuci.New(binary(t), chessuci.Debug, chessuci.Logger(stdlog.New(lockedWriter{&mu, &log}, "", 0)))
		if err != nil {
			t.Fatal(err)
		}
		opt, err := chess.FEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		pos := chess.NewGame(opt).Position()
		if err := eng.Run(chessuci.CmdUCI, chessuci.CmdIsReady, chessuci.CmdSetOption{Name: "Threads", Value: "1"},
			chessuci.CmdPosition{Position: pos}, tc.limit); err != nil {
			t.Fatal(err)
		}
		best := eng.SearchResults().BestMove
		eng.Close()
		mu.Lock()
		text := log.String()
		mu.Unlock()
		var mates []int
		var last []string
		for _, line := range strings.Split(text, "\n") {
			i := strings.Index(line, "info ")
			if i < 0 || !strings.Contains(line, " score mate ") {
				continue
			}
			var info chessuci.Info
			if err := info.UnmarshalText([]byte(line[i:])); err != nil {
				t.Fatalf("%s: %q: %v", tc.fen, line, err)
			}
			n := info.Score.Mate
			plies := 2*n - 1
			if n < 0 {
				plies = -2 * n
			}
			// The library's own moves, decoded in each position, so that
			// its status sees checks.
			p := pos
			for _, m := range info.PV {
				lm, err := chess.UCINotation{}.Decode(p, m.String())
				if err != nil {
					t.Fatalf("%s: score mate %d: illegal pv move %v: %v", tc.fen, n, m, err)
				}
				p = p.Update(lm)
			}
			if len(info.PV) != plies || p.Status() != chess.Checkmate {
				t.Errorf("%s: score mate %d with a pv of %d plies, ending %v: %q", tc.fen, n, len(info.PV), p.Status(), line)
			}
			mates = append(mates, n)
			last = strings.Fields(line[strings.Index(line, " pv ")+4:])
		}
		if len(mates) == 0 {
			t.Fatalf("%s: no score mate line; the engine wrote\n%s", tc.fen, text)
		}
		for i := 1; i < len(mates); i++ {
			if abs(mates[i]) > abs(mates[i-1]) {
				t.Errorf("%s: the mates grew longer: %v", tc.fen, mates)
			}
		}
		final := mates[len(mates)-1]
		if final*tc.atMost <= 0 || abs(final) > abs(tc.atMost) {
			t.Errorf("%s: mates %v, want at most %d", tc.fen, mates, tc.atMost)
		}
		if best == nil || best.String() != last[0] {
			t.Errorf("%s: bestmove %v, last pv %v", tc.fen, best, last)
		}
		t.Logf("%s: score mate lines %v", tc.fen, mates)
	}
}

// lockedWriter serialises the client's log writes.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
