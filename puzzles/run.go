package puzzles

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"mateline.dev/mateline/solver"
)

// Job is one run of solve or validate over puzzle inputs: what the command
// line asked for, and where results and messages go.
type Job struct {
	Validate    bool
	Options     solver.Options // the base options of every search
	MateFlagSet bool           // --mate was given: it overrides the claims
	Beyond      int            // validate: moves past the claim for "longer"
	HashMiB     int            // shared out among the workers
	Workers     int
	Inputs      *Inputs
	Format      string
	Output      string // results file; "" for Stdout
	Resume      bool
	Shard       Shard
	ProofFile   string // --proof: the one certificate
	ProofDir    string // --proof-dir: one per record
	ProofLimit  int
	Tree        bool
	TreeDepth   int
	Report      ReportInfo
	// Started is when the program started: the summary's time and rate
	// count from it.
	Started time.Time
	Stdout  io.Writer
	Stderr  io.Writer
	// Progress, when not nil, shows the records done.
	Progress Progress
}

// Progress is a progress display (a bar on a terminal).
type Progress interface {
	Add(n int) error
	ChangeMax64(max int64)
	Finish() error
}

// ErrFailures ends a run that finished with puzzles that failed validation
// or lines that could not be read (exit code 3).
var ErrFailures = errors.New("some puzzles failed")

// UsageError is a mistake in how the job was asked for (exit code 2).
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Check refuses, before anything is opened, a job that would lose data:
// an output that is also an input, a proof file that is an input.
func (j *Job) Check() error {
	inputs := j.Inputs.Files
	for _, out := range []string{j.Output, j.ProofFile} {
		if err := CheckNotInput(out, inputs); err != nil {
			return UsageError{err.Error() + ": it would be overwritten; write the results elsewhere"}
		}
	}
	return nil
}

// optionsFor adapts the options to a record's claim: look as far as the
// claim says unless --mate was given.
func (j *Job) optionsFor(rec *Record) solver.Options {
	if j.MateFlagSet {
		return j.Options
	}
	return j.Options.ForClaim(rec.Claim.Mate)
}

// Run runs the job. Results come out in input order; the summary follows
// them (on standard error unless the output is text on standard output).
// An interrupted run writes every finished result, keeps the output, and
// returns ErrInterrupted; a finished run with failures returns ErrFailures.
func (j *Job) Run(ctx context.Context) (*Summary, error) {
	if err := j.Check(); err != nil {
		return nil, err
	}
	summary := NewSummary(j.Validate)
	var out io.Writer = j.Stdout
	var output *Output
	var done *DoneSet
	appending := false
	if j.Output != "" {
		var err error
		if output, err = CreateOutput(j.Output, j.Resume); err != nil {
			return nil, err
		}
		if j.Resume {
			if done, err = PrepareResume(output.File(), j.Format, j.Validate); err != nil {
				output.Abort()
				return nil, err
			}
			if done.Shard.Count > 0 && done.Shard != j.Shard || done.Shard.Count == 0 && j.Shard.Count > 1 && done.Len() > 0 {
				output.Abort()
				return nil, UsageError{fmt.Sprintf("--resume: %s holds shard %q, this run is shard %q", j.Output, done.Shard, j.Shard)}
			}
			summary.AddAll(done.Summary)
			appending = output.Appending
		}
		out = output
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	writer, err := NewWriter(j.Format, bw, WriterOptions{Appending: appending, Shard: j.Shard, Report: j.Report})
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
			if n := CountRecords(j.Inputs); n > 0 {
				j.Progress.ChangeMax64(n)
			}
		}()
	}
	var skippedDone, outside atomic.Int64
	var proofNames sync.Map
	defer j.Inputs.Close()
	batch := Batch{
		Workers: workers,
		Skip: func(rec *Record) bool {
			var counter *atomic.Int64
			switch {
			case !j.Shard.Contains(rec.ID):
				counter = &outside
			case done != nil && done.Has(rec.ID):
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
		Work: func(w int, rec *Record) Outcome {
			o := j.work(ctx, solvers[w], rec, &proofNames)
			if o.Interrupted {
				j.reportInterrupted(&o)
			} else {
				o.Rendered = writer.Render(&o)
			}
			return o
		},
		Emit: func(o *Outcome) error {
			summary.Add(o)
			if j.Progress != nil {
				j.Progress.Add(1)
			}
			if err := writer.Write(o); err != nil {
				return err
			}
			if j.Format == FormatText {
				return bw.Flush() // text is for people watching
			}
			return nil
		},
	}
	emitted, runErr := batch.Run(ctx, j.Inputs.NextRaw)
	summary.Elapsed = time.Since(j.Started)
	if j.Progress != nil {
		j.Progress.Finish()
	}
	if err := writer.Close(summary); err != nil && runErr == nil {
		runErr = err
	}
	if err := bw.Flush(); err != nil && runErr == nil {
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
	if j.Format == FormatText && j.Output == "" {
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
	if summary.Failed() {
		if j.Validate {
			return summary, fmt.Errorf("%w: some puzzles are not ok", ErrFailures)
		}
		return summary, fmt.Errorf("%w: some lines could not be read", ErrFailures)
	}
	return summary, nil
}

// work solves or validates one record, with its tree and certificate.
func (j *Job) work(ctx context.Context, sv *solver.Solver, rec *Record, proofNames *sync.Map) Outcome {
	opt := j.optionsFor(rec)
	if j.Validate {
		return Validate(ctx, sv, rec, opt, j.Beyond)
	}
	o := Solve(ctx, sv, rec, opt)
	if o.Interrupted {
		return o
	}
	if j.Tree {
		if err := AddTree(ctx, sv, rec, &o, opt, j.TreeDepth); err != nil {
			o.Warnings = append(o.Warnings, fmt.Sprintf("no solution tree: %v", err))
		}
	}
	if path := j.proofPath(rec, proofNames); path != "" {
		if err := Certify(ctx, sv, rec, &o, opt, path, j.ProofLimit); err != nil {
			o.Warnings = append(o.Warnings, fmt.Sprintf("no proof certificate: %v", err))
		}
	}
	return o
}

// reportInterrupted says on standard error what an interrupted search had
// proved: its record is not written (--resume does it again), but what
// was proved is not thrown away in silence.
func (j *Job) reportInterrupted(o *Outcome) {
	var b []byte
	buf := &byteWriter{b: &b}
	fmt.Fprintf(buf, "interrupted: %s:%d %s\n", o.Source, o.Line, o.ID)
	o.Status = "limit"
	o.writeFinding(buf)
	fmt.Fprintf(buf, "  %s\n", o.statsLine())
	j.Stderr.Write(b)
}

type byteWriter struct{ b *[]byte }

func (w *byteWriter) Write(p []byte) (int, error) { *w.b = append(*w.b, p...); return len(p), nil }

// proofPath returns where the certificate of rec goes, or "" for none.
func (j *Job) proofPath(rec *Record, used *sync.Map) string {
	switch {
	case j.ProofFile != "":
		return j.ProofFile
	case j.ProofDir == "":
		return ""
	}
	name := ProofFileName(rec.ID)
	if _, taken := used.LoadOrStore(name, true); taken {
		name = ProofFileName(fmt.Sprintf("%s-line%d", rec.ID, rec.Line))
	}
	return filepath.Join(j.ProofDir, name)
}

// CountRecords estimates the number of records of the inputs by counting
// lines, for the progress bar; it returns -1 when that cannot be known
// (standard input).
func CountRecords(in *Inputs) int64 {
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
		csvHeader := Sniff(br) == FormatLichessCSV
		n, err := countLines(br)
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
