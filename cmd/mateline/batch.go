package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/endgame"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/solver"
)

// searchFlags are the flags every searching command shares.
func searchFlags(defaultTimeout time.Duration) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "mate", Value: 10, Usage: "longest mate to look for, in moves; a file's claim (dm N, bm #N) is used when this flag is not given"},
		&cli.DurationFlag{Name: "timeout", Value: defaultTimeout, Usage: "time limit per position, e.g. 2s (0: none); a position that hits it is reported as 'limit', never as 'no-mate'"},
		&cli.Uint64Flag{Name: "nodes", Usage: "node limit per position (0: none)"},
		&cli.IntFlag{Name: "hash", Value: 64, Usage: "transposition table memory in MiB, shared out among the workers (at most three quarters of the machine's memory)"},
		&cli.BoolFlag{Name: "rule50", Usage: "honour the 50-move rule, using hmvc or the FEN clock (off by problem convention)"},
	}
}

// batchFlags are the flags of the commands that run over puzzle files.
func batchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, DefaultText: "all cores; 1 for a single --fen", Usage: "positions solved at once (at most 4 per core)"},
		&cli.IntFlag{Name: "threads", DefaultText: "cores / jobs", Usage: "threads searching each position; -j x --threads stays within the core count unless both are given. The answers never depend on it"},
		&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text, epd (annotated), jsonl, csv or html"},
		&cli.BoolFlag{Name: "json", Usage: "same as --format jsonl"},
		&cli.StringFlag{Name: "input-format", Value: "auto", Usage: "input format: auto (by the content: a CSV header naming FEN and Moves is Lichess CSV, else EPD), epd or csv"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write results to this file (through FILE.partial, renamed at the end) instead of standard output"},
		&cli.BoolFlag{Name: "resume", Usage: "keep the records already in the --output file (or in FILE.partial left by a crash) and do the rest"},
		&cli.StringFlag{Name: "shard", Usage: "i/n: take only shard i (0-based) of n, by a stable hash of the id; '/n' or 'n' reads i from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID"},
		&cli.BoolFlag{Name: "no-progress", Usage: "no progress bar (it shows only when standard error is a terminal)"},
		bookFlag(),
		syzygyFlag(),
	}
}

// newJob builds the job a solve or validate command line asks for.
func newJob(cmd *cli.Command, validate bool, started time.Time) (*puzzles.Job, error) {
	timeout := cmd.Duration("timeout")
	j := &puzzles.Job{
		Validate: validate,
		Options: solver.Options{
			MaxMate: int(cmd.Int("mate")),
			Rule50:  cmd.Bool("rule50"),
			Nodes:   cmd.Uint64("nodes"),
			Timeout: timeout,
			// A mate proved just before the time limit still gets its keys
			// and line.
			ExtractGrace: min(timeout/10, 2*time.Second),
		},
		MateFlagSet: cmd.IsSet("mate"),
		HashMiB:     int(cmd.Int("hash")),
		Format:      cmd.String("format"),
		Output:      cmd.String("output"),
		Resume:      cmd.Bool("resume"),
		Inputs:      &puzzles.Inputs{Files: cmd.Args().Slice()},
		Started:     started,
		Stdout:      cmd.Root().Writer,
		Stderr:      os.Stderr,
	}
	if !validate {
		j.Options.AllKeys = cmd.Bool("all")
		j.Inputs.FENs = cmd.StringSlice("fen")
		j.ProofFile, j.ProofDir, j.ProofLimit = cmd.String("proof"), cmd.String("proof-dir"), int(cmd.Int("proof-limit"))
		j.Tree, j.TreeDepth = cmd.Bool("tree"), int(cmd.Int("tree-depth"))
		if j.Tree {
			j.Options.AllKeys = true // the tree shows every key
		}
		if j.TreeDepth < 0 {
			return nil, usagef("--tree-depth %d: want 1 or more moves", j.TreeDepth)
		}
	} else {
		j.Beyond = int(cmd.Int("beyond"))
		if j.Beyond < 0 {
			return nil, usagef("--beyond %d: want 0 or more moves", j.Beyond)
		}
	}
	if cmd.Bool("json") {
		j.Format = puzzles.FormatJSONL
	}
	switch {
	case j.Options.MaxMate < 1 || j.Options.MaxMate > solver.MaxPly/2-2:
		return nil, usagef("--mate %d is out of range 1-%d", j.Options.MaxMate, solver.MaxPly/2-2)
	case timeout < 0:
		return nil, usagef("--timeout %v: a time limit cannot be negative (0 means none)", timeout)
	case j.HashMiB < 1:
		return nil, usagef("--hash %d MiB: want at least 1", j.HashMiB)
	case j.HashMiB > maxHashMiB():
		return nil, usagef("--hash %d MiB is more than this machine can give (at most %d MiB, three quarters of its memory)", j.HashMiB, maxHashMiB())
	}
	inputFormat, err := puzzles.ParseInputFormat(cmd.String("input-format"))
	if err != nil {
		return nil, usagef("%v", err)
	}
	j.Inputs.Format = inputFormat
	cores := runtime.NumCPU()
	j.Workers = int(cmd.Int("jobs"))
	if !cmd.IsSet("jobs") {
		j.Workers = cores
		if len(j.Inputs.FENs) == 1 && len(j.Inputs.Files) == 0 {
			j.Workers = 1 // one position: its threads get the cores
		}
	}
	if j.Workers < 1 || j.Workers > 4*cores {
		return nil, usagef("--jobs %d is out of range 1-%d (4 per core)", j.Workers, 4*cores)
	}
	j.Options.Threads = int(cmd.Int("threads"))
	if !cmd.IsSet("threads") {
		j.Options.Threads = max(cores/j.Workers, 1)
	}
	if j.Options.Threads < 1 || j.Options.Threads > solver.MaxThreads {
		return nil, usagef("--threads %d is out of range 1-%d", j.Options.Threads, solver.MaxThreads)
	}
	switch j.Format {
	case puzzles.FormatText, puzzles.FormatEPDs, puzzles.FormatJSONL, puzzles.FormatCSV, puzzles.FormatHTML:
	default:
		return nil, usagef("--format %q: want text, epd, jsonl, csv or html", j.Format)
	}
	if j.Resume {
		if j.Output == "" {
			return nil, usagef("--resume needs --output FILE (the file to continue)")
		}
		if j.Format == puzzles.FormatText || j.Format == puzzles.FormatHTML {
			return nil, usagef("--resume needs --format jsonl, csv or epd (a %s file does not record ids)", j.Format)
		}
	}
	for _, path := range j.Inputs.Files {
		if path == "-" {
			continue
		}
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if st.IsDir() {
			return nil, usagef("%s is a folder, not a puzzle file", path)
		}
	}
	if err := checkProofFlags(j); err != nil {
		return nil, err
	}
	if j.Shard, err = puzzles.ParseShard(cmd.String("shard"), cmd.IsSet("shard"), os.Getenv); err != nil {
		return nil, usagef("%v", err)
	}
	if len(j.Inputs.FENs) == 0 && len(j.Inputs.Files) == 0 {
		return nil, usagef("nothing to do: give a FILE ('-' for standard input)%s; see --help",
			map[bool]string{false: " or --fen FEN", true: ""}[validate])
	}
	if err := j.Check(); err != nil {
		return nil, usagef("%v", err)
	}
	j.Report = puzzles.ReportInfo{Inputs: append(j.Inputs.Files, fenLabels(j.Inputs.FENs)...), Version: version(), Date: started,
		Settings: settingsText(cmd, j)}
	return j, nil
}

func fenLabels(fens []string) []string {
	var out []string
	for _, f := range fens {
		out = append(out, "--fen "+f)
	}
	return out
}

// settingsText describes the search settings for the HTML report's header.
func settingsText(cmd *cli.Command, j *puzzles.Job) string {
	parts := []string{}
	if j.MateFlagSet {
		parts = append(parts, fmt.Sprintf("--mate %d", j.Options.MaxMate))
	} else {
		parts = append(parts, fmt.Sprintf("mate: the claim (else %d)", j.Options.MaxMate))
	}
	if j.Options.Timeout > 0 {
		parts = append(parts, "--timeout "+j.Options.Timeout.String())
	}
	if j.Options.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("--nodes %d", j.Options.Nodes))
	}
	parts = append(parts, fmt.Sprintf("--hash %d", j.HashMiB), fmt.Sprintf("-j %d", j.Workers), fmt.Sprintf("--threads %d", j.Options.Threads))
	if j.Validate {
		parts = append(parts, fmt.Sprintf("--beyond %d", j.Beyond))
	}
	if j.Options.Rule50 {
		parts = append(parts, "--rule50")
	}
	if s := cmd.String("syzygy"); s != "" {
		parts = append(parts, "--syzygy "+s)
	}
	return strings.Join(parts, " ")
}

// checkProofFlags checks --proof, --proof-dir and --proof-limit.
func checkProofFlags(j *puzzles.Job) error {
	switch {
	case j.ProofFile != "" && j.ProofDir != "":
		return usagef("give --proof FILE (one position) or --proof-dir DIR, not both")
	case j.ProofFile != "" && (len(j.Inputs.FENs) != 1 || len(j.Inputs.Files) != 0):
		return usagef("--proof FILE writes the certificate of one --fen position; for files use --proof-dir DIR")
	case (j.ProofFile != "" || j.ProofDir != "") && j.Options.Rule50:
		return usagef("proof certificates follow the problem convention: not with --rule50")
	case j.ProofLimit < 0:
		return usagef("--proof-limit %d: want 0 or more nodes", j.ProofLimit)
	}
	if j.ProofDir != "" {
		if st, err := os.Stat(j.ProofDir); err != nil || !st.IsDir() {
			return usagef("--proof-dir %s: not a folder", j.ProofDir)
		}
	}
	return nil
}

func stderrIsTerminal() bool {
	st, err := os.Stderr.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// runJob runs solve or validate: it opens the book and tables, wires the
// progress bar and Ctrl-C, and turns the job's errors into exit codes.
func runJob(ctx context.Context, cmd *cli.Command, validate bool) error {
	j, err := newJob(cmd, validate, startTime)
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
	if !cmd.Bool("no-progress") && stderrIsTerminal() {
		j.Progress = progressbar.NewOptions64(-1,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription(map[bool]string{true: "validating", false: "solving"}[validate]),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("pos"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	_, err = j.Run(ctx)
	var ue puzzles.UsageError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ue):
		return usagef("%v", ue.Msg)
	case errors.Is(err, puzzles.ErrInterrupted):
		return cli.Exit(err.Error(), exitRuntime)
	case errors.Is(err, puzzles.ErrFailures):
		return cli.Exit(strings.TrimPrefix(err.Error(), puzzles.ErrFailures.Error()+": "), exitFailures)
	}
	return err
}
