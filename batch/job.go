package batch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/report"
	"mateline.dev/mateline/solver"
)

// Command is what a job does with each record.
type Command int

// The commands.
const (
	CommandSolve    Command = iota // prove the shortest mate
	CommandValidate                // check the record's claim
)

// Job is one run of solve or validate over puzzle inputs: what the command
// line asked for, and where results and messages go. The command line only
// fills it; Validate applies the defaults and refuses what cannot run.
type Job struct {
	Command Command
	// Options are the base options of every search. Options.Threads 0:
	// the cores shared out among the workers.
	Options     solver.Options
	MateFlagSet bool // --mate was given: it overrides the claims (solve)
	Beyond      int  // validate: moves past the claim for "longer"
	HashMiB     int  // shared out among the workers
	// Workers is the number of records solved at once; 0: every core, or
	// one for a single --fen position (its threads get the cores).
	Workers int
	Inputs  *inputs.List
	Format  report.Format
	Output  string // results file; "" for Stdout
	Resume  bool
	Shard   Shard
	// ProofFile (--proof, one position) or ProofDir (--proof-dir, one
	// file per record) receive proof certificates; ProofLimit bounds the
	// refutation tree written for the lower bound.
	ProofFile  string
	ProofDir   string
	ProofLimit int
	// Tree adds the solution tree (every key then); TreeDepth bounds the
	// attacker moves shown with every defence (0: solver's default).
	Tree      bool
	TreeDepth int
	// Stip (--stip) is the stipulation of records that state none; SAN
	// writes helpmate and selfmate moves in SAN instead of Popeye's long
	// notation.
	Stip problem.Stipulation
	SAN  bool
	// Report describes the run for the HTML report's header; Validate
	// fills its settings.
	Report report.RunInfo
	// TablesPath names the Syzygy folders, for the report's settings.
	TablesPath string
	// Started is when the program started: the summary's time and rate
	// count from it.
	Started time.Time
	Stdout  io.Writer
	Stderr  io.Writer
	// Progress, when not nil, shows the records done.
	Progress Progress
	// LimitHint, when not nil, is told the position of each record whose
	// search a limit stopped (the distance-to-mate cache says then which
	// table would have answered it).
	LimitHint func(pos *board.Position)
	// Bounds, when not nil, hears a line each time a search proves a new
	// bound (a forced mate, a shorter one, a longer lower bound), as it is
	// proved: the "progress line" of long searches.
	Bounds io.Writer
}

// Progress is a progress display (a bar on a terminal).
type Progress interface {
	Add(n int) error
	ChangeMax64(max int64)
	Finish() error
}

// UsageError is a mistake in how mateline was called (exit code 2): an
// unknown command or flag, a bad value, an output that is also an input.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Usagef returns a UsageError.
func Usagef(format string, args ...any) error { return UsageError{fmt.Sprintf(format, args...)} }

// ErrFailures ends a run that finished with puzzles that failed validation
// or lines that could not be read (exit code 3).
var ErrFailures = errors.New("some puzzles failed")

// Validate fills the defaults of the fields left zero, then checks the
// job before anything is opened or written: the values in range, the
// inputs there, an output that is not an input, flags that go together.
// Every error is a UsageError but for an input file that cannot be read.
func (j *Job) Validate() error {
	j.defaults()
	opt := &j.Options
	cores := runtime.NumCPU()
	switch {
	case opt.MaxMate < 1 || opt.MaxMate > solver.MaxMateMoves:
		return Usagef("--mate %d is out of range 1-%d", opt.MaxMate, solver.MaxMateMoves)
	case opt.Timeout < 0:
		return Usagef("--timeout %v: a time limit cannot be negative (0 means none)", opt.Timeout)
	case j.HashMiB < 1:
		return Usagef("--hash %d MiB: want at least 1", j.HashMiB)
	case j.HashMiB > solver.MaxHashMiB():
		return Usagef("--hash %d MiB is more than this machine can give (at most %d MiB, three quarters of its memory)", j.HashMiB, solver.MaxHashMiB())
	case j.Beyond < 0:
		return Usagef("--beyond %d: want 0 or more moves", j.Beyond)
	case j.TreeDepth < 0:
		return Usagef("--tree-depth %d: want 1 or more moves", j.TreeDepth)
	case j.Workers < 1 || j.Workers > 4*cores:
		return Usagef("--jobs %d is out of range 1-%d (4 per core)", j.Workers, 4*cores)
	case opt.Threads < 1 || opt.Threads > solver.MaxThreads:
		return Usagef("--threads %d is out of range 1-%d", opt.Threads, solver.MaxThreads)
	}
	if _, err := report.ParseFormat(string(j.Format)); err != nil {
		return UsageError{err.Error()}
	}
	switch {
	case j.Resume && j.Output == "":
		return Usagef("--resume needs --output FILE (the file to continue)")
	case j.Resume && !j.Format.Resumable():
		return Usagef("--resume needs --format text, jsonl, csv or epd (an %s page is written at the end of a run, not as it goes)", j.Format)
	}
	for _, path := range j.Inputs.Files {
		if path == "-" {
			continue
		}
		st, err := os.Stat(path)
		if err != nil {
			// a runtime error: the file is missing or unreadable
			var pe *os.PathError
			if errors.As(err, &pe) {
				return fmt.Errorf("%s: %v", path, pe.Err)
			}
			return err
		}
		if st.IsDir() {
			return Usagef("%s is a folder, not a puzzle file", path)
		}
	}
	if err := j.checkProofs(); err != nil {
		return err
	}
	if len(j.Inputs.FENs) == 0 && len(j.Inputs.Files) == 0 {
		hint := " or --fen FEN"
		if j.Command == CommandValidate {
			hint = ""
		}
		return Usagef("nothing to do: give a FILE ('-' for standard input)%s; see --help", hint)
	}
	for _, out := range []string{j.Output, j.ProofFile} {
		if err := checkNotInput(out, j.Inputs.Files); err != nil {
			return Usagef("%v: it would be overwritten; write the results elsewhere", err)
		}
		if err := checkOutputPath(out); err != nil {
			return err
		}
	}
	j.Report.Settings = j.settings()
	return nil
}

// defaults fills the fields left zero.
func (j *Job) defaults() {
	cores := runtime.NumCPU()
	if j.Workers == 0 {
		j.Workers = cores
		if len(j.Inputs.FENs) == 1 && len(j.Inputs.Files) == 0 {
			j.Workers = 1 // one position: its threads get the cores
		}
	}
	if j.Options.Threads == 0 {
		j.Options.Threads = max(cores/max(j.Workers, 1), 1)
		if j.Options.Nodes > 0 {
			// A node limit stops one thread at the same node on every
			// run; several threads share the nodes differently each time.
			j.Options.Threads = 1
		}
	}
	if j.Options.ExtractReserve == 0 {
		// A mate proved just before the time limit still gets its keys
		// and line, within the limit; with certificates, its certificate
		// too.
		j.Options.ExtractReserve = solver.ReserveFor(j.Options.Timeout)
		if j.ProofFile != "" || j.ProofDir != "" {
			j.Options.ExtractReserve = min(j.Options.Timeout/4, 10*time.Second)
		}
	}
	if j.Tree {
		j.Options.AllKeys = true // the tree shows every key
	}
	// Each record is solved as if the tables were empty: its result does
	// not depend on which worker solved it or on what came before, so a
	// resumed run writes what an uninterrupted one would.
	j.Options.Fresh = true
	if j.Started.IsZero() {
		j.Started = time.Now()
	}
	if j.Stdout == nil {
		j.Stdout = io.Discard
	}
	if j.Stderr == nil {
		j.Stderr = io.Discard
	}
}

// checkOutputPath refuses an output that names a folder (the results are
// written to FILE.partial and renamed over FILE at the end), before any
// search: "" (standard output) is fine.
func checkOutputPath(path string) error {
	if path == "" {
		return nil
	}
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(os.PathSeparator)) {
		return Usagef("%s ends with a slash: give the name of a file to write, not of a folder", path)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return Usagef("%s is a folder: give the name of a file to write in it", path)
	}
	if dir := filepath.Dir(path); dir != "." {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return Usagef("%s: the folder %s does not exist", path, dir)
		}
	}
	return nil
}

// checkProofs checks --proof, --proof-dir and --proof-limit.
func (j *Job) checkProofs() error {
	switch {
	case j.ProofFile != "" && j.ProofDir != "":
		return Usagef("give --proof FILE (one position) or --proof-dir DIR, not both")
	case j.ProofFile != "" && (len(j.Inputs.FENs) != 1 || len(j.Inputs.Files) != 0):
		return Usagef("--proof FILE writes the certificate of one --fen position; for files use --proof-dir DIR")
	case (j.ProofFile != "" || j.ProofDir != "") && j.Options.Rule50:
		return Usagef("proof certificates follow the problem convention: not with --rule50")
	case j.ProofLimit < 0:
		return Usagef("--proof-limit %d: want 0 or more nodes", j.ProofLimit)
	}
	if j.ProofDir != "" {
		if st, err := os.Stat(j.ProofDir); err != nil || !st.IsDir() {
			return Usagef("--proof-dir %s: not a folder", j.ProofDir)
		}
	}
	return nil
}

// settings describes the search settings, for the HTML report's header.
func (j *Job) settings() string {
	opt := j.Options
	var parts []string
	if j.MateFlagSet {
		parts = append(parts, fmt.Sprintf("--mate %d", opt.MaxMate))
	} else {
		parts = append(parts, "mate: the claim, else no cap")
	}
	if opt.Timeout > 0 {
		parts = append(parts, "--timeout "+opt.Timeout.String())
	}
	if opt.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("--nodes %d", opt.Nodes))
	}
	parts = append(parts, fmt.Sprintf("--hash %d", j.HashMiB), fmt.Sprintf("-j %d", j.Workers), fmt.Sprintf("--threads %d", opt.Threads))
	if j.Command == CommandValidate {
		parts = append(parts, fmt.Sprintf("--beyond %d", j.Beyond))
	}
	if opt.Rule50 {
		parts = append(parts, "--rule50")
	}
	if j.TablesPath != "" {
		parts = append(parts, "--syzygy "+j.TablesPath)
	}
	return strings.Join(parts, " ")
}
