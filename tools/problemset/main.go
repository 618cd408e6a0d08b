// Command problemset writes a Popeye problem file of random orthodox
// positions that have a solution: helpmates with few solutions and
// selfmates with few keys, like composed problems, for timing mateline
// against Popeye and cross-checking them (tools/popeyecheck). The positions
// are random, not composed: the set measures the solvers, not art.
//
//	go run ./tools/problemset -seed 1 -n 10 h#2 h#3 s#2 s#3 > /tmp/set.inp
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/popeye"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/stipulation"
)

func main() {
	seed := flag.Uint64("seed", 1, "random seed")
	n := flag.Int("n", 10, "problems per stipulation")
	maxSols := flag.Int("max", 4, "most solutions (h#) or keys (s#) a problem may have")
	seeds := flag.String("near", "", "a problem file whose positions are varied (a man moved or added) instead of drawing at random: longer selfmates are found near shorter ones")
	flag.Parse()
	var near []board.Position
	if *seeds != "" {
		recs, err := inputs.ReadFile(*seeds)
		if err != nil {
			fmt.Fprintln(os.Stderr, "problemset:", err)
			os.Exit(1)
		}
		for _, r := range recs {
			if r.Err == nil {
				near = append(near, r.Pos)
			}
		}
	}
	rng := rand.New(rand.NewPCG(*seed, 0))
	fmt.Println("beginproblem")
	first := true
	for _, arg := range flag.Args() {
		st, err := problem.Parse(arg)
		if err != nil || st.IsDirectMate() {
			fmt.Fprintf(os.Stderr, "problemset: %s: want h#N, h#N.5, s#N, s=N, r#N, semi-r#N, =N, h=N, ser-#N, ser-=N, ser-h#N or ser-h=N\n", arg)
			os.Exit(2)
		}
		for found, tries := 0, 0; found < *n; tries++ {
			pos, ok := draw(rng, st)
			if len(near) > 0 {
				pos, ok = vary(rng, near[rng.IntN(len(near))], st)
			}
			if !ok {
				continue
			}
			count, ok := solutions(pos, st)
			if !ok || count == 0 || count > *maxSols {
				continue
			}
			found++
			if !first {
				fmt.Println("nextproblem")
			}
			first = false
			write(pos, st, fmt.Sprintf("%s %d (seed %d, try %d)", st, found, *seed, tries))
		}
	}
	fmt.Println("endproblem")
}

// draw places a composition-sized force with the side to move of the
// stipulation. Helpmates: the kings, two to four white men and two to
// five black men. Selfmates and reflexmates, which random play rarely
// allows: White has a queen and two to four more men, Black one to three
// men that have few moves (pawns mostly) and one piece that may mate.
// Direct stalemates: White one to three men, Black none to two.
// Selfstalemates: White one to three men, pawns mostly, Black one to
// three.
func draw(rng *rand.Rand, st problem.Stipulation) (board.Position, bool) {
	var men string
	switch {
	case st.Kind == problem.Direct:
		men = "Kk" + pick(rng, "QRBSP", 1+rng.IntN(3)) + pick(rng, "pppb", rng.IntN(3))
	case st.Aim == problem.Stalemate:
		men = "Kk" + pick(rng, "QRPPP", 1+rng.IntN(3)) + pick(rng, "qrbspp", 1+rng.IntN(3))
	case st.IsForced(), st.Kind == problem.SeriesSelf, st.Kind == problem.SeriesReflex,
		st.Kind == problem.HelpSelf, st.Kind == problem.HelpReflex:
		rng.IntN(3) // two draws left over, kept so that the seeds of
		rng.IntN(4) // examples/random-problems.inp still give its problems
		nw, nb := 2+rng.IntN(3), 1+rng.IntN(3)
		men = "KkQ" + pick(rng, "QRRBBSSPP", nw) + pick(rng, "ppppbsr", nb)
	default:
		men = "Kk" + pick(rng, "QRRBBSSPPP", 2+rng.IntN(3))
		men += pick(rng, "qrrbbsspppp", 2+rng.IntN(4))
	}
	men = strings.NewReplacer("S", "N", "s", "n").Replace(men)
	side := "w"
	if st.FirstSide() == board.Black {
		side = "b"
	}
	pos, err := board.ParseFEN(testpos.Placement(rng, men) + " " + side + " - - 0 1")
	if err != nil || !pos.HasLegalMove() || pos.InCheck() {
		return pos, false
	}
	return pos, true
}

// pick draws n letters of from.
func pick(rng *rand.Rand, from string, n int) string {
	var b []byte
	for i := 0; i < n; i++ {
		b = append(b, from[rng.IntN(len(from))])
	}
	return string(b)
}

// vary moves one man of pos to an empty square, or adds a black pawn,
// keeping the side to move of the stipulation.
func vary(rng *rand.Rand, pos board.Position, st problem.Stipulation) (board.Position, bool) {
	var grid [64]board.Piece
	var men []board.Square
	for s := board.Square(0); s < 64; s++ {
		if grid[s] = pos.PieceAt(s); grid[s] != board.NoPiece {
			men = append(men, s)
		}
	}
	to := board.Square(rng.IntN(64))
	if grid[to] != board.NoPiece {
		return pos, false
	}
	if rng.IntN(4) == 0 {
		grid[to] = board.MakePiece(board.Black, board.Pawn)
	} else {
		from := men[rng.IntN(len(men))]
		grid[to], grid[from] = grid[from], board.NoPiece
	}
	side := "w"
	if st.FirstSide() == board.Black {
		side = "b"
	}
	next, err := board.ParseFEN(board.Placement(&grid) + " " + side + " - - 0 1")
	if err != nil || !next.HasLegalMove() || next.InCheck() {
		return pos, false
	}
	return next, true
}

// solutions counts a helpmate's solutions or a selfmate's keys, with no
// shorter solution; false when the node budget ran out or one is shorter.
func solutions(pos board.Position, st problem.Stipulation) (int, bool) {
	lim := stipulation.Limits{Nodes: 2_000_000}
	ctx := context.Background()
	if st.HasSolutions() {
		short := st
		short.Moves--
		if short.Moves >= 1 || short.Half && short.Moves >= 0 {
			res, err := stipulation.Lines(ctx, pos, short, lim)
			if err != nil || len(res.Solutions) > 0 {
				return 0, false
			}
		}
		res, err := stipulation.Lines(ctx, pos, st, lim)
		return len(res.Solutions), err == nil
	}
	res, err := stipulation.Selfmates(ctx, pos, st, lim)
	if err != nil || res.Shortest != st.Moves {
		return 0, false
	}
	return len(res.Keys), true
}

// write prints one problem in Popeye's language.
func write(pos board.Position, st problem.Stipulation, title string) {
	fmt.Printf("title %s\n%s\nstipulation %s\n", title, popeye.Pieces(pos), st)
}
