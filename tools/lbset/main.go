// Command lbset times lower-bound proofs: for each position of an EPD file
// with a mate claim N (bm #N, dm N), it proves that no mate in N-1 exists
// (mateline solve --mate N-1), once per thread count, and prints the time
// and nodes of each proof and the speed-up of each thread count over the
// first. The fixed "lower-bound set" of issue 13 is lowerbound.epd beside
// this file: 20 positions of the #8-#10 samples.
//
//	go run ./tools/lbset -threads 1,2 tools/lbset/lowerbound.epd
//
// With -select, it instead picks from the given files the positions whose
// one-thread proof takes between -min and -timeout, and prints them as EPD.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
)

func main() {
	threadList := flag.String("threads", "1,2", "comma-separated thread counts")
	timeout := flag.Duration("timeout", 120*time.Second, "time limit per proof")
	hash := flag.Int("hash", 64, "hash MiB")
	selectN := flag.Int("select", 0, "pick this many positions of each claimed length whose one-thread proof takes between -min and -timeout, print them as EPD")
	mates := flag.String("mates", "", "only positions with these claims, e.g. 8,9,10")
	minTime := flag.Duration("min", 500*time.Millisecond, "with -select: the least proof time")
	idOnly := flag.Bool("idonly", false, "iterations alone, without the proof-number search's turns (to measure the lower bound's own cost)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer pprof.StopCPUProfile()
	}
	var threads []int
	for _, f := range strings.Split(*threadList, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			fail(fmt.Errorf("-threads %q: want numbers like 1,2", *threadList))
		}
		threads = append(threads, n)
	}
	recs, err := read(flag.Args())
	if err != nil {
		fail(err)
	}
	if *mates != "" {
		keep := map[int]bool{}
		for _, f := range strings.Split(*mates, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				fail(fmt.Errorf("-mates %q: want numbers like 8,9,10", *mates))
			}
			keep[n] = true
		}
		var kept []record.Record
		for _, rec := range recs {
			if keep[int(rec.Claim.Mate)] {
				kept = append(kept, rec)
			}
		}
		recs = kept
	}
	if *selectN > 0 {
		pick(recs, *selectN, *minTime, *timeout, *hash)
		return
	}
	total := make([]time.Duration, len(threads))
	nodes := make([]uint64, len(threads))
	for _, rec := range recs {
		fmt.Printf("%s:%d #%d", rec.Source, rec.Line, rec.Claim.Mate)
		for i, t := range threads {
			res := prove(rec, t, *timeout, *hash, *idOnly)
			total[i] += res.Elapsed
			nodes[i] += res.Nodes
			fmt.Printf("  t%d %s %7.2fs %10d probes %10d", t, res.Status, res.Elapsed.Seconds(), res.Nodes, res.TTProbe)
			if res.Status != solver.StatusNoMate {
				fmt.Printf(" (not proved)")
			}
		}
		fmt.Println()
	}
	for i, t := range threads {
		fmt.Printf("threads %d: %d positions, %.2f s, %d nodes, speed-up %.2fx\n", t, len(recs),
			total[i].Seconds(), nodes[i], total[0].Seconds()/total[i].Seconds())
	}
}

// prove proves that the position has no mate shorter than its claim.
// With idOnly the proof-number search gets no turn (its aim is too short
// to be worth one).
func prove(rec record.Record, threads int, timeout time.Duration, hash int, idOnly bool) solver.Result {
	opt := solver.Options{Threads: threads, Timeout: timeout, NoKeys: true}.ForClaim(rec.Claim.Mate.Shorter())
	if idOnly {
		opt.Aim = 2
	}
	return solver.New(hash).Solve(context.Background(), rec.Pos, opt)
}

func pick(recs []record.Record, n int, minTime, timeout time.Duration, hash int) {
	taken := map[problem.Mate]int{}
	for _, rec := range recs {
		if taken[rec.Claim.Mate] == n {
			continue
		}
		res := prove(rec, 1, timeout, hash, false)
		fmt.Fprintf(os.Stderr, "%s:%d #%d %s %.2fs\n", rec.Source, rec.Line, rec.Claim.Mate, res.Status, res.Elapsed.Seconds())
		if res.Status == solver.StatusNoMate && res.Elapsed >= minTime {
			fields := strings.Fields(rec.FEN)
			fmt.Printf("%s bm #%d; id \"%s:%d\";\n", strings.Join(fields[:4], " "), rec.Claim.Mate, filepath.Base(rec.Source), rec.Line)
			taken[rec.Claim.Mate]++
		}
	}
}

func read(paths []string) ([]record.Record, error) {
	var recs []record.Record
	for _, path := range paths {
		all, err := inputs.ReadFile(path)
		if err != nil {
			return nil, err
		}
		for _, rec := range all {
			if rec.Err == nil && rec.Claim.Mate != 0 && rec.Claim.Mate.Moves() > 1 {
				recs = append(recs, rec)
			}
		}
	}
	return recs, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "lbset:", err)
	os.Exit(1)
}
