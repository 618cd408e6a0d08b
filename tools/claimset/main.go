// Command claimset measures what the claim does to a solve: each position
// of an EPD file with a mate claim (bm #N, dm N) is solved in this process
// three times, as `mateline solve` solves it, one thread each, under the
// same time limit: told the claim (the cap is N), told the claim raised by
// two, and told nothing (no cap). Per length group it prints the mates
// proved shortest, the forced mates proved within the claim (shortest or
// not), and the nodes and time of the positions every mode proved
// shortest.
//
// -modes runs only some of the three. -every and -offset pick lines of the file (every 13th from line 5, say),
// and -exclude leaves out the positions of other files (the shared
// samples), so that what is measured is not what the code was tuned on:
//
//	go run ./tools/claimset -movetime 2s -every 33 -offset 7 \
//	    -exclude $MATELINE_DATA/suites/samples/matetrack-strat.epd \
//	    $MATELINE_DATA/suites/matetrack/matetrack.epd
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
)

// mode is one way of telling the solver about the claim.
type mode struct {
	name  string
	extra int  // moves added to the claim
	none  bool // no claim at all
}

var modes = []mode{{name: "claim"}, {name: "claim+2", extra: 2}, {name: "none", none: true}}

// tally counts one mode's results in one length group.
type tally struct {
	positions, shortest, within int
	nodes                       uint64
	time                        time.Duration
}

// groups are the length groups of the table.
var groups = []struct {
	name   string
	lo, hi int
}{{"#1-#3", 1, 3}, {"#4-#7", 4, 7}, {"#8-#12", 8, 12}, {"#13-#20", 13, 20}, {"#21+", 21, 1 << 30}}

func groupOf(n int) int {
	for i, g := range groups {
		if n >= g.lo && n <= g.hi {
			return i
		}
	}
	return len(groups) - 1
}

func main() {
	movetime := flag.Duration("movetime", 2*time.Second, "time limit per position and mode")
	every := flag.Int("every", 1, "take every n-th line")
	offset := flag.Int("offset", 0, "the first line taken (0-based)")
	limit := flag.Int("n", 0, "at most this many positions (0: all)")
	workers := flag.Int("j", 1, "positions solved at once (one thread each)")
	hash := flag.Int("hash", 64, "table memory per solve, MiB")
	verbose := flag.Bool("v", false, "print a line per position: each mode's status, mate and time")
	minLen := flag.Int("min", 1, "shortest claim taken")
	maxLen := flag.Int("max", 1000, "longest claim taken")
	var exclude listFlag
	flag.Var(&exclude, "exclude", "leave out the positions of this EPD file (repeatable)")
	only := flag.String("modes", "claim,claim+2,none", "the modes to run, comma-separated")
	flag.Parse()
	var kept []mode
	for _, m := range modes {
		if strings.Contains(","+*only+",", ","+m.name+",") {
			kept = append(kept, m)
		}
	}
	modes = kept
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: claimset [flags] FILE.epd")
		os.Exit(2)
	}
	skip := map[string]bool{}
	for _, path := range exclude {
		recs, err := inputs.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, r := range recs {
			skip[fourFields(r.FEN)] = true
		}
	}
	recs, err := inputs.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var picked []record.Record
	for i, r := range recs {
		n := r.Claim.Mate.Moves()
		if i < *offset || (i-*offset)%*every != 0 || r.Err != nil || r.Claim.Mate <= 0 || skip[fourFields(r.FEN)] || n < *minLen || n > *maxLen {
			continue
		}
		picked = append(picked, r)
		if *limit > 0 && len(picked) == *limit {
			break
		}
	}
	table := make([][]tally, len(groups))
	for i := range table {
		table[i] = make([]tally, len(modes))
	}
	var mu sync.Mutex
	jobs := make(chan record.Record)
	var wg sync.WaitGroup
	for w := 0; w < *workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sv := solver.New(*hash)
			for r := range jobs {
				results := make([]solver.Result, len(modes))
				for i := range modes {
					// The modes take turns at going first, so that none
					// pays alone for what a first solve costs.
					k := (i + r.Line) % len(modes)
					results[k] = solve(sv, r, modes[k], *movetime)
				}
				mu.Lock()
				if *verbose {
					fmt.Printf("%s:%d %v", r.Source, r.Line, r.Claim.Mate)
					for k, res := range results {
						fmt.Printf("  %s %v %v/%v %v", modes[k].name, res.Status, res.Mate, res.MateWithin, res.Elapsed.Round(time.Millisecond))
					}
					fmt.Println()
				}
				tallyRecord(table[groupOf(r.Claim.Mate.Moves())], r, results)
				mu.Unlock()
			}
		}()
	}
	for _, r := range picked {
		jobs <- r
	}
	close(jobs)
	wg.Wait()
	print(table, len(picked), *movetime)
}

// solve solves r as `mateline solve` does with mode m's claim.
func solve(sv *solver.Solver, r record.Record, m mode, movetime time.Duration) solver.Result {
	opt := solver.Options{Timeout: movetime, Threads: 1, Fresh: true, MaxMate: solver.MaxMateMoves,
		ExtractReserve: solver.ReserveFor(movetime)}
	if !m.none {
		opt = opt.ForClaim(r.Claim.Mate + problem.Mate(m.extra))
	}
	return sv.Solve(context.Background(), r.Pos, opt)
}

// tallyRecord adds one position's results to its group.
func tallyRecord(row []tally, r record.Record, results []solver.Result) {
	n := r.Claim.Mate.Moves()
	all := true
	for _, res := range results {
		all = all && res.Status == solver.StatusMate
	}
	for k, res := range results {
		t := &row[k]
		t.positions++
		if res.Status == solver.StatusMate {
			t.shortest++
		}
		if m := res.Mate; m > 0 && m.Moves() <= n || res.MateWithin > 0 && res.MateWithin.Moves() <= n {
			t.within++
		}
		if all {
			t.nodes += res.Nodes
			t.time += res.Elapsed
		}
	}
}

func print(table [][]tally, n int, movetime time.Duration) {
	fmt.Printf("%d positions, %v each, one thread\n\n", n, movetime)
	fmt.Printf("| group | positions |")
	for _, m := range modes {
		fmt.Printf(" %s shortest | %s within |", m.name, m.name)
	}
	fmt.Printf(" nodes where all proved (%s) | time (%s) |\n|---|---|", strings.Join(names(), " / "), strings.Join(names(), " / "))
	for range modes {
		fmt.Printf("---|---|")
	}
	fmt.Println("---|---|")
	var sum = make([]tally, len(modes))
	for i, row := range table {
		if row[0].positions == 0 {
			continue
		}
		fmt.Printf("| %s | %d |", groups[i].name, row[0].positions)
		var nodes, times []string
		for k, t := range row {
			fmt.Printf(" %d | %d |", t.shortest, t.within)
			nodes = append(nodes, fmt.Sprint(t.nodes))
			times = append(times, t.time.Round(time.Millisecond).String())
			sum[k].positions += t.positions
			sum[k].shortest += t.shortest
			sum[k].within += t.within
			sum[k].nodes += t.nodes
			sum[k].time += t.time
		}
		fmt.Printf(" %s | %s |\n", strings.Join(nodes, " / "), strings.Join(times, " / "))
	}
	fmt.Printf("| all | %d |", sum[0].positions)
	var nodes, times []string
	for _, t := range sum {
		fmt.Printf(" %d | %d |", t.shortest, t.within)
		nodes = append(nodes, fmt.Sprint(t.nodes))
		times = append(times, t.time.Round(time.Millisecond).String())
	}
	fmt.Printf(" %s | %s |\n", strings.Join(nodes, " / "), strings.Join(times, " / "))
}

func names() []string {
	var out []string
	for _, m := range modes {
		out = append(out, m.name)
	}
	return out
}

// fourFields is a FEN's position, side, castling and en-passant fields.
func fourFields(fen string) string {
	f := strings.Fields(fen)
	if len(f) > 4 {
		f = f[:4]
	}
	return strings.Join(f, " ")
}

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }
