package main

import (
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/solver"
)

func benchCommand() *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "solve a fixed set of 30 positions; print a deterministic node count and nodes/s",
		Description: "Solves the built-in workload (mates in 1 to 7, mated-in-N, and positions with no mate\n" +
			"within the limit), each with a fresh table, and checks every answer. The total node\n" +
			"count is deterministic: it changes only when the search changes, so quote it in a\n" +
			"commit that changes search behaviour.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "hash", Value: 16, Usage: "transposition table size in MiB per position"},
			&cli.IntFlag{Name: "threads", Value: 1, Usage: "threads per position; the node count is deterministic with 1"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print one line per position"},
		},
		Action: runBench,
	}
}

func runBench(ctx context.Context, cmd *cli.Command) error {
	w := cmd.Root().Writer
	var nodes uint64
	var elapsed time.Duration
	wrong := 0
	sv := solver.New(int(cmd.Int("hash")))
	for i, bp := range solver.BenchPositions {
		pos, err := board.ParseFEN(bp.FEN)
		if err != nil {
			return fmt.Errorf("bench position %d: %v", i+1, err)
		}
		sv.Clear() // each position starts from empty tables: the count is deterministic
		res := sv.Solve(ctx, pos, solver.Options{MaxMate: bp.MaxMate, Threads: int(cmd.Int("threads"))})
		nodes += res.Nodes
		elapsed += res.Elapsed
		ok := res.Mate == bp.Want && res.Status != solver.StatusLimit
		if !ok {
			wrong++
		}
		if cmd.Bool("verbose") || !ok {
			mark := ""
			if !ok {
				mark = fmt.Sprintf("  WRONG: want %d", bp.Want)
			}
			fmt.Fprintf(w, "%2d %-8s %+3d %10d nodes %8.1f ms  %s%s\n", i+1, res.Status, res.Mate, res.Nodes,
				float64(res.Elapsed.Microseconds())/1000, bp.FEN, mark)
		}
	}
	fmt.Fprintf(w, "positions %d\nnodes     %d\nseconds   %.3f\nnps       %.0f\n",
		len(solver.BenchPositions), nodes, elapsed.Seconds(), float64(nodes)/elapsed.Seconds())
	if wrong > 0 {
		return fmt.Errorf("bench: %d wrong answers", wrong)
	}
	return nil
}
