package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/solver"
)

// searchFlags are the flags every searching command shares.
func searchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "mate", Value: 10, Usage: "longest mate to look for, in moves; a file's claim (dm N, bm #N) is used when this flag is not given"},
		&cli.DurationFlag{Name: "timeout", Usage: "time limit per position, e.g. 2s (0: none); a position that hits it is reported as 'limit', never as 'no-mate'"},
		&cli.Uint64Flag{Name: "nodes", Usage: "node limit per position (0: none)"},
		&cli.IntFlag{Name: "hash", Value: 64, Usage: "transposition table size in MiB"},
		&cli.BoolFlag{Name: "all", Usage: "prove and list every key move (finds cooks)"},
		&cli.BoolFlag{Name: "rule50", Usage: "honour the 50-move rule, using hmvc or the FEN clock (off by problem convention)"},
	}
}

func solveCommand() *cli.Command {
	return &cli.Command{
		Name:      "solve",
		Usage:     "prove the shortest mate of each position and report key, line and figures",
		ArgsUsage: "[FILE|-]...",
		Description: "Reads positions from --fen flags and from EPD files ('-' for standard input) and proves,\n" +
			"for each, the shortest forced mate for the side to move, or that it is mated in N.\n" +
			"Iterative deepening over the mate length proves that no shorter mate exists.\n" +
			"EPD claims (dm N, bm #N, bm #-N) set how far to look. Bad lines are reported with\n" +
			"their line number and the run goes on (exit code 3 at the end).\n\n" +
			"Example: mateline solve examples/mates.epd\n" +
			"         mateline solve --all --fen '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1'",
		Flags: append(searchFlags(),
			&cli.StringSliceFlag{Name: "fen", Usage: "a position to solve (repeatable)"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON Lines (one record per position) instead of text"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write results to this file instead of standard output"},
		),
		Action: runSolve,
	}
}

// solveConfig is what a searching command takes from its flags.
type solveConfig struct {
	opt          solver.Options
	mateFlagSet  bool
	hashMiB      int
	jsonOut      bool
	fens         []string
	files        []string
	outputPath   string
	defaultWants solver.Want
}

func readSolveConfig(cmd *cli.Command) (solveConfig, error) {
	c := solveConfig{
		opt: solver.Options{
			MaxMate: int(cmd.Int("mate")),
			AllKeys: cmd.Bool("all"),
			Rule50:  cmd.Bool("rule50"),
			Nodes:   cmd.Uint64("nodes"),
			Timeout: cmd.Duration("timeout"),
		},
		mateFlagSet: cmd.IsSet("mate"),
		hashMiB:     int(cmd.Int("hash")),
		jsonOut:     cmd.Bool("json"),
		fens:        cmd.StringSlice("fen"),
		files:       cmd.Args().Slice(),
		outputPath:  cmd.String("output"),
	}
	if c.opt.MaxMate < 1 || c.opt.MaxMate > solver.MaxPly/2-2 {
		return c, usagef("--mate %d is out of range 1-%d", c.opt.MaxMate, solver.MaxPly/2-2)
	}
	if c.hashMiB < 1 || c.hashMiB > 1<<20 {
		return c, usagef("--hash %d MiB is out of range", c.hashMiB)
	}
	if len(c.fens) == 0 && len(c.files) == 0 {
		return c, usagef("nothing to solve: give --fen FEN or a FILE (see --help)")
	}
	return c, nil
}

// optionsFor adapts the options to a record's claim.
func (c *solveConfig) optionsFor(rec *puzzles.Record) solver.Options {
	opt := c.opt
	if claim := rec.Claim.Mate; claim != 0 && !c.mateFlagSet {
		opt.MaxMate = claim
		opt.Want = solver.WantMate
		if claim < 0 {
			opt.MaxMate, opt.Want = -claim, solver.WantMated
		}
	}
	return opt
}

func runSolve(ctx context.Context, cmd *cli.Command) error {
	cfg, err := readSolveConfig(cmd)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()

	out := cmd.Root().Writer
	if cfg.outputPath != "" {
		f, err := os.Create(cfg.outputPath)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	w := bufio.NewWriter(out)
	defer w.Flush()

	sv := solver.New(cfg.hashMiB)
	failed := 0
	emit := func(rec puzzles.Record) error {
		var res solver.Result
		if rec.Err == nil {
			res = sv.Solve(ctx, rec.Pos, cfg.optionsFor(&rec))
		} else {
			failed++
		}
		o := puzzles.NewOutcome(&rec, res)
		var err error
		if cfg.jsonOut {
			err = o.WriteJSON(w)
		} else {
			err = o.WriteText(w)
		}
		if err == nil {
			err = w.Flush()
		}
		return err
	}
	for i, fen := range cfg.fens {
		if err := emit(puzzles.FromFEN("--fen", i+1, fen)); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return interrupted()
		}
	}
	for _, path := range cfg.files {
		r, closer, err := puzzles.Open(path)
		if err != nil {
			return err
		}
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				closer.Close()
				return fmt.Errorf("%s: %w", path, err)
			}
			if err := emit(rec); err != nil {
				closer.Close()
				return err
			}
			if ctx.Err() != nil {
				closer.Close()
				return interrupted()
			}
		}
		closer.Close()
	}
	if failed > 0 {
		return cli.Exit(fmt.Sprintf("%d position(s) could not be read or are not legal", failed), exitFailures)
	}
	return nil
}

func interrupted() error {
	return cli.Exit("interrupted: the results above are complete; the rest was not solved", exitRuntime)
}
