// Command dtmsample draws random positions of a built distance-to-mate
// table and writes those the side to move mates in at most -max moves as
// EPD records with the table's mate ("dm N"), for a search without
// tables to check:
//
//	go run ./tools/dtmsample -dtm DIR -n 10000 -max 4 KQRBvKN > sample.epd
//	mateline validate --no-dtm --timeout 10s sample.epd
//
// validate then proves each stated mate shortest, or says it is not: the
// table's values against a search that shares nothing with its
// generator. The draw is seeded (-seed), so a sample can be drawn again.
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
	dir := flag.String("dtm", "", "table directory")
	n := flag.Int("n", 10000, "positions to draw")
	most := flag.Int("max", 4, "the longest mate written, in moves")
	seed := flag.Int64("seed", 1, "seed of the draw")
	flag.Parse()
	if flag.NArg() != 1 || *dir == "" {
		fmt.Fprintln(os.Stderr, "usage: dtmsample -dtm DIR [-n N] [-max M] [-seed S] SIG")
		os.Exit(2)
	}
	m, err := tablefile.ParsePlannedMaterial(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "dtmsample:", err)
		os.Exit(2)
	}
	m, _ = m.Canonical()
	s := dtm.Open(*dir, dtm.Options{})
	defer s.Close()
	l := tablefile.NewLayout(m)
	r := rand.New(rand.NewSource(*seed))
	counts := map[int]int{}
	unreachable := 0
	for i := 0; i < *n; i++ {
		nd := tablefile.RandomNode(r, l)
		pos, err := board.ParseFEN(nd.FEN())
		if err != nil {
			// a table holds positions no game reaches (three men giving
			// check): the board refuses them, and so does the search
			unreachable++
			continue
		}
		v, err := s.Probe(&pos)
		if err != nil {
			fmt.Fprintln(os.Stderr, "dtmsample:", err)
			os.Exit(1)
		}
		counts[v.Signed()]++
		if mate := v.Signed(); mate > 0 && mate <= *most {
			fmt.Printf("%s dm %d; id \"%s #%d\";\n", fen4(nd.FEN()), mate, m, i)
		}
	}
	fmt.Fprintf(os.Stderr, "dtmsample: %d positions of %s, %d that no game reaches left out; by value (moves, + the side to move mates): %v\n", *n, m, unreachable, counts)
}

// fen4 is a FEN's first four fields, as EPD takes them.
func fen4(fen string) string {
	f, k := 0, 0
	for ; k < len(fen); k++ {
		if fen[k] == ' ' {
			if f++; f == 4 {
				break
			}
		}
	}
	return fen[:k]
}
