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

// interruptCases are positions of matetrack.epd outside the shared samples
// (its line, its FEN, the shortest mate), chosen to be proved shortest in
// well under a second, from 1 to 20 moves: the truth that every
// interrupted run is held to. The full run of each proves the same length
// again before it is interrupted.
var interruptCases = []struct {
	line int
	fen  string
	mate int
}{
	{6171, "K4bk1/1r4p1/1qb2pnR/3p2NR/7r/7R/1p5n/QRRRRRRR w - - 0 1", 20},
	{6068, "5bk1/p3p1p1/p3P1P1/p7/p7/p7/P7/7K w - - 0 1", 18},
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
// MATELINE_INTERRUPT_SWEEP=N runs N stops of each kind per position (1 by
// default); MATELINE_INTERRUPT_SEED replays a run.
func TestInterruptionNeverLies(t *testing.T) {
	runs := 1
	if s := os.Getenv("MATELINE_INTERRUPT_SWEEP"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("MATELINE_INTERRUPT_SWEEP=%q: want a count", s)
		}
		runs = n
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
		writeFile(t, input, fmt.Sprintf("%s bm #%d; id \"matetrack:%d\";\n", c.fen, c.mate, c.line))
		full := fullRun(t, bin, dir, input, c.mate)
		for _, command := range []string{"solve", "validate"} {
			for r := 0; r < runs; r++ {
				for kind := stopKind(0); kind < stopKinds; kind++ {
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
					what := fmt.Sprintf("seed %d, matetrack.epd:%d (#%d), %s %s stopped by %s (%v)", seed, c.line, c.mate, command, format, kind, args)
					verdict := ""
					if command == "validate" {
						verdict = full.verdict
					}
					checkClaims(t, what, out, c.mate, verdict, format)
					stops++
				}
			}
		}
		for r := 0; r < runs; r++ {
			at := time.Duration(rng.Int64N(int64(full.elapsed*6/5) + 1))
			out := uciStopped(t, bin, c.fen, at)
			checkClaims(t, fmt.Sprintf("seed %d, matetrack.epd:%d (#%d), UCI go infinite stopped after %v", seed, c.line, c.mate, at), out, c.mate, "", "uci")
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
		_, out, errOut := runIn(t, bin, dir, command, "--json", "-j", "1", "--threads", "1", "--timeout", "0", "--no-progress", input)
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

// runIn runs the binary in dir and returns its exit code and outputs.
func runIn(t *testing.T, bin, dir string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
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
	noMateRe    = regexp.MustCompile(`no mate in (\d+)(?: moves)? or fewer|no mate in (\d+) proved`)
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
