// Command sfcompare drives UCI engines side by side on EPD files with mate
// claims (bm #N, bm #-N, dm N) and scores them the way matetrack's
// matecheck.py does: per claimed length, the mates each engine found (a
// mate score of the claim's sign), the best (equal to the claim), the
// better (shorter than the claim: the suite is wrong), the wrong sign, and
// bad PVs (illegal, not exactly the plies of the score, not ending in
// checkmate, or letting the losing side claim a draw by repetition or the
// 50-move rule). Every engine gets the same protocol: Threads and Hash set,
// then for each position "ucinewgame", "position fen", and "go mate N
// movetime T" (or "go movetime T" with -mate=false).
//
// With -inprocess, mateline's solver also runs in this process with the
// same time, and its counts are printed beside: a forced mate of the stated
// length proved (shortest or not), and proved shortest.
//
// Stockfish comes from Debian (apt-get install stockfish); the tests do not
// need it.
//
//	go build -o /tmp/mateline ./cmd/mateline
//	go run ./tools/sfcompare -e stockfish=/usr/games/stockfish -e "mateline=/tmp/mateline uci" \
//	    -movetime 2s $MATELINE_DATA/suites/samples/matetrack-strat.epd
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
)

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// score is one engine's tally for one claimed length.
type score struct {
	found, best, better, wrongSign, badPV int
	nodes                                 uint64
	time                                  time.Duration
}

func (s *score) add(o score) {
	s.found += o.found
	s.best += o.best
	s.better += o.better
	s.wrongSign += o.wrongSign
	s.badPV += o.badPV
	s.nodes += o.nodes
	s.time += o.time
}

// inProcess is the in-process solver's tally for one claimed length.
type inProcess struct{ forced, shortest int }

type row struct {
	n          int
	nPositions int
	engines    []score
	ip         inProcess
}

func main() {
	var engineSpecs, optionSpecs listFlag
	flag.Var(&engineSpecs, "e", "an engine, LABEL=COMMAND (repeatable; default: stockfish from PATH or /usr/games; none: no engine)")
	flag.Var(&optionSpecs, "o", "an engine option, LABEL:Name=Value (repeatable)")
	movetime := flag.Duration("movetime", 2*time.Second, "time per position for each engine")
	hash := flag.Int("hash", 64, "Hash MiB for each engine")
	threads := flag.Int("threads", 1, "Threads for each engine")
	mateMode := flag.Bool("mate", true, `send "go mate N movetime T" (N from the claim); false: "go movetime T"`)
	inproc := flag.Bool("inprocess", false, "also run mateline's solver in this process with the same time")
	verbose := flag.Bool("v", false, "print one line per position")
	flag.Parse()
	if len(engineSpecs) == 0 {
		engineSpecs = append(engineSpecs, "stockfish="+findStockfish())
	}
	var engines []*uciEngine
	for _, spec := range engineSpecs {
		if spec == "none" {
			continue // -e none with -inprocess: the in-process solver alone
		}
		label, command, ok := strings.Cut(spec, "=")
		if !ok {
			fields := strings.Fields(spec)
			label, command = fields[0], spec
		}
		opts := []string{fmt.Sprintf("Threads=%d", *threads), fmt.Sprintf("Hash=%d", *hash)}
		for _, o := range optionSpecs {
			if l, nv, ok := strings.Cut(o, ":"); ok && l == label {
				opts = append(opts, nv)
			}
		}
		e, err := startEngine(label, command, opts)
		if err != nil {
			fail(err)
		}
		defer e.close()
		engines = append(engines, e)
	}
	var sv *solver.Solver
	if *inproc {
		sv = solver.New(*hash)
	}
	rows := map[int]*row{}
	for _, path := range flag.Args() {
		recs, err := inputs.ReadFile(path)
		if err != nil {
			fail(err)
		}
		for _, rec := range recs {
			if rec.Err != nil || rec.Claim.Mate == 0 {
				continue
			}
			n := int(rec.Claim.Mate)
			rw := rows[n]
			if rw == nil {
				rw = &row{n: n, engines: make([]score, len(engines))}
				rows[n] = rw
			}
			rw.nPositions++
			var line strings.Builder
			fmt.Fprintf(&line, "%s:%d claim %+d", path, rec.Line, n)
			for i, e := range engines {
				res, err := e.search(rec.FEN, n, *movetime, *mateMode)
				if err != nil {
					fail(err)
				}
				sc := judge(rec.Pos, n, res)
				rw.engines[i].add(sc)
				fmt.Fprintf(&line, "  %s %+d%s (%v)", e.label, res.mate, pvMark(rec.Pos, sc, res), res.time.Round(time.Millisecond))
				if sc.better > 0 {
					fmt.Printf("%s finds mate %+d, shorter than the claim %+d: %s:%d %s\n", e.label, res.mate, n, path, rec.Line, rec.FEN)
				}
			}
			if sv != nil {
				ip := solveInProcess(sv, rec, *movetime, *threads)
				rw.ip.forced += ip.forced
				rw.ip.shortest += ip.shortest
				fmt.Fprintf(&line, "  in-process forced %d shortest %d", ip.forced, ip.shortest)
			}
			if *verbose {
				fmt.Println(line.String())
			}
		}
	}
	report(rows, engines, *movetime, *threads, sv != nil)
}

// result is what an engine answered for one position.
type result struct {
	mate  int // the last mate score, 0 for none
	pv    []string
	nodes uint64
	time  time.Duration
}

// judge scores one answer against the claim n.
func judge(pos board.Position, n int, res result) score {
	sc := score{nodes: res.nodes, time: res.time}
	if res.mate == 0 {
		return sc
	}
	if (res.mate > 0) != (n > 0) {
		sc.wrongSign = 1
		return sc
	}
	sc.found = 1
	switch {
	case res.mate == n:
		sc.best = 1
	case abs(res.mate) < abs(n):
		sc.better = 1
	}
	if pvProblem(pos, res.mate, res.pv) != "" {
		sc.badPV = 1
	}
	return sc
}

func pvMark(pos board.Position, sc score, res result) string {
	if sc.badPV > 0 {
		return fmt.Sprintf(" bad PV (%s: %s)", pvProblem(pos, res.mate, res.pv), strings.Join(res.pv, " "))
	}
	return ""
}

// pvProblem checks a mate's PV with solver.CheckLine, as matecheck.py
// does. It returns "" for a good PV.
func pvProblem(pos board.Position, mate int, pv []string) string {
	line, err := pos.ParseUCILine(pv)
	if err == nil {
		err = solver.CheckLine(pos, problem.Mate(mate), line)
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// solveInProcess runs mateline's solver on the record, for the stated
// length, with the engines' thread count.
func solveInProcess(sv *solver.Solver, rec record.Record, movetime time.Duration, threads int) inProcess {
	n := rec.Claim.Mate
	opt := solver.Options{Timeout: movetime, NoKeys: true, Threads: threads}.ForClaim(n)
	res := sv.Solve(context.Background(), rec.Pos, opt)
	var ip inProcess
	if res.Mate == n || res.MateWithin == n {
		ip.forced = 1
	}
	if res.Mate == n {
		ip.shortest = 1
	}
	return ip
}

func report(rows map[int]*row, engines []*uciEngine, movetime time.Duration, threads int, inproc bool) {
	var ns []int
	for n := range rows {
		ns = append(ns, n)
	}
	sort.Slice(ns, func(i, j int) bool {
		if (ns[i] < 0) != (ns[j] < 0) {
			return ns[i] > 0
		}
		return abs(ns[i]) < abs(ns[j])
	})
	fmt.Printf("\n%d ms per position, %d thread(s) each\n\n", movetime.Milliseconds(), threads)
	head := "| claim | positions |"
	rule := "|---|---|"
	for _, e := range engines {
		head += fmt.Sprintf(" %s found | %s best | %s better |", e.label, e.label, e.label)
		rule += "---|---|---|"
	}
	if inproc {
		head += " in-process forced | in-process shortest |"
		rule += "---|---|"
	}
	for _, e := range engines {
		head += fmt.Sprintf(" %s Mnps |", e.label)
		rule += "---|"
	}
	fmt.Println(head)
	fmt.Println(rule)
	all := row{engines: make([]score, len(engines))}
	for _, n := range ns {
		rw := rows[n]
		for i := range rw.engines {
			all.engines[i].add(rw.engines[i])
		}
		all.ip.forced += rw.ip.forced
		all.ip.shortest += rw.ip.shortest
		all.nPositions += rw.nPositions
		fmt.Println(formatRow(fmt.Sprintf("#%d", n), rw, inproc))
	}
	fmt.Println(formatRow("all", &all, inproc))
	fmt.Println()
	for i, e := range engines {
		s := all.engines[i]
		fmt.Printf("%s: found %d, best %d, better %d, wrong sign %d, bad PVs %d, %.1f s, %.2f Mnps\n",
			e.label, s.found, s.best, s.better, s.wrongSign, s.badPV, s.time.Seconds(), rate(s.nodes, s.time))
	}
	if inproc {
		fmt.Printf("in-process solver: forced mate of the stated length proved %d, proved shortest %d\n", all.ip.forced, all.ip.shortest)
	}
}

func formatRow(label string, rw *row, inproc bool) string {
	s := fmt.Sprintf("| %s | %d |", label, rw.nPositions)
	for _, e := range rw.engines {
		s += fmt.Sprintf(" %d | %d | %d |", e.found, e.best, e.better)
	}
	if inproc {
		s += fmt.Sprintf(" %d | %d |", rw.ip.forced, rw.ip.shortest)
	}
	for _, e := range rw.engines {
		s += fmt.Sprintf(" %.2f |", rate(e.nodes, e.time))
	}
	return s
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

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sfcompare:", err)
	os.Exit(1)
}

func findStockfish() string {
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p
	}
	return "/usr/games/stockfish"
}
