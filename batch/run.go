package batch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/report"
	"mateline.dev/mateline/solver"
)

// Run runs the job. Results come out in input order; the summary follows
// them (on standard error unless the output is text on standard output).
// An interrupted run writes every finished result, keeps the output, and
// returns ErrInterrupted; a finished run with failures returns ErrFailures.
func (j *Job) Run(ctx context.Context) (*report.Summary, error) {
	if err := j.Validate(); err != nil {
		return nil, err
	}
	validate := j.Command == CommandValidate
	summary := report.NewSummary(validate)
	var out io.Writer = j.Stdout
	var output *outputFile
	var done *doneSet
	appending := false
	if j.Output != "" {
		var err error
		if output, err = createOutput(j.Output, j.Resume); err != nil {
			return nil, err
		}
		if j.Resume {
			if done, err = prepareResume(output.File(), j.Format, validate, j.Inputs.Sources()); err != nil {
				output.Abort()
				return nil, err
			}
			if done.shard.Count > 0 && done.shard != j.Shard || done.shard.Count == 0 && j.Shard.Count > 1 && done.len() > 0 {
				output.Abort()
				return nil, Usagef("--resume: %s holds shard %q, this run is shard %q", j.Output, done.shard, j.Shard)
			}
			summary.AddAll(done.summary)
			if st, err := output.File().Stat(); err == nil && st.Size() > 0 {
				appending = true // no CSV header or shard marker again
			}
		}
		out = output
	}
	// Every record is written on its own as soon as it may be (in input
	// order), with no buffer between it and the file or pipe.
	st := &stream{w: out}
	writer, err := report.New(j.Format, st, report.Options{Appending: appending, Shard: j.Shard.label(), Run: j.Report})
	if err != nil {
		if output != nil {
			output.Abort()
		}
		return nil, UsageError{err.Error()}
	}

	workers := max(j.Workers, 1)
	solvers := make([]*solver.Solver, workers)
	for i := range solvers {
		solvers[i] = solver.New(max(j.HashMiB/workers, 1))
	}
	if j.Progress != nil {
		go func() {
			if n := countRecords(j.Inputs); n > 0 {
				j.Progress.ChangeMax64(n)
			}
		}()
	}
	var skippedDone, outside atomic.Int64
	var proofNames sync.Map
	defer j.Inputs.Close()
	batch := runner{
		workers: workers,
		skip: func(rec *record.Record) bool {
			var counter *atomic.Int64
			switch {
			case !j.Shard.Contains(rec.ID):
				counter = &outside
			case done != nil && done.has(rec):
				counter = &skippedDone
			default:
				return false
			}
			counter.Add(1)
			if j.Progress != nil {
				j.Progress.Add(1)
			}
			return true
		},
		work: func(w int, rec *record.Record) item {
			it := item{out: j.work(ctx, solvers[w], rec, &proofNames)}
			if it.out.Status == puzzles.StatusLimit && j.LimitHint != nil && rec.Err == nil {
				j.LimitHint(&rec.Pos)
			}
			if it.out.Interrupted {
				report.Interrupted(j.Stderr, &it.out)
			} else {
				it.rendered = writer.Render(&it.out)
			}
			return it
		},
		emit: func(it *item) error {
			summary.Add(&it.out.Outcome)
			if j.Progress != nil {
				j.Progress.Add(1)
			}
			if err := writer.Write(&it.out, it.rendered); err != nil {
				return err
			}
			return st.syncNow(false)
		},
	}
	emitted, runErr := batch.run(ctx, j.Inputs.NextRaw)
	summary.Elapsed = time.Since(j.Started)
	if j.Progress != nil {
		j.Progress.Finish()
	}
	if err := writer.Close(summary); err != nil && runErr == nil {
		runErr = err
	}
	interrupted := errors.Is(runErr, ErrInterrupted)
	if output != nil {
		switch {
		case runErr == nil, interrupted, j.Resume:
			// Finished, interrupted (what is done is kept for --resume),
			// or resumed (the partial file holds everything before too).
			if err := output.Commit(); err != nil && runErr == nil {
				runErr = err
			}
		default:
			// An error: the old output stays; what this run did is kept
			// in the partial file, and said.
			output.f.Close()
			runErr = fmt.Errorf("%w (the %d result(s) of this run are in %s; %s is unchanged)", runErr, emitted, output.partial, j.Output)
		}
	}

	summaryTo := j.Stderr
	if j.Format == report.FormatText && j.Output == "" {
		summaryTo = j.Stdout
	}
	if interrupted {
		summary.Write(j.Stderr)
		if j.Output != "" {
			return summary, fmt.Errorf("%w: %d result(s) written to %s; run the same command with --resume to continue", ErrInterrupted, emitted, j.Output)
		}
		return summary, fmt.Errorf("%w after %d result(s); with --output FILE a run can be continued by --resume", ErrInterrupted, emitted)
	}
	if runErr != nil {
		return summary, runErr
	}
	if n := skippedDone.Load(); n > 0 {
		fmt.Fprintf(j.Stderr, "resume: %d record(s) already in %s were kept\n", n, j.Output)
	}
	if j.Shard.Count > 1 {
		fmt.Fprintf(j.Stderr, "shard %s: %d record(s) belong to other shards\n", j.Shard, outside.Load())
	}
	summary.Write(summaryTo)
	for _, name := range j.Inputs.Empty {
		fmt.Fprintf(j.Stderr, "mateline: warning: %s holds no records\n", name)
	}
	if len(j.Inputs.Empty) > 0 {
		return summary, fmt.Errorf("%w: %s held no records (an empty file, or one of the wrong format: --input-format)", ErrFailures, strings.Join(j.Inputs.Empty, ", "))
	}
	if summary.Failed() {
		if validate {
			return summary, fmt.Errorf("%w: some puzzles are not ok", ErrFailures)
		}
		return summary, fmt.Errorf("%w: some lines could not be read", ErrFailures)
	}
	return summary, nil
}

// work solves or validates one record, with its tree and certificate.
func (j *Job) work(ctx context.Context, sv *solver.Solver, rec *record.Record, proofNames *sync.Map) puzzles.Answer {
	j.applyStip(rec)
	if rec.IsProblem() {
		popt := puzzles.ProblemOptions{Timeout: j.Options.Timeout, Nodes: j.Options.Nodes, Tree: j.Tree, TreeDepth: j.TreeDepth,
			SAN: j.SAN, Threads: j.Options.Threads}
		if j.Command == CommandValidate {
			return puzzles.ValidateProblem(ctx, rec, popt)
		}
		return puzzles.SolveProblem(ctx, rec, popt)
	}
	if j.Command == CommandValidate {
		// The claim decides the options: the length checked and the kind.
		return puzzles.Validate(ctx, sv, rec, j.Options, j.Beyond)
	}
	opt := j.Options
	if !j.MateFlagSet {
		opt = opt.ForClaim(rec.Claim.Mate) // look as far as the claim says
	}
	opt.Progress = j.boundsReporter(rec)
	pr := rec.Problem // a direct mate from a problem file: its options
	tree := j.Tree || pr != nil && pr.Variation
	if tree {
		opt.AllKeys = true // the tree shows every key
	}
	// The tree, the problem's options and the certificate come within the
	// record's limits too.
	lim := puzzles.NewLimits(opt)
	o := puzzles.Solve(ctx, sv, rec, opt, lim)
	if o.Interrupted {
		return o
	}
	if tree {
		if err := puzzles.AddTree(ctx, sv, rec, &o, opt, j.TreeDepth, lim); err != nil {
			o.Warnings = append(o.Warnings, fmt.Sprintf("no solution tree: %v", err))
		}
	}
	if pr != nil {
		puzzles.AddDirectOptions(ctx, sv, rec, &o, opt, j.SAN, lim)
	}
	if path := j.proofPath(rec, proofNames); path != "" {
		if err := certify(ctx, sv, rec, &o, opt, path, j.ProofLimit, lim); err != nil {
			o.Warnings = append(o.Warnings, fmt.Sprintf("no proof certificate: %v", err))
		}
	}
	return o
}

// applyStip gives --stip to a record that states no stipulation and no
// mate claim of its own.
func (j *Job) applyStip(rec *record.Record) {
	if j.Stip.Moves == 0 || rec.Err != nil || rec.IsProblem() || rec.Claim.Mate != 0 || rec.Problem != nil {
		return
	}
	if j.Stip.IsDirectMate() {
		rec.Claim.Mate = problem.Mate(j.Stip.Moves)
		return
	}
	rec.Stip = j.Stip
}

// proofPath returns where the certificate of rec goes, or "" for none.
func (j *Job) proofPath(rec *record.Record, used *sync.Map) string {
	switch {
	case j.ProofFile != "":
		return j.ProofFile
	case j.ProofDir == "":
		return ""
	}
	name := proofFileName(rec.ID)
	if _, taken := used.LoadOrStore(name, true); taken {
		name = proofFileName(fmt.Sprintf("%s-line%d", rec.ID, rec.Line))
	}
	return filepath.Join(j.ProofDir, name)
}

// countRecords estimates the number of records of the inputs by counting
// lines, for the progress bar; it returns -1 when that cannot be known
// (standard input).
func countRecords(in *inputs.List) int64 {
	total := int64(len(in.FENs))
	for _, path := range in.Files {
		if path == "-" {
			return -1
		}
		f, err := os.Open(path)
		if err != nil {
			return -1
		}
		br := bufio.NewReaderSize(f, 64<<10)
		format := in.Format
		if format == inputs.FormatAuto {
			format = inputs.Sniff(br)
		}
		csvHeader := format == inputs.FormatLichessCSV
		var n int64
		if format == inputs.FormatPopeye || format == inputs.FormatPGN {
			// a problem or a game is many lines (and twins make more
			// records)
			n, err = countProblems(br, path, format)
		} else {
			n, err = countLines(br)
		}
		f.Close()
		if err != nil {
			return -1
		}
		if csvHeader && n > 0 {
			n-- // the header
		}
		total += n
	}
	return total
}

// countProblems counts the records of a Popeye problem file or a PGN file.
func countProblems(r io.Reader, path string, format inputs.Format) (int64, error) {
	pr := inputs.NewReader(r, path, format)
	var n int64
	for {
		_, err := pr.NextRaw()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
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

// syncInterval is how often the output file is synced to disk while a run
// writes it: a machine that loses power loses at most this much.
const syncInterval = 2 * time.Second

// stream passes every write straight to the output, and syncs it to disk
// every syncInterval when it is a file.
type stream struct {
	w        io.Writer
	lastSync time.Time
}

func (s *stream) Write(p []byte) (int, error) { return s.w.Write(p) }

// syncNow syncs the output when syncInterval has passed since the last
// sync, or always with force. Outputs that cannot be synced (a pipe, a
// terminal) are left alone.
func (s *stream) syncNow(force bool) error {
	if !force && time.Since(s.lastSync) < syncInterval {
		return nil
	}
	s.lastSync = time.Now()
	f, ok := s.w.(interface{ Sync() error })
	if !ok {
		return nil
	}
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err
	}
	return nil
}
