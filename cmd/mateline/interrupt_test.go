package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// interruptCases are positions outside the shared samples (matetrack.epd,
// matetools' mate-in-2.epd, by line), with their shortest mate, from 1 to
// 20 moves, each proved shortest in well under a second: the truth that
// every stopped run is held to. The full run of each proves that length
// again before it is stopped.
var interruptCases = []struct {
	source string
	line   int
	fen    string
	mate   int
}{
	{"by hand", 1, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1},
	{"mate-in-2", 2500, "b1R5/pk1Kp2P/p2p4/P4p2/8/8/7p/4r3 w - - 0 1", 2},
	{"mate-in-2", 5500, "1n2r2r/3p4/8/6pp/p7/2BB4/6R1/2k4K w - - 0 1", 2},
	{"matetrack", 23, "1N3B2/5p2/2R2p2/1p1kpp2/1P2rp2/2P1pB2/2P1P1K1/8 w - - 0 1", 3},
	{"matetrack", 25, "1r5k/4NP1b/7K/8/6R1/8/8/8 w - - 0 1", 3},
	{"matetrack", 60, "3bN1n1/1pp5/4p2p/1P1kP3/1B4N1/rpPB2p1/p3K3/8 w - - 0 1", 4},
	{"matetrack", 240, "8/8/7p/7P/1p1N1pK1/1P1PbP1R/pp2N3/rk6 w - - 0 1", 5},
	{"matetrack", 120, "1N3k2/1R1p1ppK/p1bN1Pp1/4n3/8/4B3/q6b/8 w - - 0 1", 5},
	{"matetrack", 420, "8/1p2K3/2B2p2/pp2kP2/1P1R2P1/P1p1P2p/2bpPp2/3r4 w - - 0 1", 6},
	{"matetrack", 300, "1b2B1nK/4p1rp/5p2/1PB2p1q/kPp5/1pR5/1p6/1N2n3 w - - 0 1", 6},
	{"matetrack", 1080, "8/8/8/1p2p3/1Pp1P2p/2Np2pP/NPkP1pP1/2BR1K1Q w - - 0 1", 7},
	{"matetrack", 1020, "8/6n1/6R1/4p2p/4p1pk/4N1p1/6K1/8 w - - 0 1", 7},
	{"matetrack", 840, "5k1B/2R2P1K/4p3/1p5n/4p3/1rn5/8/8 w - - 0 1", 7},
	{"matetrack", 2460, "8/2p5/2Pp4/p2Pp3/1p2P3/1K6/P2N4/k7 w - - 0 1", 8},
	{"matetrack", 2520, "8/r7/B7/8/8/p7/5p1p/2b2K1k w - - 0 1", 8},
	{"matetrack", 2400, "1rb2nnb/1p1pp1P1/4p1k1/P1p3pN/4P2p/Kp3QP1/4r2q/8 w - - 0 1", 8},
	{"matetrack", 3420, "3B4/PPPPPPPP/B4Nk1/1qb1nnpb/2pr4/1r6/2pp4/K7 w - - 0 1", 9},
	{"matetrack", 4140, "8/7p/1p1B4/6r1/2p4p/7p/2P1P1pp/4K1kb w - - 0 1", 10},
	{"matetrack", 4688, "8/1p1p1p2/3P1P2/PP3p2/p4P1p/2p2P1k/P1P3pB/6K1 w - - 0 1", 11},
	{"matetrack", 4672, "1n4br/5p1k/p4p1P/p1p2p1K/P1P2p1P/5P2/3N3P/8 w - - 0 1", 11},
	{"matetrack", 5084, "8/8/8/8/8/pppppP1p/qpbrrp1K/1n1nbk2 w - - 0 1", 12},
	{"matetrack", 5092, "8/3Q4/8/2kp4/8/1p1p4/pp1p4/rrbK4 w - - 0 1", 12},
	{"matetrack", 5406, "7K/2p1p1p1/2PpP1Pk/6pP/Pp4P1/8/1P1P4/8 w - - 0 1", 13},
	{"matetrack", 5617, "1n6/1P2N1pP/2b5/K7/3q2k1/1r3N2/p5p1/5Qr1 w - - 0 1", 14},
	{"matetrack", 5763, "8/1p1p1p2/1p1P1P1P/1P6/6p1/4p1p1/3pP1PB/3B1K1k w - - 0 1", 15},
	{"matetrack", 5766, "k1K5/rpP3b1/p1ppp3/4pb2/4p3/6n1/r5n1/8 w - - 0 1", 15},
	{"matetrack", 5892, "8/1p1p1p1p/3P1P2/pp5P/kp6/1p4P1/1P4P1/2K5 w - - 0 1", 16},
	{"matetrack", 5994, "5bk1/p3p1p1/p3P1P1/p7/p7/8/P7/5K2 w - - 0 1", 17},
	{"matetrack", 6068, "5bk1/p3p1p1/p3P1P1/p7/p7/p7/P7/7K w - - 0 1", 18},
	{"matetrack", 6104, "8/8/8/2b3p1/5pPk/4pPp1/2N1PpP1/5K2 w - - 0 1", 18},
	{"matetrack", 6129, "7b/1p4p1/bp4P1/1p4PK/kp4P1/1p4P1/1P4P1/8 w - - 0 1", 19},
	{"matetrack", 6171, "K4bk1/1r4p1/1qb2pnR/3p2NR/7r/7R/1p5n/QRRRRRRR w - - 0 1", 20},
}

// stopKind is how a run is stopped before its proof is done.
type stopKind int

const (
	stopSignal  stopKind = iota // SIGINT at a random moment
	stopNodes                   // --nodes at a random count
	stopTimeout                 // --timeout at a random time
	stopKinds
)

func (k stopKind) String() string { return [...]string{"SIGINT", "--nodes", "--timeout"}[k] }

// TestInterruptionNeverLies: solve and validate, stopped at random moments
// by SIGINT, a node limit or a time limit, in every streamed format, and
// UCI's go infinite stopped at random, claim nothing that the finished
// run contradicts: no mate shorter than the shortest, no "no mate in N"
// at or beyond it, no verdict but the finished one's or timeout.
// MATELINE_INTERRUPT_SWEEP=N runs N stops of each kind, by solve and by
// validate, and N of UCI, per position (by
// default: one stop a position, the kinds, commands and formats in turn,
// and UCI on every other position); MATELINE_INTERRUPT_SEED replays a
// run.
func TestInterruptionNeverLies(t *testing.T) {
	runs, sweep := 1, false
	if s := os.Getenv("MATELINE_INTERRUPT_SWEEP"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("MATELINE_INTERRUPT_SWEEP=%q: want a count", s)
		}
		runs, sweep = n, true
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("MATELINE_INTERRUPT_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("MATELINE_INTERRUPT_SEED=%q: want a number", s)
		}
		seed = v
	}
	rng := rand.New(rand.NewPCG(seed, 54))
	bin, dir := binary(t), t.TempDir()
	formats := []string{"text", "jsonl", "csv", "epd", "pgn"}
	stops := 0
	for i, c := range interruptCases {
		input := filepath.Join(dir, fmt.Sprintf("case%d.epd", i))
		writeFile(t, input, fmt.Sprintf("%s bm #%d; id \"%s:%d\";\n", c.fen, c.mate, c.source, c.line))
		full := fullRun(t, bin, dir, input, c.mate)
		for ci, command := range []string{"solve", "validate"} {
			for r := 0; r < runs; r++ {
				for kind := stopKind(0); kind < stopKinds; kind++ {
					if !sweep && (ci != i%2 || int(kind) != i%int(stopKinds)) {
						continue // one stop a position, the kinds and commands in turn
					}
					format := formats[rng.IntN(len(formats))]
					threads := 1 + rng.IntN(2)
					args := []string{command, "--format", format, "-j", "1", "--threads", strconv.Itoa(threads), "--no-progress"}
					var signalAt time.Duration
					switch kind {
					case stopSignal:
						args = append(args, "--timeout", "0")
						signalAt = time.Duration(rng.Int64N(int64(full.elapsed*6/5) + 1))
					case stopNodes:
						args = append(args, "--nodes", strconv.FormatUint(1+rng.Uint64N(full.nodes*6/5+1), 10))
					case stopTimeout:
						args = append(args, "--timeout", (time.Millisecond + time.Duration(rng.Int64N(int64(full.elapsed*6/5)+1))).String())
					}
					args = append(args, input)
					out := runStopped(t, bin, dir, args, signalAt, kind == stopSignal)
					what := fmt.Sprintf("seed %d, %s:%d (#%d), %s %s stopped by %s (%v)", seed, c.source, c.line, c.mate, command, format, kind, args)
					verdict := ""
					if command == "validate" {
						verdict = full.verdict
					}
					checkClaims(t, what, out, c.mate, verdict, format)
					stops++
				}
			}
		}
		for r := 0; r < runs && (sweep || i%2 == 0); r++ {
			at := time.Duration(rng.Int64N(int64(full.elapsed*6/5) + 1))
			out := uciStopped(t, bin, c.fen, at)
			checkClaims(t, fmt.Sprintf("seed %d, %s:%d (#%d), UCI go infinite stopped after %v", seed, c.source, c.line, c.mate, at), out, c.mate, "", "uci")
			stops++
		}
	}
	t.Logf("%d positions, %d stopped runs, seed %d", len(interruptCases), stops, seed)
}

// finished is what the full run of a case proved and cost.
type finished struct {
	elapsed time.Duration
	nodes   uint64
	verdict string
}

// fullRun solves and validates input to the end, checks that the mate is
// proved shortest at its known length, and returns its time, nodes and
// validate's verdict.
func fullRun(t *testing.T, bin, dir, input string, mate int) finished {
	t.Helper()
	var f finished
	for _, command := range []string{"solve", "validate"} {
		start := time.Now()
		_, out, errOut := runBinary(t, dir, command, "--json", "-j", "1", "--threads", "1", "--timeout", "0", "--no-progress", input)
		var rec struct {
			Status  string `json:"status"`
			Mate    int    `json:"mate"`
			Nodes   uint64 `json:"nodes"`
			Verdict string `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(firstLine(out)), &rec); err != nil || rec.Status != "mate" || rec.Mate != mate {
			t.Fatalf("%s %s: %s %s: want mate %d proved shortest", command, input, out, errOut, mate)
		}
		if command == "solve" {
			f.elapsed, f.nodes = time.Since(start), rec.Nodes
		} else {
			f.verdict = rec.Verdict
		}
	}
	return f
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// runStopped runs the binary, with SIGINT after at when signal is set, and
// returns everything it wrote.
func runStopped(t *testing.T, bin, dir string, args []string, at time.Duration, signal bool) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if signal {
		time.Sleep(at)
		cmd.Process.Signal(syscall.SIGINT)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("%v: did not end", args)
	}
	return out.String()
}

// uciStopped runs go infinite on fen, stops it after at and returns the
// engine's output up to bestmove.
func uciStopped(t *testing.T, bin, fen string, at time.Duration) string {
	t.Helper()
	cmd := exec.Command(bin, "uci")
	in, _ := cmd.StdinPipe()
	pipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	lines := make(chan string, 4096)
	go func() {
		sc := bufio.NewScanner(pipe)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	io.WriteString(in, "uci\nsetoption name Threads value 1\nisready\n")
	var b strings.Builder
	readUntil := func(prefix string) {
		timeout := time.After(time.Minute)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("UCI output ended before %q:\n%s", prefix, b.String())
				}
				b.WriteString(l + "\n")
				if strings.HasPrefix(l, prefix) {
					return
				}
			case <-timeout:
				t.Fatalf("no %q:\n%s", prefix, b.String())
			}
		}
	}
	readUntil("readyok")
	io.WriteString(in, "position fen "+fen+"\ngo infinite\n")
	time.Sleep(at)
	io.WriteString(in, "stop\n")
	readUntil("bestmove")
	io.WriteString(in, "quit\n")
	return b.String()
}

// The words of every format that claim a bound: a mate proved shortest,
// a forced mate proved (an upper bound), no mate within a length (a lower
// bound).
var (
	shortestRe  = regexp.MustCompile(`(?:^|[^\w])mate in (\d+)(?: \(proved shortest\)|, proved shortest| proved shortest)`)
	withinRe    = regexp.MustCompile(`(no )?(?:mate in (\d+) proved[,;]|mate in at most (\d+)|forced mate in (\d+) proved|score mate (\d+))`)
	noMateRe    = regexp.MustCompile(`no mate in (\d+)`)
	anyLengthRe = regexp.MustCompile(`no mate at any length|no mate for either side`)
)

// checkClaims fails the test for any claim in out, written in format,
// that the shortest mate (mate) contradicts; verdict is the finished
// run's (validate), which a stopped run may give or replace by timeout.
func checkClaims(t *testing.T, what, out string, mate int, verdict, format string) {
	t.Helper()
	bad := func(format string, args ...any) {
		t.Errorf("%s: %s\n%s", what, fmt.Sprintf(format, args...), out)
	}
	for _, m := range shortestRe.FindAllStringSubmatch(out, -1) {
		if n, _ := strconv.Atoi(m[1]); n != mate {
			bad("says %q: the shortest is %d", m[0], mate)
		}
	}
	for _, m := range withinRe.FindAllStringSubmatch(out, -1) {
		if m[1] != "" {
			continue // "no mate in N proved": a lower bound
		}
		for _, g := range m[2:] {
			if n, err := strconv.Atoi(g); err == nil && n < mate {
				bad("says %q: no mate is shorter than %d", m[0], mate)
			}
		}
	}
	for _, m := range noMateRe.FindAllStringSubmatch(out, -1) {
		for _, g := range m[1:] {
			if n, err := strconv.Atoi(g); err == nil && n >= mate {
				bad("says %q: a mate in %d exists", m[0], mate)
			}
		}
	}
	if m := anyLengthRe.FindString(out); m != "" {
		bad("says %q: a mate in %d exists", m, mate)
	}
	switch format {
	case "jsonl":
		for _, line := range strings.Split(out, "\n") {
			if !strings.HasPrefix(line, "{") {
				continue
			}
			var rec struct {
				Status     string `json:"status"`
				Mate       int    `json:"mate"`
				MateWithin int    `json:"mate_within"`
				Depth      int    `json:"depth"`
				Verdict    string `json:"verdict"`
			}
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				bad("unreadable JSON %q: %v", line, err)
				continue
			}
			checkRecord(bad, rec.Status, rec.Mate, rec.MateWithin, rec.Depth, rec.Verdict, mate, verdict)
		}
	case "csv":
		start := strings.Index(out, "id,line,")
		if start < 0 {
			return
		}
		rows, err := csv.NewReader(strings.NewReader(csvPart(out[start:]))).ReadAll()
		if err != nil || len(rows) < 1 {
			bad("unreadable CSV: %v", err)
			return
		}
		col := map[string]int{}
		for i, name := range rows[0] {
			col[name] = i
		}
		for _, row := range rows[1:] {
			n := func(name string) int { v, _ := strconv.Atoi(row[col[name]]); return v }
			checkRecord(bad, row[col["status"]], n("mate"), n("mate_within"), n("depth"), row[col["verdict"]], mate, verdict)
		}
	case "epd":
		for _, m := range regexp.MustCompile(`\bdm (\d+);`).FindAllStringSubmatch(out, -1) {
			if n, _ := strconv.Atoi(m[1]); n != mate {
				bad("says dm %d: the shortest is %d", n, mate)
			}
		}
		for _, line := range strings.Split(out, "\n") {
			if m := regexp.MustCompile(`\bacd (\d+);`).FindStringSubmatch(line); m != nil && !strings.Contains(line, " dm ") {
				if n, _ := strconv.Atoi(m[1]); n >= mate {
					bad("an unproved record says acd %d: a mate in %d exists", n, mate)
				}
			}
		}
	}
	if verdict != "" {
		for _, m := range regexp.MustCompile(`verdict[": ]+([a-z-]+)`).FindAllStringSubmatch(out, -1) {
			if v := m[1]; v != verdict && v != "timeout" {
				bad("verdict %q: the finished run says %q", v, verdict)
			}
		}
	}
}

// checkRecord checks one structured record (JSON, CSV).
func checkRecord(bad func(string, ...any), status string, got, within, depth int, v string, mate int, verdict string) {
	switch status {
	case "mate":
		if got != mate {
			bad("status mate %d: the shortest is %d", got, mate)
		}
	case "limit":
		if depth >= mate {
			bad("limit with depth %d: a mate in %d exists", depth, mate)
		}
		if within != 0 && within < mate {
			bad("mate_within %d: the shortest is %d", within, mate)
		}
	default:
		bad("status %q: a mate in %d exists", status, mate)
	}
	if verdict != "" && v != verdict && v != "timeout" {
		bad("verdict %q: the finished run says %q", v, verdict)
	}
}

// csvPart is the CSV rows of a combined output: up to the summary.
func csvPart(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if line == "" || line == "summary" {
			break
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}
