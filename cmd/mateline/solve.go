package main

import (
	"mateline.dev/mateline/batch"

	"context"
	"time"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/solver"
)

// defaultSolveTimeout keeps solve from running for ever on a position
// without a mate (the opening position, say); --timeout 0 lifts it.
const defaultSolveTimeout = 30 * time.Second

func solveCommand() *cli.Command {
	return &cli.Command{
		Name:      "solve",
		Usage:     "prove the shortest mate of each position and report key, line and figures",
		ArgsUsage: "[FILE|-]...",
		Description: "Reads positions from --fen flags and from puzzle files ('-' for standard input): EPD\n" +
			"(dm N, bm #N, bm #-N, bm SAN...; four-field or full FEN) or Lichess puzzle CSV, chosen\n" +
			"by extension or by sniffing. For each position it proves the shortest forced mate for\n" +
			"the side to move, or that the side to move is mated in N; iterative deepening over the\n" +
			"mate length proves that no shorter mate exists, and a proof-number search, taking turns\n" +
			"with it, looks for the longest mate wanted. When a limit stops the proof of shortness\n" +
			"after that search proved a mate, the result is 'limit' with the proved mate as an\n" +
			"upper bound (JSON mate_within). A claim in the file sets how far to look unless\n" +
			"--mate is given. Bad lines are reported with their line number and the run goes on;\n" +
			"the exit code is then 3.\n\n" +
			"Results come out in input order. Ctrl-C writes every finished result; with --output\n" +
			"and --resume a later run continues where it stopped.\n\n" +
			"Examples:\n" +
			"  mateline solve examples/mates.epd\n" +
			"  mateline solve --all --fen '6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1'\n" +
			"  mateline solve -j 2 --json -o out.jsonl --resume puzzles.csv",
		Flags: append(append(searchFlags(defaultSolveTimeout),
			&cli.BoolFlag{Name: "all", Usage: "prove and list every key move (finds cooks)"},
			&cli.StringSliceFlag{Name: "fen", Usage: "a position to solve (repeatable)"},
			&cli.BoolFlag{Name: "tree", Usage: "print the solution tree: every key, each defence with the attacker's answers down to mate, duals and threats (implies --all)"},
			&cli.IntFlag{Name: "tree-depth", Usage: "attacker moves shown with every defence; below, main lines only (default: all up to mate in 4, 2 beyond)"},
			&cli.StringFlag{Name: "proof", Usage: "write a proof certificate of the mate to FILE (one --fen); check it with 'mateline check'"},
			&cli.StringFlag{Name: "proof-dir", Usage: "write a proof certificate per proved mate into DIR, named after the record id"},
			&cli.IntFlag{Name: "proof-limit", Value: solver.DefaultRefutationLimit, Usage: "largest refutation tree (nodes) written to certify that no shorter mate exists"},
		), batchFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runJob(ctx, cmd, batch.CommandSolve)
		},
	}
}
