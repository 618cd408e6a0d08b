package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/book"
	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/endgame"
	"mateline.dev/mateline/solver"
	"mateline.dev/mateline/uci"
)

func uciCommand() *cli.Command {
	return &cli.Command{
		Name:  "uci",
		Usage: "be a UCI engine on standard input and output, for GUIs and test harnesses",
		Description: "Speaks the Universal Chess Interface: a GUI (Arena, Cute Chess, En Croissant...) or a\n" +
			"harness (cutechess-cli, fastchess, matetrack's matecheck.py) starts mateline as an engine.\n" +
			"'mateline' with no arguments does the same when standard input is not a terminal, so\n" +
			"the bare path of the binary works as an engine command.\n\n" +
			"What it prints: 'score mate N' (mated: -N) as soon as a forced mate in N is proved, with\n" +
			"the whole proved line in 'pv' (2N-1 plies to mate, 2N for a mated side's longest\n" +
			"defence); again for each shorter mate proved; an 'info string' saying in words what was\n" +
			"proved, and once the mate is proved shortest. 'info depth' lines (depth: no mate in that\n" +
			"many moves or fewer, proved) come at least once a second. A score is never printed\n" +
			"without its proof and its whole line. Without a proved mate, bestmove is the book's most\n" +
			"weighted move (the built-in ECO data, or BookFile), else a sensible move of a one-move\n" +
			"look; no score is made up. A 'go' whose limit cannot be read (go wtime abc) is answered\n" +
			"at once with an 'info string' and that move, never with a search without a limit.\n\n" +
			"go: 'go mate N' looks for mates of at most N moves and ends at the first proved\n" +
			"(ProveShortest false) or once the shortest is proved (true); movetime, wtime/btime,\n" +
			"nodes, depth N (as mate N), infinite, ponder and searchmoves work as usual; without\n" +
			"mate or depth there is no cap on the length.\n\n" +
			"Options: Hash, Threads, MultiPV (one line per proved key), ProveShortest (true, the\n" +
			"default: keep tightening until the mate is proved shortest; false: stop at the first\n" +
			"forced mate proved, as 'go mate N' means to Stockfish users), SyzygyPath, BookFile\n" +
			"(empty: the built-in ECO data), Clear Hash, DTMPath (the distance-to-mate tables; by\n" +
			"default the cache that solve and 'mateline tables' use; <empty>: none), DTMBuild\n" +
			"(build missing tables of at most this many men on first use; default 4, 0: only read)\n" +
			"and DTMCache (MiB of decompressed table blocks kept for probes; default 256). A root of\n" +
			"at most 5 men that the tables hold gets its 'score mate' at once. 'd' prints the\n" +
			"board.\n\n" +
			"Example: printf 'position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\\ngo mate 1\\nquit\\n' | mateline uci",
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runUCI(ctx, os.Stdin, cmd.Root().Writer)
		},
	}
}

// runUCI runs a UCI session.
func runUCI(ctx context.Context, in io.Reader, out io.Writer) error {
	dtmDir, _ := dtm.DefaultDir() // "" (no tables) when there is no cache directory
	e := uci.New(uci.Config{
		Name:        "mateline " + shortVersion(),
		Author:      "the mateline developers",
		DefaultHash: 64,
		MaxHash:     solver.MaxHashMiB(),
		OpenTables: func(path string, warn func(error)) (solver.Prober, io.Closer, error) {
			tb, err := endgame.Open(endgame.SplitDirs(path)...)
			if err != nil {
				return nil, nil, err
			}
			if w, _ := tb.Tables(); w == 0 {
				return nil, nil, fmt.Errorf("no Syzygy tables (.rtbw) there")
			}
			return endgame.NewProber(tb, warn), nil, nil
		},
		OpenBook: func(path string) (solver.Book, io.Closer, error) {
			var paths []string
			if path != "" {
				paths = filepath.SplitList(path)
			}
			bk, err := book.Open(paths...)
			if err != nil {
				return nil, nil, err
			}
			return bk, bk, nil
		},
		OpenDTM: func(dir string, build, cacheMiB int, warn func(string)) (solver.DTM, solver.DTM, io.Closer, error) {
			collectForBlockCache()
			st := dtm.Open(dir, dtm.Options{
				BuildMen:   build,
				CacheBytes: int64(cacheMiB) << 20,
				Warn:       warn,
				Progress: func(ev dtm.BuildEvent) {
					if ev.Finished && !ev.Again {
						warn(fmt.Sprintf("built DTM table %s in %.1f s (%s)", ev.Table, ev.Elapsed.Seconds(), sizeText(ev.Bytes)))
					}
				},
			})
			// as for solve: a root may build what DTMBuild allows (six men
			// only when it says 6), a node
			// inside a search tables of up to four men
			return st.Prober(dtm.BoundedMen), st.Prober(4).StoredOnly(), st, nil
		},
		DTMDir: dtmDir,
	}, out)
	return e.Run(ctx, in)
}
