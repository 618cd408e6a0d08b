// Command dtmcompare probes random positions of one table in two table
// directories and counts where they differ: a check of one file format
// against another, or of one generator against another, that needs no
// table read whole.
//
//	go run ./tools/dtmcompare -a DIR1 -b DIR2 -n 1000000 KQRBvKN
//
// Each directory must hold the table (nothing is built). The draw is
// seeded (-seed); the exit code is 1 when any position differs.
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/dtm/tablefile"
)

func main() {
	a := flag.String("a", "", "first table directory")
	b := flag.String("b", "", "second table directory")
	n := flag.Int("n", 100000, "positions to draw")
	seed := flag.Int64("seed", 1, "seed of the draw")
	flag.Parse()
	if flag.NArg() != 1 || *a == "" || *b == "" {
		fmt.Fprintln(os.Stderr, "usage: dtmcompare -a DIR -b DIR [-n N] [-seed S] SIG")
		os.Exit(2)
	}
	m, err := tablefile.ParsePlannedMaterial(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "dtmcompare:", err)
		os.Exit(2)
	}
	m, _ = m.Canonical()
	sa, sb := dtm.Open(*a, dtm.Options{}), dtm.Open(*b, dtm.Options{})
	defer sa.Close()
	defer sb.Close()
	l := tablefile.NewLayout(m)
	r := rand.New(rand.NewSource(*seed))
	differ, unreachable, decisive := 0, 0, 0
	for i := 0; i < *n; i++ {
		nd := tablefile.RandomNode(r, l)
		pos, err := board.ParseFEN(nd.FEN())
		if err != nil {
			unreachable++ // (the board refuses positions no game reaches)
			continue
		}
		va, errA := sa.Probe(&pos)
		vb, errB := sb.Probe(&pos)
		if errA != nil || errB != nil {
			fmt.Fprintln(os.Stderr, "dtmcompare:", nd.FEN(), errA, errB)
			os.Exit(1)
		}
		if va != tablefile.Draw {
			decisive++
		}
		if va != vb {
			if differ < 10 {
				fmt.Printf("%s: %s %v, %s %v\n", nd.FEN(), *a, va, *b, vb)
			}
			differ++
		}
	}
	fmt.Printf("%s: %d positions drawn, %d no game reaches, %d decisive, %d differ\n", m, *n, unreachable, decisive, differ)
	if differ > 0 {
		os.Exit(1)
	}
}
