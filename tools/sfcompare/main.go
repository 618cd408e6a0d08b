// Command sfcompare runs mateline and Stockfish side by side on EPD files
// with mate claims (bm #N, bm #-N, dm N) and prints, per claimed N, how many
// positions each proves or finds with exactly the stated length, how many
// shorter (the suite is then wrong), and their node rates. For mateline
// there are two counts: a forced mate within the stated length proved (the
// claim's upper bound, what Stockfish's "found" corresponds to, but proved
// against every defence), and that mate proved shortest.
//
// Each program gets the stated N, the same time per position, one thread
// and the same hash size. Stockfish runs "go mate N movetime T". It needs
// a UCI engine binary (Debian: apt-get install stockfish); mateline's tests
// do not.
//
//	go run ./tools/sfcompare -movetime 2s ../shared/data/suites/samples/*.epd
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"

	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/solver"
)

type tally struct {
	n                  int
	sfExact, sfShorter int
	mlExact, mlShorter int
	mlForced           int // a forced mate of the stated length proved, shortest or not
	sfNodes, mlNodes   uint64
	sfTime, mlTime     time.Duration
}

func main() {
	engine := flag.String("engine", "", "UCI engine to compare with (default: stockfish on PATH or /usr/games/stockfish)")
	movetime := flag.Duration("movetime", 2*time.Second, "time per position for each program")
	hash := flag.Int("hash", 64, "hash MiB for each program")
	verbose := flag.Bool("v", false, "print one line per position")
	flag.Parse()
	if *engine == "" {
		*engine = findStockfish()
	}
	sf, err := startEngine(*engine, *hash)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sfcompare:", err)
		os.Exit(1)
	}
	defer sf.close()
	sv := solver.New(*hash)
	tallies := map[int]*tally{}
	for _, path := range flag.Args() {
		r, closer, err := puzzles.Open(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sfcompare:", err)
			os.Exit(1)
		}
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil || rec.Err != nil || rec.Claim.Mate == 0 {
				continue
			}
			n := rec.Claim.Mate
			t := tallies[n]
			if t == nil {
				t = &tally{}
				tallies[n] = t
			}
			t.n++
			sfMate, sfNodes, sfTime, err := sf.goMate(rec.FEN, abs(n), *movetime)
			if err != nil {
				fmt.Fprintln(os.Stderr, "sfcompare:", err)
				os.Exit(1)
			}
			t.sfNodes += sfNodes
			t.sfTime += sfTime
			if sfMate == n {
				t.sfExact++
			} else if sfMate != 0 && sameSign(sfMate, n) && abs(sfMate) < abs(n) {
				t.sfShorter++
			}
			opt := solver.Options{MaxMate: abs(n), Want: solver.WantMate, Timeout: *movetime, NoKeys: true}
			if n < 0 {
				opt.Want = solver.WantMated
			}
			res := sv.Solve(context.Background(), rec.Pos, opt)
			t.mlNodes += res.Nodes
			t.mlTime += res.Elapsed
			if res.Mate == n || res.MateWithin == n {
				t.mlForced++
			}
			switch {
			case res.Mate == n:
				t.mlExact++
			case res.Mate != 0 && sameSign(res.Mate, n) && abs(res.Mate) < abs(n):
				t.mlShorter++
				fmt.Printf("suite claims %d but mateline proves %d: %s:%d %s\n", n, res.Mate, path, rec.Line, rec.FEN)
			}
			if *verbose {
				fmt.Printf("%s:%d claim %+d  stockfish %+d (%v)  mateline %v %+d (%v)\n", path, rec.Line, n,
					sfMate, sfTime.Round(time.Millisecond), res.Status, res.Mate, res.Elapsed.Round(time.Millisecond))
				if res.MateWithin != 0 && res.Mate == 0 {
					fmt.Printf("    mateline proved a forced mate within %+d; no shorter mate ruled out beyond %d\n", res.MateWithin, res.Depth)
				}
			}
		}
		closer.Close()
	}
	report(tallies, *movetime)
}

func report(tallies map[int]*tally, movetime time.Duration) {
	var ns []int
	for n := range tallies {
		ns = append(ns, n)
	}
	sort.Slice(ns, func(i, j int) bool {
		if (ns[i] < 0) != (ns[j] < 0) {
			return ns[i] > 0
		}
		return abs(ns[i]) < abs(ns[j])
	})
	fmt.Printf("\n%d ms per position, one thread each\n\n", movetime.Milliseconds())
	fmt.Println("| claim | positions | Stockfish exact | Stockfish shorter | mateline forced mate proved | mateline proved shortest | mateline proved shorter | Stockfish Mnps | mateline Mnps |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	var all tally
	for _, n := range ns {
		t := tallies[n]
		fmt.Printf("| #%d | %d | %d | %d | %d | %d | %d | %.2f | %.2f |\n", n, t.n, t.sfExact, t.sfShorter, t.mlForced, t.mlExact, t.mlShorter,
			rate(t.sfNodes, t.sfTime), rate(t.mlNodes, t.mlTime))
		all.n += t.n
		all.sfExact += t.sfExact
		all.sfShorter += t.sfShorter
		all.mlExact += t.mlExact
		all.mlForced += t.mlForced
		all.mlShorter += t.mlShorter
		all.sfNodes += t.sfNodes
		all.mlNodes += t.mlNodes
		all.sfTime += t.sfTime
		all.mlTime += t.mlTime
	}
	fmt.Printf("| all | %d | %d | %d | %d | %d | %d | %.2f | %.2f |\n", all.n, all.sfExact, all.sfShorter, all.mlForced, all.mlExact, all.mlShorter,
		rate(all.sfNodes, all.sfTime), rate(all.mlNodes, all.mlTime))
	fmt.Printf("\ntotal time: Stockfish %.1f s, mateline %.1f s\n", all.sfTime.Seconds(), all.mlTime.Seconds())
}

func rate(nodes uint64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(nodes) / d.Seconds() / 1e6
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sameSign(a, b int) bool { return (a < 0) == (b < 0) }

func findStockfish() string {
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p
	}
	return "/usr/games/stockfish"
}

// uciEngine is a UCI engine process.
type uciEngine struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startEngine(path string, hash int) (*uciEngine, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w (Debian: apt-get install stockfish)", path, err)
	}
	e := &uciEngine{cmd: cmd, in: in, out: bufio.NewScanner(outPipe)}
	e.out.Buffer(make([]byte, 1<<20), 1<<20)
	e.send("uci")
	if err := e.waitFor("uciok"); err != nil {
		return nil, err
	}
	e.send("setoption name Threads value 1")
	e.send(fmt.Sprintf("setoption name Hash value %d", hash))
	return e, nil
}

func (e *uciEngine) send(s string) { fmt.Fprintln(e.in, s) }

func (e *uciEngine) waitFor(prefix string) error {
	for e.out.Scan() {
		if strings.HasPrefix(e.out.Text(), prefix) {
			return nil
		}
	}
	return fmt.Errorf("engine ended before %q", prefix)
}

// goMate runs "go mate N movetime T" and returns the last mate score the
// engine reported (0 for none), its node count and the time taken.
func (e *uciEngine) goMate(fen string, n int, movetime time.Duration) (int, uint64, time.Duration, error) {
	e.send("ucinewgame")
	e.send("position fen " + fen)
	e.send("isready")
	if err := e.waitFor("readyok"); err != nil {
		return 0, 0, 0, err
	}
	start := time.Now()
	e.send(fmt.Sprintf("go mate %d movetime %d", n, movetime.Milliseconds()))
	mate, nodes := 0, uint64(0)
	for e.out.Scan() {
		line := e.out.Text()
		if strings.HasPrefix(line, "bestmove") {
			return mate, nodes, time.Since(start), nil
		}
		f := strings.Fields(line)
		for i := 0; i+1 < len(f); i++ {
			switch f[i] {
			case "score":
				mate = 0
				if f[i+1] == "mate" && i+2 < len(f) {
					mate, _ = strconv.Atoi(f[i+2])
				}
			case "nodes":
				nodes, _ = strconv.ParseUint(f[i+1], 10, 64)
			}
		}
	}
	return 0, 0, 0, errors.New("engine ended during search")
}

func (e *uciEngine) close() {
	e.send("quit")
	e.in.Close()
	e.cmd.Wait()
}
