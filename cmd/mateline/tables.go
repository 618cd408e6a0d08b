package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/dtm/generate"
	"mateline.dev/mateline/dtm/tablefile"
	"mateline.dev/mateline/endgame"
)

// dtmFlags are the flags that choose the distance-to-mate tables; build
// is the default of --dtm-build.
func dtmFlags(build int) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "dtm", Usage: "directory of the distance-to-mate tables, built there on first use (default MATELINE_DTM, else mateline/dtm in the user cache directory)"},
		&cli.BoolFlag{Name: "no-dtm", Usage: "do not use distance-to-mate tables"},
		&cli.IntFlag{Name: "dtm-build", Value: build, Usage: "build missing tables of at most this many men on first use (4: seconds each; 5: up to minutes each; 6: the six-man tables too, tens of minutes to an hour each, with the tables they need; 0: never). 'mateline tables build' builds any ahead of time"},
		&cli.IntFlag{Name: "dtm-cache", Value: tablefile.DefaultCacheBytes >> 20, Usage: "MiB of decompressed table blocks kept for probes, shared by the threads"},
	}
}

// openDTM opens the table cache named by --dtm, MATELINE_DTM or the
// default; nil with --no-dtm. Builds report on standard error.
func openDTM(cmd *cli.Command) (*dtm.Store, error) {
	s, _, err := openDTMReporting(cmd)
	return s, err
}

// openDTMReporting is openDTM, with the reporter of its builds.
func openDTMReporting(cmd *cli.Command) (*dtm.Store, *buildReporter, error) {
	if cmd.Bool("no-dtm") {
		return nil, nil, nil
	}
	dir, err := tablesDir(cmd)
	if err != nil {
		return nil, nil, err
	}
	// 'tables build' builds what it is asked; the others what --dtm-build
	// allows (probe's default is every table: its question is the
	// table's answer)
	build := tablefile.MaxMen
	if cmd.Name != "build" {
		build = int(cmd.Int("dtm-build"))
		if build < 0 || build > dtm.BoundedMen {
			return nil, nil, usagef("--dtm-build %d: want 0 to %d", build, dtm.BoundedMen)
		}
	}
	// 'tables build' on a terminal draws a bar per table; elsewhere (and
	// under solve's own bar) a line every 2 s says how a build goes.
	rep := &buildReporter{bar: (cmd.Name == "build" || cmd.Name == "probe") && stderrIsTerminal(), last: map[string]printedLine{}}
	cache := int64(tablefile.DefaultCacheBytes)
	if cmd.IsSet("dtm-cache") {
		mb := cmd.Int("dtm-cache")
		if mb < 1 {
			return nil, nil, usagef("--dtm-cache %d: want at least 1 (MiB)", mb)
		}
		cache = int64(mb) << 20
	}
	bound, err := memoryBound(cmd)
	if err != nil {
		return nil, nil, err
	}
	format := 0
	if f := os.Getenv("MATELINE_DTM_FORMAT"); f != "" {
		if f != "2" && f != "3" {
			return nil, nil, usagef("MATELINE_DTM_FORMAT=%q: want 2 or 3", f)
		}
		format = int(f[0] - '0')
	}
	if cmd.Name != "build" {
		collectForBlockCache()
	}
	var every time.Duration
	if cmd.Name == "build" {
		if every = cmd.Duration("checkpoint-every"); every <= 0 {
			return nil, nil, usagef("--checkpoint-every %v: want a time such as 5m or 1h", every)
		}
	}
	return dtm.Open(dir, dtm.Options{
		BuildMen:        build,
		CacheBytes:      cache,
		Format:          format,
		Bounded:         cmd.Name == "build" && cmd.Bool("bounded"),
		MemoryBound:     bound,
		CheckpointEvery: every,
		Warn:            func(msg string) { fmt.Fprintf(os.Stderr, "mateline: warning: %s\n", msg) },
		Progress:        rep.report,
	}), rep, nil
}

// memoryFlag is --memory, the bound of 'tables build' and 'tables plan'.
func memoryFlag() cli.Flag {
	return &cli.StringFlag{Name: "memory", Usage: "the most memory one build may take, as 12G or 12000M (binary units; default 16G, the bound on a 24 GiB machine). " +
		"A pawnless six-man build under 14.5 GiB keeps two of its five bit sets in scratch files that the system pages (from about 9.5 GiB: slower when memory is short, docs/dtm.md); below that it is refused"}
}

// memoryBound reads --memory (0 when not given: the store's default).
func memoryBound(cmd *cli.Command) (int64, error) {
	text := cmd.String("memory")
	if text == "" {
		return 0, nil
	}
	b, ok := parseBytes(text)
	if !ok || b < 1<<20 {
		return 0, usagef("--memory %q: want a size such as 12G, 12GiB or 12000M", text)
	}
	return b, nil
}

// parseBytes reads a size of bytes in binary units: 12G, 12GiB, 12000M,
// 1.5T; a bare number is bytes.
func parseBytes(text string) (int64, bool) {
	units := map[string]float64{"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
	t := strings.ToUpper(strings.TrimSpace(text))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "IB"), "B")
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(t)
	}
	unit, ok := units[strings.TrimSpace(t[i:])]
	n, err := strconv.ParseFloat(t[:i], 64)
	if !ok || err != nil || n < 0 || n*unit > 1<<50 {
		return 0, false
	}
	return int64(n * unit), true
}

// collectForBlockCache lowers the collector's target from main's 400 %
// to 100 % for a command that probes the DTM tables: once the block cache
// is full it is most of the live heap, and at 400 % the heap would grow to
// five times it between collections, every block decoded on fresh pages
// (solve of KRNvKNN's 262 position: 1.65 GB resident and 1.7 s, at 100 %
// 0.87 GB and 1.3 s). A build keeps 400 %: its bit sets are held to a
// memory limit instead.
func collectForBlockCache() { debug.SetGCPercent(100) }

// openSomeTables opens the Syzygy tables (--syzygy) and the DTM tables
// (openDTM) for a command that needs at least one of them.
func openSomeTables(cmd *cli.Command) (*endgame.Tablebase, *dtm.Store, error) {
	tb, err := openTables(cmd)
	if err != nil {
		return nil, nil, err
	}
	store, err := openDTM(cmd)
	if err != nil {
		return nil, nil, err
	}
	if tb == nil && store == nil {
		return nil, nil, usagef("%s: no tables: give --syzygy DIR (or set MATELINE_SYZYGY), or leave the DTM tables on", cmd.Name)
	}
	return tb, store, nil
}

// buildReporter shows table builds on standard error.
type buildReporter struct {
	mu      sync.Mutex
	bar     bool // draw a progress bar
	current *progressbar.ProgressBar
	table   string
	last    map[string]printedLine
	// a set of tables ('tables build' of several): one bar over the set
	set         *progressbar.ProgressBar
	done, total int
}

// followSet makes the reporter follow the building of total tables as one
// set: one bar over them on a terminal, else a line per table.
func (r *buildReporter) followSet(total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.total = total
	if r.bar {
		r.set = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionShowCount(),
			progressbar.OptionSetItsString("tables"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionFullWidth(),
		)
	}
}

func (r *buildReporter) report(ev dtm.BuildEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.total > 0 {
		r.reportSet(ev)
		return
	}
	if ev.Finished {
		switch {
		case r.current != nil && r.table == ev.Table:
			r.current.Finish()
			r.current = nil
		case r.current != nil:
			r.current.Clear() // another table's bar: redrawn on its next event
		}
		fmt.Fprintf(os.Stderr, "mateline: %s\n", builtText(ev))
		return
	}
	what := buildingText(ev)
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
	if r.due(ev, 2*time.Second) {
		fmt.Fprintf(os.Stderr, "mateline: %s, %.0f s\n", what, ev.Elapsed.Seconds())
	}
}

// due says whether ev gets a line of its own: the first of its table, or
// of a new phase of its build (setting up, solving, writing), or the
// first after every; it records the line as printed.
func (r *buildReporter) due(ev dtm.BuildEvent, every time.Duration) bool {
	phase := 0
	if ev.Ply == generate.SetUpPly || ev.Ply == generate.WritePly {
		phase = ev.Ply
	}
	last, seen := r.last[ev.Table]
	if seen && last.phase == phase && time.Since(last.at) <= every {
		return false
	}
	r.last[ev.Table] = printedLine{time.Now(), phase}
	return true
}

// printedLine is when the last line of a table's build was printed, and
// in which phase.
type printedLine struct {
	at    time.Time
	phase int
}

// reportSet shows a build of the set: the bar counts the tables, and says
// which one is being built and how far.
func (r *buildReporter) reportSet(ev dtm.BuildEvent) {
	if ev.Finished {
		if !ev.Again {
			r.done++
		}
		if r.set != nil {
			r.set.Describe(builtText(ev))
			r.set.Set(min(r.done, r.total))
			return
		}
		fmt.Fprintf(os.Stderr, "mateline: %s; %d of %d\n", builtText(ev), r.done, r.total)
		return
	}
	what := buildingText(ev)
	if r.set != nil {
		r.set.Describe(what)
		return
	}
	if r.due(ev, 10*time.Second) {
		fmt.Fprintf(os.Stderr, "mateline: %s, %.0f s\n", what, ev.Elapsed.Seconds())
	}
}

// buildingText says how far a build is.
func buildingText(ev dtm.BuildEvent) string {
	what := "building " + ev.Table
	if ev.Again {
		what += "'s values again (its file keeps one side to move; they are read whole)"
	}
	switch ev.Ply {
	case generate.SetUpPly:
		return what + fmt.Sprintf(": setting up, %d %% of the rows", ev.Done*100/max(1, ev.Total))
	case generate.WritePly:
		return what + fmt.Sprintf(": writing, %d %% of the king pairs", ev.Done*100/max(1, ev.Total))
	}
	what += fmt.Sprintf(": slice %d/%d", min(ev.Done+1, ev.Total), ev.Total)
	if ev.Ply > 0 {
		what += fmt.Sprintf(", ply %d", ev.Ply)
	}
	return what
}

// builtText says that a build is done.
func builtText(ev dtm.BuildEvent) string {
	if ev.Again {
		return fmt.Sprintf("built %s's values again in %.1f s", ev.Table, ev.Elapsed.Seconds())
	}
	return fmt.Sprintf("built %s in %.1f s (%s)", ev.Table, ev.Elapsed.Seconds(), sizeText(ev.Bytes))
}

// finishSet ends the set's bar.
func (r *buildReporter) finishSet() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.set != nil {
		r.set.Finish()
		fmt.Fprintln(os.Stderr)
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
		Usage: "build, list and verify the distance-to-mate tables (up to 5 men, and 6 without pawns)",
		Description: "mateline builds exact distance-to-mate tables itself, by retrograde analysis, the first\n" +
			"time a position needs one; 'tables build' builds them ahead of time (for a shared cache,\n" +
			"or a cluster), 'tables list' shows what the cache holds, 'tables verify' checks them.\n" +
			"Tables are files SIG.mldtm, compressed, in the cache directory (--dtm, MATELINE_DTM, else\n" +
			"mateline/dtm in the user cache directory); a file of the old uncompressed format (before\n" +
			"2026-11-27) is rebuilt on first use.",
		Commands: []*cli.Command{
			{
				Name:      "build",
				Usage:     "build tables and the ones they need",
				ArgsUsage: "SIG... (e.g. KQvKR KRPvKR)",
				Description: "Builds each signature given (and the smaller tables its captures and promotions lead\n" +
					"to), or with --men N every signature of at most N men. Tables already in the cache are\n" +
					"checked and kept. Two processes may build into one cache at once: a lock file per table\n" +
					"makes one wait for the other. With --shard i/n only every n-th signature is built (a job\n" +
					"array: build --men 4 first, then --men 5 --shard /n). It says first how many tables it\n" +
					"will build and about how long that takes, then shows one bar over them. A killed build\n" +
					"keeps every table it finished; the same command goes on with the rest. Every table of\n" +
					"up to five men (--men 5) takes about 30 min on two cores and 2.48 GB of disk (up to\n" +
					"19 GB while it runs: the values of the tables later builds read are kept as scratch\n" +
					"files). MATELINE_DTM_FORMAT=2 stores both sides to move of the five-man tables (8 GB).\n" +
					"A pawnless six-man table (KQRBvKN) is built in bounded memory, at most 16 GiB: about 15\n" +
					"to 20 min on two cores for one with short mates, 0.45 GB of disk; killed, the same\n" +
					"command goes on after the last of its checkpoints (every 15 min: its bit sets, 11 GB,\n" +
					"in TABLE.mldtm.part.sets, 22 GB while one is written). KRNvKNN's mates (262 moves) take two bytes a value (version 5, 0.72\n" +
					"GB). --memory lowers the bound: below 14.5 GiB two of the five bit sets go to scratch\n" +
					"files the system pages, down to about 9.5 GiB (slower when memory is short); below that\n" +
					"the build is refused and says what it needs. A table with pawns whose values whole would\n" +
					"pass the bound keeps them in files the system pages (two bytes a position: 60 GiB of\n" +
					"disk for a one-pawn six-man table while it builds), its group of slices in memory; those\n" +
					"files (TABLE.mldtm.part.*) are its checkpoint. A six-man table with pawns whose values\n" +
					"fit in memory writes each group of slices it finishes to such files too. Killed, the\n" +
					"same command goes on after the last group of slices it finished, and removes them once\n" +
					"the table is written (remove them to start again). A table with pawns whose mates pass\n" +
					"127 moves takes two bytes a value (version 4, or 5 with one side). A six-man table with\n" +
					"pawns reads its six-man promotions through\n" +
					"their files, which must store both sides (format 2): a build that names it writes them\n" +
					"so. KQRPvKN took 30 min on two cores after its four promotions (47 min), 14.7 GB at\n" +
					"most, 8.4 GB in format 2. 'tables plan --men 6' costs the whole six-man set.\n\n" +
					"Example: mateline tables build KQvKR",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "dtm", Usage: "table directory (default MATELINE_DTM, else mateline/dtm in the user cache directory)"},
					&cli.IntFlag{Name: "men", Usage: "build every signature of at most this many men (3 to 6; six is the whole six-man set: see tables plan --men 6)"},
					&cli.StringFlag{Name: "shard", Usage: "i/n: build only the signatures i, i+n, ... of the list ('/n' reads i from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)"},
					memoryFlag(),
					&cli.BoolFlag{Name: "bounded", Usage: "build the pawnless tables in bounded memory: five bits a position and side to move, the rest in a scratch file in the table directory (unlinked at once); their files are those of a build by rows (format 3 for five men), KRNvKNN's of format 5 (two-byte values, one side; 4, both sides, with MATELINE_DTM_FORMAT=2)"},
					&cli.DurationFlag{Name: "checkpoint-every", Usage: "how often a pawnless six-man build saves its bit sets to its checkpoint, from its start (each save writes 11 GB, some 40 s here), so that a killed build goes on from the last (lower it under a short job time limit)", Value: generate.BoundedCheckpointEvery},
				},
				Action: runTablesBuild,
			},
			tablesPlanCommand(),
			{
				Name:      "list",
				Usage:     "list the tables of up to --men men: built or not, size, longest mate, checksums",
				ArgsUsage: "[SIG...]",
				Description: "For each signature (every one of up to --men men, and every six-man table built, when\n" +
					"none is named), says whether its table is in the cache, its size on disk, its longest\n" +
					"mate, and whether every block's checksum holds (the whole file is read). Ends with what\n" +
					"is missing and how to build it.\n" +
					"Exit code 3 when a file is damaged or of the old format (it would be rebuilt on first use).\n\n" +
					"Example: mateline tables list --men 4",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "dtm", Usage: "table directory"},
					&cli.IntFlag{Name: "men", Value: tablefile.MaxMen, Usage: "list every signature of at most this many men (3 to 6)"},
				},
				Action: runTablesList,
			},
			{
				Name:      "longest",
				Usage:     "find the positions of each table's longest mate",
				ArgsUsage: "SIG...",
				Description: "Reads every block of each table named and prints its longest mate, how many positions\n" +
					"have it, and the first of them as FEN (side to move included), ready for 'mateline\n" +
					"probe'. A six-man table takes a few minutes. A table is read, never built.\n\n" +
					"Example: mateline tables longest KQvKR\n" +
					"         mateline tables longest KRNvKNN",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "dtm", Usage: "table directory"},
					&cli.IntFlag{Name: "positions", Value: 10, Usage: "print at most this many positions of each table"},
				},
				Action: runTablesLongest,
			},
			{
				Name:      "verify",
				Usage:     "check tables: one ply of consistency everywhere, and win/draw/loss against Syzygy",
				ArgsUsage: "[SIG...]",
				Description: "For every position of each table (every table in the cache when none is named), checks\n" +
					"that its value is the best of its moves' values one ply on (a mate in N has a move to a\n" +
					"mated-in-N-1 and none better; a loss has no escape), and, with --syzygy, that win, draw\n" +
					"and loss agree with the Syzygy WDL (a cursed win counts as a win, a blessed loss as a\n" +
					"loss). Exit code 3 when a table fails. A six-man table (7.75 billion positions a side)\n" +
					"takes hours whole: --sample N checks N positions drawn at random instead, on every core\n" +
					"(KRNvKNN: 20,000 in about two minutes on two), the same report for the same --seed.\n\n" +
					"Example: mateline tables verify --syzygy /tables KQvKR\n" +
					"         mateline tables verify --sample 100000 KQRBvKN",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "dtm", Usage: "table directory"},
					syzygyFlag(),
					&cli.IntFlag{Name: "sample", Usage: "check this many positions of each table, drawn at random, instead of every one"},
					&cli.Int64Flag{Name: "seed", Value: 1, Usage: "seed of --sample's draw"},
				},
				Action: runTablesVerify,
			},
		},
	}
}

// signatures reads the SIG arguments, or every signature up to --men:
// tables of at most tablefile.PlanMen men.
func signatures(cmd *cli.Command) ([]tablefile.Material, error) {
	return signaturesUpTo(cmd, tablefile.PlanMen)
}

// signaturesUpTo is signatures with tables of up to most men (tablefile.PlanMen
// for a plan).
func signaturesUpTo(cmd *cli.Command, most int) ([]tablefile.Material, error) {
	var out []tablefile.Material
	for _, a := range cmd.Args().Slice() {
		m, err := tablefile.ParsePlannedMaterial(a)
		if err == nil && m.Men() > most {
			err = fmt.Errorf("material %q: %d men, tables hold at most %d", a, m.Men(), most)
		}
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
		n, err := menFlag(cmd, most)
		if err != nil {
			return nil, err
		}
		out = append(out, tablefile.AllUpTo(n)...)
	}
	return out, nil
}

// menFlag reads --men: 3 to most.
func menFlag(cmd *cli.Command, most int) (int, error) {
	n := int(cmd.Int("men"))
	if n < 3 || n > most {
		return 0, usagef("--men %d: want 3 to %d", n, most)
	}
	return n, nil
}

// namedOrAll reads the signatures named, or without any every one of up
// to --men men, of at most most men.
func namedOrAll(cmd *cli.Command, most int) ([]tablefile.Material, error) {
	if cmd.Args().Present() {
		return signaturesUpTo(cmd, most)
	}
	n, err := menFlag(cmd, most)
	if err != nil {
		return nil, err
	}
	return tablefile.AllUpTo(n), nil
}

// tablesDir is the DTM cache: --dtm, else MATELINE_DTM, else the user's
// cache directory.
func tablesDir(cmd *cli.Command) (string, error) {
	if dir := cmd.String("dtm"); dir != "" {
		return dir, nil
	}
	return dtm.DefaultDir()
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
	store, rep, err := openDTMReporting(cmd)
	if err != nil {
		return err
	}
	defer store.Close()
	start := time.Now()
	sigs = store.Plan(sigs) // each table soon after those it reads
	missing := store.Missing(sigs)
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "mateline: %d table(s) to build in %s (about %s on two cores); the ones already there are kept\n",
			len(missing), store.Dir(), dtm.EstimatedBuild(missing))
	}
	if len(missing) > 1 {
		rep.followSet(len(missing))
		defer rep.finishSet()
	}
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
func shardSignatures(sigs []tablefile.Material, spec string) ([]tablefile.Material, error) {
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
	var out []tablefile.Material
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
		var r dtm.VerifyReport
		if n := int(cmd.Int("sample")); n > 0 {
			r, err = store.VerifySample(m, n, cmd.Int64("seed"), wdl)
		} else {
			r, err = store.Verify(m, wdl)
		}
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

func runTablesLongest(_ context.Context, cmd *cli.Command) error {
	sigs, err := signatures(cmd)
	if err != nil {
		return err
	}
	if len(sigs) == 0 {
		return usagef("tables longest: name the tables (KQvKR)")
	}
	store, err := openDTM(cmd)
	if err != nil {
		return err
	}
	defer store.Close()
	for _, m := range sigs {
		r, err := store.LongestMates(m, int(cmd.Int("positions")))
		if err != nil {
			return fmt.Errorf("table %s: %w", m, err)
		}
		fmt.Fprintln(cmd.Root().Writer, r)
	}
	return nil
}

func runTablesList(_ context.Context, cmd *cli.Command) error {
	sigs, err := namedOrAll(cmd, tablefile.PlanMen)
	if err != nil {
		return err
	}
	dir, err := tablesDir(cmd)
	if err != nil {
		return err
	}
	store := dtm.Open(dir, dtm.Options{})
	defer store.Close()
	if !cmd.Args().Present() {
		// and the six-man tables built, which --men does not reach
		six, err := store.CachedSixMen()
		if err != nil {
			return err
		}
		sigs = append(sigs, six...)
	}
	w := cmd.Root().Writer
	fmt.Fprintf(w, "%-8s %4s %11s %8s  %s\n", "table", "men", "size", "longest", "state")
	var built, damaged, old int
	var bytes int64
	var missing []tablefile.Material
	for _, m := range sigs {
		info := store.Inspect(m)
		size, longest := "-", "-"
		state := "not built"
		switch {
		case !info.Built:
			missing = append(missing, m)
		case errors.Is(info.Err, tablefile.ErrOldFormat):
			old++
			size = sizeText(info.Bytes)
			state = "old uncompressed format (version 1): rebuilt on first use"
		case info.Err != nil:
			damaged++
			size = sizeText(info.Bytes)
			state = fmt.Sprintf("DAMAGED: %v (rebuilt on first use)", info.Err)
		default:
			built++
			bytes += info.Bytes
			size, longest = sizeText(info.Bytes), fmt.Sprintf("%d", info.Longest)
			state = "checksum ok"
		}
		fmt.Fprintf(w, "%-8s %4d %11s %8s  %s\n", m, m.Men(), size, longest, state)
	}
	fmt.Fprintf(w, "%d of %d built in %s, %s", built, len(sigs), dir, sizeText(bytes))
	if damaged > 0 {
		fmt.Fprintf(w, "; %d damaged", damaged)
	}
	if old > 0 {
		fmt.Fprintf(w, "; %d of the old format", old)
	}
	fmt.Fprintln(w)
	if len(missing) > 0 {
		need := store.Missing(missing)
		names := make([]string, len(missing))
		for i, m := range missing {
			names[i] = m.String()
		}
		if len(names) > 12 {
			names = append(names[:12], fmt.Sprintf("and %d more", len(missing)-12))
		}
		fmt.Fprintf(w, "missing: %s\n", strings.Join(names, " "))
		how := "mateline tables build " + strings.Join(names, " ")
		if !cmd.Args().Present() {
			how = fmt.Sprintf("mateline tables build --men %d", cmd.Int("men"))
		}
		fmt.Fprintf(w, "build them with: %s --dtm %s (about %s on two cores)\n", how, dir, dtm.EstimatedBuild(need))
	}
	if damaged+old > 0 {
		return cli.Exit(fmt.Sprintf("%d table file(s) damaged, %d of the old format", damaged, old), exitFailures)
	}
	return nil
}
