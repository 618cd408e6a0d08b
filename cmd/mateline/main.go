// Command mateline proves chess mates and checks puzzle databases.
//
// See README.md for the commands; docs/formats.md describes the contracts
// (flags, JSON fields, exit codes).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/batch"
)

// Exit codes (docs/formats.md).
const (
	exitOK      = 0
	exitRuntime = 1
	exitUsage   = 2
	// exitFailures: the run finished, but some puzzles failed validation
	// or some lines could not be read.
	exitFailures = 3
)

// usagef marks a mistake in how the command was called (exit code 2).
func usagef(format string, args ...any) error { return batch.Usagef(format, args...) }

func newApp() *cli.Command {
	return &cli.Command{
		Name:    "mateline",
		Usage:   "prove chess mates and validate mate-puzzle databases",
		Version: version(),
		Description: "mateline proves the shortest forced mate (or mated-in-N) of chess positions given as\n" +
			"FEN, EPD, PGN, Lichess puzzle CSV or Popeye problem files, lists every key move, solves\n" +
			"every orthodox stipulation Popeye knows (helpmates, selfmates, series-movers...), checks\n" +
			"puzzle claims, and answers endgames of up to five men from tables it builds itself.\n\n" +
			"Start with: mateline solve examples/mates.epd (or mateline COMMAND --help).",
		Commands: []*cli.Command{
			solveCommand(),
			validateCommand(),
			mergeCommand(),
			bookCommand(),
			probeCommand(),
			serveCommand(),
			tablesCommand(),
			benchCommand(),
			perftCommand(),
			uciCommand(),
			checkCommand(),
			helpCommand(),
		},
		// mateline's own help command takes --help like every other.
		HideHelpCommand: true,
		// With no command: the help text. An unknown command is a usage
		// error.
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("unknown command %q; the commands are %s (see 'mateline --help')", cmd.Args().First(), commandNames(cmd))
			}
			return cli.ShowRootCommandHelp(cmd)
		},
		// run prints errors and picks the exit code; the library must not exit.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
	}
}

// helpCommand prints the help of mateline or of one command.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "show the commands, or the help of one command",
		ArgsUsage: "[COMMAND]",
		Action: func(ctx context.Context, cmd *cli.Command) error {
			root := cmd.Root()
			if cmd.Args().Len() == 0 {
				return cli.ShowRootCommandHelp(root)
			}
			name := cmd.Args().First()
			if root.Command(name) == nil {
				return usagef("help: unknown command %q; the commands are %s", name, commandNames(root))
			}
			return cli.ShowCommandHelp(ctx, root, name)
		},
	}
}

// commandNames lists the commands of the root command.
func commandNames(root *cli.Command) string {
	var names []string
	for _, c := range root.Commands {
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}

// markUsageErrors makes flag mistakes in every command usage errors (exit 2).
func markUsageErrors(c *cli.Command) {
	c.OnUsageError = func(_ context.Context, _ *cli.Command, err error, _ bool) error {
		return batch.UsageError{Msg: usageHint(err.Error())}
	}
	for _, sub := range c.Commands {
		markUsageErrors(sub)
	}
}

// missingUnit finds a duration flag given a bare number: "invalid value
// "5" for flag -timeout: time: missing unit in duration "5"".
var missingUnit = regexp.MustCompile(`invalid value "([0-9.]+)" for flag -(\S+): time: missing unit in duration`)

// usageHint adds to a flag's error what to write instead, where it can
// tell.
func usageHint(msg string) string {
	if m := missingUnit.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("--%s %s: a duration needs its unit: --%s %ss (or %sms, %sm); 0 means no limit", m[2], m[1], m[2], m[1], m[1], m[1])
	}
	return msg
}

// startTime is when the program started: run summaries count from it.
var startTime = time.Now()

func main() {
	// The live heap is small (the transposition table lives outside it),
	// so the default target collects very often; 400% keeps the heap to a
	// few MiB more and halves the collector's share of a batch run.
	debug.SetGCPercent(400)
	// MATELINE_CPUPROFILE=file writes a CPU profile of the run, for
	// performance reports (go tool pprof).
	if path := os.Getenv("MATELINE_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			pprof.StartCPUProfile(f)
			code := run(os.Args, os.Stdout)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	os.Exit(run(os.Args, os.Stdout))
}

// run runs the command line args, writing results to stdout, and returns
// the exit code.
func run(args []string, stdout io.Writer) int {
	if len(args) == 1 && !stdinIsTerminal() {
		// Started as a bare path, as GUIs and harnesses start engines.
		args = append(args, "uci")
	}
	app := newApp()
	app.Writer = stdout
	markUsageErrors(app)
	err := app.Run(context.Background(), args)
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(os.Stderr, "mateline:", err)
	var ue batch.UsageError
	var ec cli.ExitCoder
	switch {
	case errors.As(err, &ue):
		return exitUsage
	case errors.As(err, &ec):
		return ec.ExitCode()
	}
	return exitRuntime
}

func stdinIsTerminal() bool {
	st, err := os.Stdin.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
