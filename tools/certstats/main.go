// Command certstats measures proof certificates on an EPD suite: for each
// position whose claim is at most -max moves, it solves the position (up to
// -timeout), writes the certificate of each mate proved shortest, checks it
// with the independent checker, and prints per claimed length the
// certificate sizes (nodes, bytes), the time to write one against the
// solve time, the checker's speed, and how many lower bounds fit under the
// refutation limit.
//
//	go run ./tools/certstats -max 8 $MATELINE_DATA/suites/samples/matetrack-strat.epd
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/proof"
	"mateline.dev/mateline/solver"
)

type row struct {
	positions, proved, certified, failed int
	nodes, bytes                         []int
	solve, write, check                  time.Duration
	checked                              int
}

func main() {
	maxMate := flag.Int("max", 8, "largest claimed mate to certify")
	timeout := flag.Duration("timeout", 10*time.Second, "solve time limit per position")
	limit := flag.Int("limit", solver.DefaultRefutationLimit, "refutation tree limit (nodes), as --proof-limit")
	hash := flag.Int("hash", 64, "hash MiB")
	verbose := flag.Bool("v", false, "one line per position")
	flag.Parse()
	rows := map[int]*row{}
	sv := solver.New(*hash)
	for _, path := range flag.Args() {
		recs, err := inputs.ReadFile(path)
		if err != nil {
			fail(err)
		}
		for _, rec := range recs {
			n := int(rec.Claim.Mate)
			if rec.Err != nil || n < 1 || n > *maxMate {
				continue
			}
			rw := rows[n]
			if rw == nil {
				rw = &row{}
				rows[n] = rw
			}
			rw.positions++
			opt := solver.Options{Timeout: *timeout}.ForClaim(rec.Claim.Mate)
			res := sv.Solve(context.Background(), rec.Pos, opt)
			if res.Status != solver.StatusMate {
				continue
			}
			rw.proved++
			rw.solve += res.Elapsed
			var b bytes.Buffer
			start := time.Now()
			st, err := sv.WriteCertificate(context.Background(), rec.Pos, res.Mate, res.Mate.Moves()-1, opt, *limit, &b)
			wrote := time.Since(start)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s:%d: %v\n", path, rec.Line, err)
				rw.failed++
				continue
			}
			rw.write += wrote
			rw.nodes = append(rw.nodes, st.Nodes)
			rw.bytes = append(rw.bytes, b.Len())
			if st.LowerBound == solver.LowerCertified {
				rw.certified++
			}
			rep, err := proof.Check(bytes.NewReader(b.Bytes()), fmt.Sprintf("%s:%d", path, rec.Line), rec.FEN)
			if err != nil || !rep.OK() {
				fmt.Fprintf(os.Stderr, "%s:%d: the certificate does not hold: %v %v\n", path, rec.Line, err, rep.Failure)
				rw.failed++
				continue
			}
			rw.check += rep.Elapsed
			rw.checked += rep.Checked
			if *verbose {
				fmt.Printf("%s:%d #%d solve %v write %v (%d nodes, %d bytes, lower bound %s, %d refutations) check %v (%d positions)\n",
					path, rec.Line, n, res.Elapsed.Round(time.Millisecond), wrote.Round(time.Millisecond), st.Nodes, b.Len(),
					st.LowerBound, st.Refutations, rep.Elapsed.Round(time.Millisecond), rep.Checked)
			}
		}
	}
	var ns []int
	for n := range rows {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	fmt.Printf("\n| claim | positions | proved shortest | certificate nodes (median, max) | bytes (median, max) | solve s | write s | lower bounds certified | checker positions/s |\n")
	fmt.Printf("|---|---|---|---|---|---|---|---|---|\n")
	for _, n := range ns {
		rw := rows[n]
		fmt.Printf("| #%d | %d | %d | %d, %d | %d, %d | %.2f | %.2f | %d of %d | %.0f |\n", n, rw.positions, rw.proved,
			median(rw.nodes), maxOf(rw.nodes), median(rw.bytes), maxOf(rw.bytes), rw.solve.Seconds(), rw.write.Seconds(),
			rw.certified, rw.proved, float64(rw.checked)/max(rw.check.Seconds(), 1e-9))
		if rw.failed > 0 {
			fmt.Printf("(#%d: %d certificates failed)\n", n, rw.failed)
		}
	}
}

func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	return s[len(s)/2]
}

func maxOf(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "certstats:", err)
	os.Exit(1)
}
