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
		Description: "Reads positions from --fen flags ('startpos' for the initial position) and from puzzle\n" +
			"files ('-' for standard input): EPD (dm N, bm #N, bm #-N, bm SAN...; four-field or full\n" +
			"FEN), PGN (a game a record: its FEN tag, its main line), Lichess puzzle CSV or Popeye\n" +
			"problem files, chosen by their content. For each\n" +
			"position it proves the shortest forced mate for the side to move, or that the side to\n" +
			"move is mated in N. A proof-number search finds a forced mate first and reads its exact\n" +
			"length off its proof; it is then asked for a mate one move shorter, while iterative\n" +
			"deepening proves from below that no shorter mate exists; when the two meet the mate is\n" +
			"proved shortest. Each bound is reported as it is proved (a line on standard error with\n" +
			"-j 1 on a terminal). A limit that comes first gives 'limit' with what was proved: the\n" +
			"forced mate (JSON mate_within) with its key and whole line, and that no mate exists in\n" +
			"depth moves or fewer; never 'no-mate'.\n\n" +
			"A record is written as soon as its question is answered, with a limit or without\n" +
			"(--timeout 0 ends there): the shortest mate proved, with one key and a line of its full\n" +
			"length (--all: every key; --tree: the tree too; --proof: the certificate). --timeout\n" +
			"and --nodes count over all of it: once a mate is proved the proofs stop a twentieth\n" +
			"before them, and the keys and the line take the rest (docs/formats.md, \"When a record\n" +
			"is answered\").\n\n" +
			"How far it looks: --mate N is the cap; without it a record's claim is the cap (and the\n" +
			"length the proof-number search asks for first, in turn with its usual aims), and a\n" +
			"record with no claim gets the mate it has, of any length the search supports, within\n" +
			"--timeout. 'capped' means no mate within the cap (longer ones not looked for);\n" +
			"'no-mate' means none at any length (no material, the tables, no legal move).\n\n" +
			"Keys: without --all one key is proved and printed ('others not looked for'); with --all\n" +
			"every key, from the search and the tables alike, so cooks are found. Bad lines are\n" +
			"reported with their line number and the run goes on; the exit code is then 3.\n\n" +
			"Problems of every orthodox stipulation Popeye knows (help, self, reflex and series\n" +
			"play, mates and stalemates: h#N, h#N.5, h=N, s#N, s=N, r#N, semi-r#N, =N, hs#N, hr#N,\n" +
			"reci-h#N, ser-#N, ser-h#N, ser-s#N, pser-..., exact-..., M->ser-...; see --stip) come\n" +
			"from Popeye problem files (BeginProblem ... EndProblem, twins, options; sniffed by\n" +
			"content), the EPD opcode stip, or --stip for records that state none. Every solution of\n" +
			"help and series play and every key of forced play is listed, as Popeye prints them\n" +
			"(--san for SAN); --tree gives the solution tree of forced play. In a problem file the\n" +
			"stipulation says who starts; a FEN's side to move starts otherwise.\n\n" +
			"Results come out in input order. Ctrl-C writes every finished result; with --output\n" +
			"and --resume a later run continues where it stopped.\n\n" +
			"Examples:\n" +
			"  mateline solve examples/mates.epd\n" +
			"  mateline solve --all --fen '6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1'\n" +
			"  mateline solve -j 2 --json -o out.jsonl --resume puzzles.csv\n" +
			"  mateline solve examples/problems.inp\n" +
			"  mateline solve --stip h#2 --fen '4kb2/5p2/8/8/8/8/8/2KQ4 b - - 0 1'",
		Flags: append(append(searchFlags(defaultSolveTimeout),
			&cli.BoolFlag{Name: "all", Usage: "prove and list every key move (finds cooks)"},
			&cli.StringSliceFlag{Name: "fen", Usage: "a position to solve (repeatable)"},
			&cli.BoolFlag{Name: "tree", Usage: "print the solution tree: every key, each defence with the attacker's answers down to mate, duals and threats (implies --all)"},
			&cli.IntFlag{Name: "tree-depth", DefaultText: "all up to mate in 4, 2 beyond", Usage: "attacker moves shown with every defence; below, main lines only"},
			&cli.StringFlag{Name: "proof", Usage: "write a proof certificate of the mate to FILE (one --fen); check it with 'mateline check'"},
			&cli.StringFlag{Name: "proof-dir", Usage: "write a proof certificate per proved mate into DIR, named after the record id"},
			&cli.IntFlag{Name: "proof-limit", Value: solver.DefaultRefutationLimit, Usage: "largest refutation tree (nodes) written to certify that no shorter mate exists"},
		), batchFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runJob(ctx, cmd, batch.CommandSolve)
		},
	}
}
