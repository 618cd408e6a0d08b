package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm"
)

// dtmFlags are the flags that choose the distance-to-mate tables.
func dtmFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "dtm", Usage: "directory of the distance-to-mate tables, built there on first use (default MATELINE_DTM, else mateline/dtm in the user cache directory)"},
		&cli.BoolFlag{Name: "no-dtm", Usage: "do not use distance-to-mate tables"},
		&cli.IntFlag{Name: "dtm-build", Value: 4, Usage: "build missing tables of at most this many men on first use (4: seconds each; 5: up to minutes each; 0: never). 'mateline tables build' builds any ahead of time"},
	}
}

// openDTM opens the table cache named by --dtm, MATELINE_DTM or the
// default; nil with --no-dtm. Builds report on standard error.
func openDTM(cmd *cli.Command) (*dtm.Store, error) {
	if cmd.Bool("no-dtm") {
		return nil, nil
	}
	dir := cmd.String("dtm")
	if dir == "" {
		var err error
		if dir, err = dtm.DefaultDir(); err != nil {
			return nil, err
		}
	}
	build := dtm.MaxMen
	if cmd.IsSet("dtm-build") || cmd.Name != "build" {
		build = int(cmd.Int("dtm-build"))
		if build < 0 || build > dtm.MaxMen {
			return nil, usagef("--dtm-build %d: want 0 to %d", build, dtm.MaxMen)
		}
	}
	// 'tables build' on a terminal draws a bar per table; elsewhere (and
	// under solve's own bar) a line every 2 s says how a build goes.
	rep := &buildReporter{bar: cmd.Name == "build" && stderrIsTerminal(), last: map[string]time.Time{}}
	return dtm.Open(dir, dtm.Options{
		BuildMen: build,
		Warn:     func(msg string) { fmt.Fprintf(os.Stderr, "mateline: warning: %s\n", msg) },
		Progress: rep.report,
	}), nil
}

// buildReporter shows table builds on standard error.
type buildReporter struct {
	mu      sync.Mutex
	bar     bool // draw a progress bar
	current *progressbar.ProgressBar
	table   string
	last    map[string]time.Time
}

func (r *buildReporter) report(ev dtm.BuildEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev.Finished {
		switch {
		case r.current != nil && r.table == ev.Table:
			r.current.Finish()
			r.current = nil
		case r.current != nil:
			r.current.Clear() // another table's bar: redrawn on its next event
		}
		fmt.Fprintf(os.Stderr, "mateline: built %s in %.1f s (%s)\n", ev.Table, ev.Elapsed.Seconds(), sizeText(ev.Bytes))
		return
	}
	what := fmt.Sprintf("building %s: slice %d/%d", ev.Table, min(ev.Done+1, ev.Total), ev.Total)
	if ev.Ply > 0 {
		what += fmt.Sprintf(", ply %d", ev.Ply)
	}
	if r.bar {
		if r.current != nil && r.table != ev.Table {
			return // small tables are built side by side: the bar follows one
		}
		if r.current == nil {
			r.current = progressbar.NewOptions64(ev.Total,
				progressbar.OptionSetWriter(os.Stderr),
				progressbar.OptionShowCount(),
				progressbar.OptionSetItsString("slices"),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(200*time.Millisecond),
				progressbar.OptionClearOnFinish(),
			)
			r.table = ev.Table
		}
		r.current.Describe(what)
		r.current.Set64(ev.Done)
		return
	}
	if last, seen := r.last[ev.Table]; !seen || time.Since(last) > 2*time.Second {
		r.last[ev.Table] = time.Now()
		fmt.Fprintf(os.Stderr, "mateline: %s, %.0f s\n", what, ev.Elapsed.Seconds())
	}
}

func sizeText(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
}

func tablesCommand() *cli.Command {
	return &cli.Command{
		Name:  "tables",
		Usage: "build and verify the distance-to-mate tables (up to 5 men)",
		Description: "mateline builds exact distance-to-mate tables itself, by retrograde analysis, the first\n" +
			"time a position needs one; 'tables build' builds them ahead of time (for a shared cache,\n" +
			"or a cluster), 'tables verify' checks them. Tables are files SIG.mldtm in the cache\n" +
			"directory (--dtm, MATELINE_DTM, else mateline/dtm in the user cache directory).",
		Commands: []*cli.Command{
			{
				Name:      "build",
				Usage:     "build tables and the ones they need",
				ArgsUsage: "SIG... (e.g. KQvKR KRPvKR)",
				Description: "Builds each signature given (and the smaller tables its captures and promotions lead\n" +
					"to), or with --men N every signature of at most N men. Tables already in the cache are\n" +
					"checked and kept. Two processes may build into one cache at once: a lock file per table\n" +
					"makes one wait for the other. With --shard i/n only every n-th signature is built (a job\n" +
					"array: build --men 4 first, then --men 5 --shard /n).\n\n" +
					"Example: mateline tables build KQvKR",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "dtm", Usage: "table directory (default MATELINE_DTM, else mateline/dtm in the user cache directory)"},
					&cli.IntFlag{Name: "men", Usage: "build every signature of at most this many men (3 to 5)"},
					&cli.StringFlag{Name: "shard", Usage: "i/n: build only the signatures i, i+n, ... of the list ('/n' reads i from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)"},
				},
				Action: runTablesBuild,
			},
			{
				Name:      "verify",
				Usage:     "check tables: one ply of consistency everywhere, and win/draw/loss against Syzygy",
				ArgsUsage: "[SIG...]",
				Description: "For every position of each table (every table in the cache when none is named), checks\n" +
					"that its value is the best of its moves' values one ply on (a mate in N has a move to a\n" +
					"mated-in-N-1 and none better; a loss has no escape), and, with --syzygy, that win, draw\n" +
					"and loss agree with the Syzygy WDL (a cursed win counts as a win, a blessed loss as a\n" +
					"loss). Exit code 3 when a table fails.\n\n" +
					"Example: mateline tables verify --syzygy /tables KQvKR",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "dtm", Usage: "table directory"},
					syzygyFlag(),
				},
				Action: runTablesVerify,
			},
		},
	}
}

// signatures reads the SIG arguments, or every signature up to --men.
func signatures(cmd *cli.Command) ([]dtm.Material, error) {
	var out []dtm.Material
	for _, a := range cmd.Args().Slice() {
		m, err := dtm.ParseMaterial(a)
		if err != nil {
			return nil, usagef("%v", err)
		}
		if m.Bare() {
			return nil, usagef("material %q: two bare kings need no table (a draw)", a)
		}
		c, _ := m.Canonical()
		out = append(out, c)
	}
	if cmd.IsSet("men") {
		n := int(cmd.Int("men"))
		if n < 3 || n > dtm.MaxMen {
			return nil, usagef("--men %d: want 3 to %d", n, dtm.MaxMen)
		}
		out = append(out, dtm.AllUpTo(n)...)
	}
	return out, nil
}

func runTablesBuild(_ context.Context, cmd *cli.Command) error {
	sigs, err := signatures(cmd)
	if err != nil {
		return err
	}
	if len(sigs) == 0 {
		return usagef("tables build: give signatures (KQvKR) or --men N")
	}
	if s := cmd.String("shard"); s != "" {
		if sigs, err = shardSignatures(sigs, s); err != nil {
			return err
		}
	}
	store, err := openDTM(cmd)
	if err != nil {
		return err
	}
	defer store.Close()
	start := time.Now()
	for _, m := range sigs {
		t, err := store.Build(m)
		if err != nil {
			return fmt.Errorf("table %s: %w", m, err)
		}
		fmt.Fprintf(cmd.Root().Writer, "%s\t%d positions per side\t%s\n", m, t.Positions(), store.Path(m))
	}
	fmt.Fprintf(os.Stderr, "mateline: %d table(s) ready in %s after %.1f s\n", len(sigs), store.Dir(), time.Since(start).Seconds())
	return nil
}

// shardSignatures keeps the signatures of shard i of n.
func shardSignatures(sigs []dtm.Material, spec string) ([]dtm.Material, error) {
	var i, n int
	if strings.HasPrefix(spec, "/") {
		idx := os.Getenv("SLURM_ARRAY_TASK_ID")
		if idx == "" {
			idx = os.Getenv("JOB_COMPLETION_INDEX")
		}
		spec = idx + spec
	}
	if _, err := fmt.Sscanf(spec, "%d/%d", &i, &n); err != nil || n <= 0 || i < 0 || i >= n {
		return nil, usagef("--shard %q: want i/n with 0 <= i < n", spec)
	}
	var out []dtm.Material
	for k, m := range sigs {
		if k%n == i {
			out = append(out, m)
		}
	}
	return out, nil
}

func runTablesVerify(_ context.Context, cmd *cli.Command) error {
	sigs, err := signatures(cmd)
	if err != nil {
		return err
	}
	store, err := openDTM(cmd)
	if err != nil {
		return err
	}
	defer store.Close()
	if len(sigs) == 0 {
		if sigs, err = store.Cached(); err != nil {
			return err
		}
		if len(sigs) == 0 {
			return usagef("tables verify: no tables in %s; name signatures to build and verify", store.Dir())
		}
	}
	tb, err := openTables(cmd)
	if err != nil {
		return err
	}
	var wdl func(*board.Position) (int, bool)
	if tb != nil {
		wdl = func(p *board.Position) (int, bool) {
			v, err := tb.ProbeWDL(p)
			return v, err == nil
		}
	}
	failed := 0
	for _, m := range sigs {
		r, err := store.Verify(m, wdl)
		if err != nil {
			return fmt.Errorf("table %s: %w", m, err)
		}
		fmt.Fprintln(cmd.Root().Writer, r)
		if !r.OK() {
			failed++
		}
	}
	if failed > 0 {
		return cli.Exit(fmt.Sprintf("%d table(s) failed", failed), exitFailures)
	}
	return nil
}
