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
		Description: "Checks every mate puzzle in EPD, PGN, Lichess CSV or Popeye files against its claim (dm N,\n" +
			"bm #N, bm #-N, the mateInN themes; in PGN a tag or comment \"Mate in two\", or the main line\n" +
			"from a set-up position that ends in mate) and gives one verdict each:\n" +
			"  ok          the claim holds: mate in exactly N, and the key is unique\n" +
			"  shorter     a shorter mate exists (proved shortest, or proved before a limit:\n" +
			"              mate_within < N)\n" +
			"  longer      mate in N cannot be forced, but a longer mate (within --beyond) can\n" +
			"  no-mate     no mate within the claim (and --beyond)\n" +
			"  cooked      more than one key (Lichess: several mates in 1 are allowed)\n" +
			"  wrong-key   the claimed key does not mate in N, but another move does; or a later\n" +
			"              move of the author's line (PGN, Lichess) does not keep the mate in time\n" +
			"  illegal     the position cannot occur (a stalemate or a checkmate already on the\n" +
			"              board is legal: its claim gets no-mate)\n" +
			"  unreadable  the line could not be read\n" +
			"  timeout     a --timeout or --nodes limit came before the check was done; JSON's\n" +
			"              cut says which part: the length, the keys, or the solution's line\n" +
			"  skipped     the record has no mate claim (not a mate puzzle), or a Lichess row\n" +
			"              has no solution move to check\n" +
			"Helpmates and selfmates (Popeye problem files, EPD stip \"h#2\", --stip) are checked\n" +
			"against their stipulation and the author's key (bm) or line (pv) when given:\n" +
			"  ok, cooked (more than one solution or key), shorter (solved in fewer moves),\n" +
			"  no-solution, wrong-key, timeout (see docs/problems.md).\n" +
			"In a PGN puzzle the main line's first move is the key, and the author's solution past it\n" +
			"(the main line, and the variations given for the defences) is checked move by move: the\n" +
			"first move that does not keep the mate in time is named, with the defence that refutes it.\n" +
			"A record is written as soon as its verdict is proved: the claim's length, every key\n" +
			"(the verdict needs to know the key is the only one) and the line; --timeout and --nodes\n" +
			"count over all of it (docs/formats.md, \"When a record is answered\").\n" +
			"A summary table follows the results (on standard error unless the output is text on\n" +
			"standard output). Exit code 3 if any puzzle is not ok, or an input holds no record.\n\n" +
			"Examples:\n" +
			"  mateline validate -j 2 --format html -o report.html lichess_db_puzzle.csv\n" +
			"  mateline validate problems.inp\n" +
			"  mateline validate --format pgn -o checked.pgn collection.pgn",
		Flags: append(append(searchFlags(10*time.Second),
			&cli.IntFlag{Name: "beyond", Value: 2, Usage: "moves past the claim to look for a longer mate"},
		), batchFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runJob(ctx, cmd, batch.CommandValidate)
		},
	}
}
