package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/batch"
	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/endgame"
	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/report"
	"mateline.dev/mateline/solver"
)

// searchFlags are the flags every searching command shares.
func searchFlags(defaultTimeout time.Duration) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "mate", DefaultText: fmt.Sprintf("the claim, else no cap (any length up to %d)", solver.MaxMateMoves), Usage: "longest mate to look for, in moves: the cap. Without it a record's claim (dm N, bm #N) is the cap, and a record with no claim gets the mate it has, of any length the search supports, within --timeout"},
		&cli.DurationFlag{Name: "timeout", Value: defaultTimeout, Usage: "time limit per position, e.g. 2s (0: none); a position that hits it is reported as 'limit', never as 'no-mate'"},
		&cli.Uint64Flag{Name: "nodes", Usage: "node limit per position (0: none); on one thread (the default with it) the same answer on every run"},
		&cli.IntFlag{Name: "hash", Value: 64, Usage: "transposition table memory in MiB, shared out among the workers (at most three quarters of the machine's memory)"},
		&cli.BoolFlag{Name: "rule50", Usage: "honour the 50-move rule, using hmvc or the FEN clock (off by problem convention)"},
	}
}

// batchFlags are the flags of the commands that run over puzzle files.
func batchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, DefaultText: "all cores; 1 for a single --fen", Usage: "positions solved at once (at most 4 per core)"},
		&cli.IntFlag{Name: "threads", DefaultText: "cores / jobs; 1 with --nodes", Usage: "threads searching each position; -j x --threads stays within the core count unless both are given. What is proved is never wrong with any count, and a finished proof gives the same answer; but a limit stops several threads at a different point on every run, so what a --nodes or --timeout limit leaves proved (status, depth, mate_within, the key found without --all) can differ from run to run. One thread under --nodes gives the same answer on every run"},
		&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text, epd (annotated), jsonl, csv, html, or pgn (a game per record: the proved solution as the main line, cooks and --tree as variations, what was proved in comments)"},
		&cli.BoolFlag{Name: "json", Usage: "same as --format jsonl"},
		&cli.StringFlag{Name: "input-format", Value: "auto", Usage: "input format: auto (by the content: a Popeye problem file starts with BeginProblem, PGN with a tag pair or '1.', a CSV header naming FEN and Moves is Lichess CSV, else EPD), epd, csv, popeye or pgn"},
		&cli.StringFlag{Name: "stip", Usage: "stipulation of the positions that state none: #N (direct mate, the default), h#N or h#N.5 (helpmate: the side to move starts, the other side mates), s#N (selfmate: the side to move forces the other side to mate it), r#N and semi-r#N (reflexmates: a selfmate where a side that can mate in one must; semi-r: the other side only), =N, h=N, s=N (the same with stalemate as the aim), hs#N and hr#N (help play, then the other side's forced mate), reci-h#N (help play to a position where the side to move can both mate and be mated in one), ser-#N, ser-=N, ser-h#N, ser-h=N, ser-s#N, ser-r#N (series-movers: the side to move plays N moves in a row; M->ser-... introductory moves first), pser-#N, pser-=N, pser-h#N, pser-h=N, pser-s#N, pser-s=N (parry series: a check in mid-series is answered by the other side), exact- before any (the aim only on the last move); docs/problems.md has the rules"},
		&cli.BoolFlag{Name: "san", Usage: "write helpmate and selfmate moves in SAN (default: Popeye's long notation, Sg1-f3, Qh5*f7 #)"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write results to this file (through FILE.partial, renamed at the end) instead of standard output"},
		&cli.BoolFlag{Name: "resume", Usage: "keep the records already in the --output file (or in FILE.partial left by a crash) and do the rest"},
		&cli.StringFlag{Name: "shard", Usage: "i/n: take only shard i (0-based) of n, by a stable hash of the id; '/n' or 'n' reads i from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID"},
		&cli.BoolFlag{Name: "no-progress", Usage: "no progress bar, and no line per bound proved (both show only when standard error is a terminal; the lines only with -j 1)"},
		bookFlag(),
		syzygyFlag(),
		dtmFlags(4)[0],
		dtmFlags(4)[1],
		dtmFlags(4)[2],
	}
}

// newJob maps a solve or validate command line to its job; the job checks
// itself (batch.Job.Validate).
func newJob(cmd *cli.Command, command batch.Command, started time.Time) (*batch.Job, error) {
	j := &batch.Job{
		Command: command,
		Options: solver.Options{
			MaxMate: solver.MaxMateMoves,
			Rule50:  cmd.Bool("rule50"),
			Nodes:   cmd.Uint64("nodes"),
			Timeout: cmd.Duration("timeout"),
			Threads: int(cmd.Int("threads")),
		},
		MateFlagSet: cmd.IsSet("mate"),
		HashMiB:     int(cmd.Int("hash")),
		Workers:     int(cmd.Int("jobs")),
		Output:      cmd.String("output"),
		Resume:      cmd.Bool("resume"),
		Inputs:      &inputs.List{Files: cmd.Args().Slice()},
		TablesPath:  cmd.String("syzygy"),
		Started:     started,
		Stdout:      cmd.Root().Writer,
		Stderr:      os.Stderr,
	}
	if cmd.IsSet("mate") {
		j.Options.MaxMate = int(cmd.Int("mate"))
	}
	// 0 given on the command line is out of range, not "the default".
	for _, name := range []string{"jobs", "threads"} {
		if cmd.IsSet(name) && cmd.Int(name) == 0 {
			return nil, batch.Usagef("--%s 0: want 1 or more", name)
		}
	}
	if command == batch.CommandSolve {
		j.Options.AllKeys = cmd.Bool("all")
		j.Inputs.FENs = cmd.StringSlice("fen")
		j.ProofFile, j.ProofDir, j.ProofLimit = cmd.String("proof"), cmd.String("proof-dir"), int(cmd.Int("proof-limit"))
		j.Tree, j.TreeDepth = cmd.Bool("tree"), int(cmd.Int("tree-depth"))
	} else {
		j.Beyond = int(cmd.Int("beyond"))
	}
	if s := cmd.String("stip"); s != "" {
		st, err := problem.Parse(s)
		if err != nil {
			return nil, batch.Usagef("--stip: %v", err)
		}
		j.Stip = st
	}
	j.SAN = cmd.Bool("san")
	format := cmd.String("format")
	if cmd.Bool("json") {
		format = string(report.FormatJSONL)
	}
	var err error
	if j.Format, err = report.ParseFormat(format); err != nil {
		return nil, batch.UsageError{Msg: err.Error()}
	}
	if j.Inputs.Format, err = inputs.ParseFormat(cmd.String("input-format")); err != nil {
		return nil, batch.UsageError{Msg: err.Error()}
	}
	if j.Shard, err = batch.ParseShard(cmd.String("shard"), cmd.IsSet("shard"), os.Getenv); err != nil {
		return nil, batch.UsageError{Msg: err.Error()}
	}
	j.Report = report.RunInfo{Inputs: append(j.Inputs.Files, fenLabels(j.Inputs.FENs)...), Version: version(), Date: started}
	return j, j.Validate()
}

func fenLabels(fens []string) []string {
	var out []string
	for _, f := range fens {
		out = append(out, "--fen "+f)
	}
	return out
}

func stderrIsTerminal() bool {
	st, err := os.Stderr.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// runJob runs solve or validate: it opens the book and tables, wires the
// progress bar and Ctrl-C, and turns the job's errors into exit codes.
func runJob(ctx context.Context, cmd *cli.Command, command batch.Command) error {
	j, err := newJob(cmd, command, startTime)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	bk, err := openBook(cmd)
	if err != nil {
		return err
	}
	defer bk.Close()
	j.Options.Book = bk
	tables, err := openTables(cmd)
	if err != nil {
		return err
	}
	if tables != nil {
		j.Options.Prober = endgame.NewProber(tables, func(err error) {
			fmt.Fprintf(os.Stderr, "mateline: warning: %v; going on without it\n", err)
		})
	}
	store, err := openDTM(cmd)
	if err != nil {
		return err
	}
	if store != nil {
		// (a certificate stays checkable without the tables: they choose
		// the attacker's moves of its proof, which the checker verifies
		// move by move; only its lower bound may rest on them)
		defer store.Close()
		// A root uses the tables --dtm-build allows; a node inside a
		// search the tables of up to four men (built in seconds) and the
		// five-man tables already in the cache.
		// A table it may not build is named only when a limit stopped a
		// record it would have answered: a mate proved at once needs none.
		j.Options.DTM, j.Options.SearchDTM = store.Prober(dtm.BoundedMen).Quiet(), store.Prober(4).StoredOnly()
		j.LimitHint = func(pos *board.Position) { store.HintOnce(pos) }
	}
	if !cmd.Bool("no-progress") && stderrIsTerminal() {
		if j.Workers == 1 {
			j.Bounds = os.Stderr // one position at a time: each bound as it is proved
		}
		j.Progress = progressbar.NewOptions64(-1,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription(map[bool]string{true: "validating", false: "solving"}[command == batch.CommandValidate]),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("pos"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	_, err = j.Run(ctx)
	switch {
	case errors.Is(err, batch.ErrInterrupted):
		return cli.Exit(err.Error(), exitRuntime)
	case errors.Is(err, batch.ErrFailures):
		return cli.Exit(strings.TrimPrefix(err.Error(), batch.ErrFailures.Error()+": "), exitFailures)
	}
	return err
}
