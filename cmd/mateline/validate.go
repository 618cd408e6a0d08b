package main

import (
	"mateline.dev/mateline/batch"

	"context"
	"time"

	"github.com/urfave/cli/v3"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check each puzzle's mate claim or problem's stipulation: length, minimality, unique key, legality",
		ArgsUsage: "FILE|-...",
		Description: "Checks every mate puzzle in EPD, Lichess CSV or Popeye files against its claim (dm N, bm #N,\n" +
			"bm #-N, the mateInN themes) and gives one verdict each:\n" +
			"  ok          the claim holds: mate in exactly N, and the key is unique\n" +
			"  shorter     a shorter mate exists (proved shortest, or proved before a limit:\n" +
			"              mate_within < N)\n" +
			"  longer      mate in N cannot be forced, but a longer mate (within --beyond) can\n" +
			"  no-mate     no mate within the claim (and --beyond)\n" +
			"  cooked      more than one key (Lichess: several mates in 1 are allowed)\n" +
			"  wrong-key   the claimed key does not mate in N, but another move does\n" +
			"  illegal     the position cannot occur, or has no legal move\n" +
			"  unreadable  the line could not be read\n" +
			"  timeout     the verdict a --timeout or --nodes limit gives: it stopped the proof\n" +
			"              before anything about the claim was proved either way\n" +
			"  skipped     the record has no mate claim (not a mate puzzle), or a Lichess row\n" +
			"              has no solution move to check\n" +
			"Helpmates and selfmates (Popeye problem files, EPD stip \"h#2\", --stip) are checked\n" +
			"against their stipulation and the author's key (bm) or line (pv) when given:\n" +
			"  ok, cooked (more than one solution or key), shorter (solved in fewer moves),\n" +
			"  no-solution, wrong-key, timeout (see docs/problems.md).\n" +
			"A summary table follows the results (on\n" +
			"standard error unless the output is text on standard output). Exit code 3 if any\n" +
			"puzzle is not ok.\n\n" +
			"Examples:\n" +
			"  mateline validate -j 2 --format html -o report.html lichess_db_puzzle.csv\n" +
			"  mateline validate problems.inp",
		Flags: append(append(searchFlags(10*time.Second),
			&cli.IntFlag{Name: "beyond", Value: 2, Usage: "moves past the claim to look for a longer mate"},
		), batchFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runJob(ctx, cmd, batch.CommandValidate)
		},
	}
}
