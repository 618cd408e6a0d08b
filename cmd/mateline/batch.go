package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
		&cli.IntFlag{Name: "hash", Value: 64, Usage: "transposition table memory in MiB, shared out among the workers"},
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
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write results to this file instead of standard output"},
		&cli.BoolFlag{Name: "resume", Usage: "skip records whose id is already in the --output file and append the rest"},
		&cli.StringFlag{Name: "shard", Usage: "i/n: take only shard i (0-based) of n, by a stable hash of the id; '/n' or 'n' reads i from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID"},
		&cli.BoolFlag{Name: "no-progress", Usage: "no progress bar (it shows only when standard error is a terminal)"},
		bookFlag(),
		syzygyFlag(),
	}
}

// runConfig is what a batch command takes from its flags.
type runConfig struct {
	validate    bool
	opt         solver.Options
	mateFlagSet bool
	hashMiB     int
	beyond      int
	jobs        int
	threads     int
	format      string
	output      string
	resume      bool
	shard       puzzles.Shard
	progress    bool
	fens        []string
	files       []string
	proofFile   string // --proof: the one certificate
	proofDir    string // --proof-dir: one certificate per record
	proofLimit  int
	tree        bool // --tree: the solution tree
	treeDepth   int
}

func readRunConfig(cmd *cli.Command, validate bool) (runConfig, error) {
	c := runConfig{
		validate: validate,
		opt: solver.Options{
			MaxMate: int(cmd.Int("mate")),
			Rule50:  cmd.Bool("rule50"),
			Nodes:   cmd.Uint64("nodes"),
			Timeout: cmd.Duration("timeout"),
			// A mate proved just before the time limit still gets its keys
			// and line.
			ExtractGrace: min(cmd.Duration("timeout")/10, 2*time.Second),
		},
		mateFlagSet: cmd.IsSet("mate"),
		hashMiB:     int(cmd.Int("hash")),
		jobs:        int(cmd.Int("jobs")),
		threads:     int(cmd.Int("threads")),
		format:      cmd.String("format"),
		output:      cmd.String("output"),
		resume:      cmd.Bool("resume"),
		progress:    !cmd.Bool("no-progress"),
		files:       cmd.Args().Slice(),
	}
	if !validate {
		c.opt.AllKeys = cmd.Bool("all")
		c.fens = cmd.StringSlice("fen")
		c.proofFile, c.proofDir, c.proofLimit = cmd.String("proof"), cmd.String("proof-dir"), int(cmd.Int("proof-limit"))
		c.tree, c.treeDepth = cmd.Bool("tree"), int(cmd.Int("tree-depth"))
		if c.tree {
			c.opt.AllKeys = true // the tree shows every key
		}
		if c.treeDepth < 0 {
			return c, usagef("--tree-depth %d: want 1 or more moves", c.treeDepth)
		}
	} else {
		c.beyond = int(cmd.Int("beyond"))
	}
	if cmd.Bool("json") {
		c.format = puzzles.FormatJSONL
	}
	if c.opt.MaxMate < 1 || c.opt.MaxMate > solver.MaxPly/2-2 {
		return c, usagef("--mate %d is out of range 1-%d", c.opt.MaxMate, solver.MaxPly/2-2)
	}
	if c.hashMiB < 1 || c.hashMiB > 1<<20 {
		return c, usagef("--hash %d MiB is out of range", c.hashMiB)
	}
	cores := runtime.NumCPU()
	if !cmd.IsSet("jobs") {
		c.jobs = cores
		if len(c.fens) == 1 && len(c.files) == 0 {
			c.jobs = 1 // one position: its threads get the cores
		}
	}
	if c.jobs < 1 || c.jobs > 4*cores {
		return c, usagef("--jobs %d is out of range 1-%d (4 per core)", c.jobs, 4*cores)
	}
	if !cmd.IsSet("threads") {
		c.threads = max(cores/c.jobs, 1)
	}
	if c.threads < 1 || c.threads > solver.MaxThreads {
		return c, usagef("--threads %d is out of range 1-%d", c.threads, solver.MaxThreads)
	}
	c.opt.Threads = c.threads
	switch c.format {
	case puzzles.FormatText, puzzles.FormatEPDs, puzzles.FormatJSONL, puzzles.FormatCSV, puzzles.FormatHTML:
	default:
		return c, usagef("--format %q: want text, epd, jsonl, csv or html", c.format)
	}
	if c.resume {
		if c.output == "" {
			return c, usagef("--resume needs --output FILE (the file to continue)")
		}
		if c.format == puzzles.FormatText || c.format == puzzles.FormatHTML {
			return c, usagef("--resume needs --format jsonl, csv or epd (a %s file does not record ids)", c.format)
		}
	}
	for _, path := range c.files {
		if path == "-" {
			continue
		}
		if _, err := os.Stat(path); err != nil {
			return c, err
		}
	}
	if err := c.checkProofFlags(); err != nil {
		return c, err
	}
	shard, err := parseShard(cmd.String("shard"), cmd.IsSet("shard"))
	if err != nil {
		return c, err
	}
	c.shard = shard
	if len(c.fens) == 0 && len(c.files) == 0 {
		return c, usagef("nothing to do: give a FILE ('-' for standard input)%s; see --help",
			map[bool]string{false: " or --fen FEN", true: ""}[validate])
	}
	return c, nil
}

// checkProofFlags checks --proof, --proof-dir and --proof-limit.
func (c *runConfig) checkProofFlags() error {
	switch {
	case c.proofFile != "" && c.proofDir != "":
		return usagef("give --proof FILE (one position) or --proof-dir DIR, not both")
	case c.proofFile != "" && (len(c.fens) != 1 || len(c.files) != 0):
		return usagef("--proof FILE writes the certificate of one --fen position; for files use --proof-dir DIR")
	case (c.proofFile != "" || c.proofDir != "") && c.opt.Rule50:
		return usagef("proof certificates follow the problem convention: not with --rule50")
	case c.proofLimit < 0:
		return usagef("--proof-limit %d: want 0 or more nodes", c.proofLimit)
	}
	if c.proofDir != "" {
		if st, err := os.Stat(c.proofDir); err != nil || !st.IsDir() {
			return usagef("--proof-dir %s: not a folder", c.proofDir)
		}
	}
	return nil
}

// proofPath returns where the certificate of rec goes, or "" for none.
func (c *runConfig) proofPath(rec *puzzles.Record, used *sync.Map) string {
	switch {
	case c.proofFile != "":
		return c.proofFile
	case c.proofDir == "":
		return ""
	}
	name := puzzles.ProofFileName(rec.ID)
	if _, taken := used.LoadOrStore(name, true); taken {
		name = puzzles.ProofFileName(fmt.Sprintf("%s-line%d", rec.ID, rec.Line))
	}
	return filepath.Join(c.proofDir, name)
}

// parseShard reads --shard, falling back to the schedulers' variables.
func parseShard(flag string, set bool) (puzzles.Shard, error) {
	envIndex := func() (int, bool) {
		for _, v := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
			if s := os.Getenv(v); s != "" {
				if n, err := strconv.Atoi(s); err == nil {
					return n, true
				}
			}
		}
		return 0, false
	}
	if !set {
		if i, ok := envIndex(); ok {
			if n, err := strconv.Atoi(os.Getenv("SLURM_ARRAY_TASK_COUNT")); err == nil && n > 0 {
				if i >= n {
					return puzzles.Shard{}, usagef("shard index %d from the environment is not below SLURM_ARRAY_TASK_COUNT %d", i, n)
				}
				return puzzles.Shard{Index: i, Count: n}, nil
			}
		}
		return puzzles.Shard{}, nil
	}
	iText, nText, found := strings.Cut(flag, "/")
	if !found {
		iText, nText = "", flag
	}
	n, err := strconv.Atoi(nText)
	if err != nil || n < 1 {
		return puzzles.Shard{}, usagef("--shard %q: want i/n, such as 0/4", flag)
	}
	var i int
	if iText == "" {
		var ok bool
		if i, ok = envIndex(); !ok {
			return puzzles.Shard{}, usagef("--shard %q gives no index and neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID is set", flag)
		}
	} else if i, err = strconv.Atoi(iText); err != nil {
		return puzzles.Shard{}, usagef("--shard %q: want i/n, such as 0/4", flag)
	}
	if i < 0 || i >= n {
		return puzzles.Shard{}, usagef("--shard %d/%d: the index must be 0 to %d", i, n, n-1)
	}
	return puzzles.Shard{Index: i, Count: n}, nil
}

// optionsFor adapts the options to a record's claim: look as far as the
// claim says unless --mate was given.
func (c *runConfig) optionsFor(rec *puzzles.Record) solver.Options {
	opt := c.opt
	if claim := rec.Claim.Mate; claim != 0 && !c.mateFlagSet {
		opt.MaxMate, opt.Want = claim, solver.WantMate
		if claim < 0 {
			opt.MaxMate, opt.Want = -claim, solver.WantMated
		}
	}
	return opt
}

// inputs returns a function that yields every record of the --fen flags
// and the files in turn. With several inputs, ids made from line numbers
// are prefixed with the file name so they stay unique.
func (c *runConfig) inputs() (next func() (puzzles.Raw, error), closeAll func()) {
	multi := len(c.files) > 1 || len(c.files) == 1 && len(c.fens) > 0
	fenIdx, fileIdx := 0, 0
	var cur puzzles.Reader
	var closer io.Closer
	var curName string
	closeAll = func() {
		if closer != nil {
			closer.Close()
			closer = nil
		}
	}
	next = func() (puzzles.Raw, error) {
		if fenIdx < len(c.fens) {
			fenIdx++
			return puzzles.RawRecord(puzzles.FromFEN("--fen", fenIdx, c.fens[fenIdx-1])), nil
		}
		for {
			if cur == nil {
				if fileIdx >= len(c.files) {
					return puzzles.Raw{}, io.EOF
				}
				path := c.files[fileIdx]
				fileIdx++
				r, cl, err := puzzles.Open(path)
				if err != nil {
					return puzzles.Raw{}, err
				}
				cur, closer, curName = r, cl, filepath.Base(path)
			}
			raw, err := cur.NextRaw()
			if errors.Is(err, io.EOF) {
				closeAll()
				cur = nil
				continue
			}
			if err != nil {
				return raw, err
			}
			if multi {
				name := curName
				raw = raw.Then(func(rec *puzzles.Record) {
					if strings.HasPrefix(rec.ID, "line:") {
						rec.ID = name + ":" + rec.ID
					}
				})
			}
			return raw, nil
		}
	}
	return next, closeAll
}

// countRecords estimates the number of records by counting lines, for the
// progress bar; it returns -1 when that cannot be known (standard input).
func (c *runConfig) countRecords() int64 {
	total := int64(len(c.fens))
	for _, path := range c.files {
		if path == "-" {
			return -1
		}
		f, err := os.Open(path)
		if err != nil {
			return -1
		}
		n, err := countLines(f)
		f.Close()
		if err != nil {
			return -1
		}
		if strings.EqualFold(filepath.Ext(path), ".csv") && n > 0 {
			n-- // the header
		}
		total += n
	}
	return total
}

func countLines(r io.Reader) (int64, error) {
	buf := make([]byte, 256<<10)
	var n int64
	for {
		k, err := r.Read(buf)
		for _, b := range buf[:k] {
			if b == '\n' {
				n++
			}
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

func stderrIsTerminal() bool {
	st, err := os.Stderr.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// runBatch runs solve or validate over the inputs.
func runBatch(ctx context.Context, cmd *cli.Command, cfg runConfig) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	var done *puzzles.DoneSet
	if cfg.resume {
		var err error
		if done, err = puzzles.PrepareResume(cfg.output, cfg.format); err != nil {
			return err
		}
	}
	out := cmd.Root().Writer
	appending := false
	if cfg.output != "" {
		flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if cfg.resume {
			flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
			if st, err := os.Stat(cfg.output); err == nil && st.Size() > 0 {
				appending = true
			}
		}
		f, err := os.OpenFile(cfg.output, flags, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	writer, err := puzzles.NewWriter(cfg.format, bw, appending)
	if err != nil {
		return usagef("%v", err)
	}

	bk, err := openBook(cmd)
	if err != nil {
		return err
	}
	defer bk.Close()
	cfg.opt.Book = bk
	tables, err := openTables(cmd)
	if err != nil {
		return err
	}
	if tables != nil {
		cfg.opt.Prober = endgame.Prober{TB: tables}
	}

	workers := cfg.jobs
	perWorker := max(cfg.hashMiB/workers, 1)
	solvers := make([]*solver.Solver, workers)
	for i := range solvers {
		solvers[i] = solver.New(perWorker)
	}

	var bar *progressbar.ProgressBar
	if cfg.progress && stderrIsTerminal() {
		bar = progressbar.NewOptions64(-1,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription(map[bool]string{true: "validating", false: "solving"}[cfg.validate]),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("pos"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		go func() {
			if n := cfg.countRecords(); n > 0 {
				bar.ChangeMax64(n)
			}
		}()
	}

	summary := puzzles.NewSummary(cfg.validate)
	var proofNames sync.Map                        // certificate file names used
	var skippedDone, outside, noClaim atomic.Int64 // counted by the workers
	next, closeInputs := cfg.inputs()
	defer closeInputs()
	batch := puzzles.Batch{
		Workers: workers,
		Skip: func(rec *puzzles.Record) bool {
			var counter *atomic.Int64
			switch {
			case !cfg.shard.Contains(rec.ID):
				counter = &outside
			case done != nil && done.Has(rec.ID):
				counter = &skippedDone
			case cfg.validate && rec.Err == nil && rec.Claim.Mate == 0:
				counter = &noClaim // not a mate puzzle: nothing to validate
			default:
				return false
			}
			counter.Add(1)
			if bar != nil {
				bar.Add(1)
			}
			return true
		},
		Work: func(w int, rec *puzzles.Record) puzzles.Outcome {
			var o puzzles.Outcome
			if cfg.validate {
				o = puzzles.Validate(ctx, solvers[w], rec, cfg.optionsFor(rec), cfg.beyond)
			} else {
				opt := cfg.optionsFor(rec)
				o = puzzles.Solve(ctx, solvers[w], rec, opt)
				if cfg.tree && !o.Interrupted {
					if err := puzzles.AddTree(ctx, solvers[w], rec, &o, opt, cfg.treeDepth); err != nil {
						o.Warnings = append(o.Warnings, fmt.Sprintf("no solution tree: %v", err))
					}
				}
				if path := cfg.proofPath(rec, &proofNames); path != "" && !o.Interrupted {
					if err := puzzles.Certify(ctx, solvers[w], rec, &o, opt, path, cfg.proofLimit); err != nil {
						o.Warnings = append(o.Warnings, fmt.Sprintf("no proof certificate: %v", err))
					}
				}
			}
			if !o.Interrupted {
				o.Rendered = writer.Render(&o)
			}
			return o
		},
		Emit: func(o *puzzles.Outcome) error {
			summary.Add(o)
			if bar != nil {
				bar.Add(1)
			}
			if err := writer.Write(o); err != nil {
				return err
			}
			if cfg.format == puzzles.FormatText {
				return bw.Flush() // text is for people watching
			}
			return nil
		},
	}
	start := time.Now()
	emitted, runErr := batch.Run(ctx, next)
	summary.Elapsed = time.Since(start)
	if bar != nil {
		bar.Finish()
	}
	if err := writer.Close(summary); err != nil && runErr == nil {
		runErr = err
	}
	if err := bw.Flush(); err != nil && runErr == nil {
		runErr = err
	}

	summaryTo := io.Writer(os.Stderr)
	if cfg.format == puzzles.FormatText && cfg.output == "" {
		summaryTo = cmd.Root().Writer
	}
	if errors.Is(runErr, puzzles.ErrInterrupted) {
		summary.Write(os.Stderr)
		if cfg.output != "" {
			return cli.Exit(fmt.Sprintf("interrupted: %d result(s) written to %s; run the same command with --resume to continue",
				emitted, cfg.output), exitRuntime)
		}
		return cli.Exit(fmt.Sprintf("interrupted after %d result(s); with --output FILE a run can be continued by --resume", emitted), exitRuntime)
	}
	if runErr != nil {
		return runErr
	}
	if n := skippedDone.Load(); n > 0 {
		fmt.Fprintf(os.Stderr, "resume: %d record(s) already in %s were skipped\n", n, cfg.output)
	}
	if n := noClaim.Load(); n > 0 {
		fmt.Fprintf(os.Stderr, "validate: %d record(s) without a mate claim were skipped\n", n)
	}
	if cfg.shard.Count > 1 {
		fmt.Fprintf(os.Stderr, "shard %d/%d: %d record(s) belong to other shards\n", cfg.shard.Index, cfg.shard.Count, outside.Load())
	}
	summary.Write(summaryTo)
	if summary.Failed() {
		what := "some lines could not be read or are not legal"
		if cfg.validate {
			what = "some puzzles are not ok"
		}
		return cli.Exit(what, exitFailures)
	}
	return nil
}
