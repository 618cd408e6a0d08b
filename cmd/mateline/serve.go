package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/endgame"
	"mateline.dev/mateline/serve"
	"mateline.dev/mateline/solver"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "a local tablebase and mate server: the Lichess tablebase API, mate proofs over HTTP, and a page to explore positions",
		Description: "Listens on 127.0.0.1:9000 (--listen) and answers:\n" +
			"  GET /standard?fen=FEN           the Lichess tablebase API: the position and every legal move,\n" +
			"                                  best first, with dtm (from mateline's own tables), dtz and\n" +
			"                                  precise_dtz (from Syzygy, with --syzygy) and their category\n" +
			"  GET /standard/mainline?fen=FEN  the DTZ main line (needs --syzygy)\n" +
			"  GET /solve?fen=FEN&mate=N&timeout=2s\n" +
			"                                  what 'solve --json' says of the position\n" +
			"  GET /                           a page to explore positions: a board with coordinates, moves\n" +
			"                                  played by clicking or dragging, a position editor, the moves\n" +
			"                                  grouped as winning, drawing and losing, a button that proves\n" +
			"                                  a mate\n" +
			"Underscores may stand for the FEN's spaces. A bad FEN is answered 400, a position no table\n" +
			"holds (castling rights, more men than the tables, a table not built) 404, each with a JSON\n" +
			"body {\"error\": ...} that says why (/standard's 404 lists the legal moves too, each \"unknown\"\n" +
			"unless it mates or draws at once). /solve runs at most --workers searches at once and keeps\n" +
			"at most --queue waiting; beyond, 503 with Retry-After. A client that goes away cancels its\n" +
			"search. SIGTERM or Ctrl-C stops the server: requests in flight finish, new ones are refused.\n\n" +
			"The tables are those of the other commands: the DTM cache (--dtm, MATELINE_DTM), four-man\n" +
			"tables built on first use (--dtm-build), Syzygy with --syzygy or MATELINE_SYZYGY.\n" +
			"docs/serve.md has every field and rule.\n\n" +
			"Example: mateline tables build KRPvKR && mateline serve --syzygy /tables",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", Value: "127.0.0.1:9000", Usage: "address to listen on (host:port; 127.0.0.1 keeps the server to this machine)"},
			syzygyFlag(),
			dtmFlags(4)[0],
			dtmFlags(4)[1],
			dtmFlags(4)[2],
			bookFlag(),
			&cli.IntFlag{Name: "workers", DefaultText: "cores", Usage: "mate searches (/solve) run at once, one thread each"},
			&cli.IntFlag{Name: "queue", DefaultText: "2 per core", Usage: "/solve requests that may wait for a search; beyond, 503"},
			&cli.IntFlag{Name: "hash", Value: 256, Usage: "transposition table memory of the searches, MiB, shared out among the workers"},
			&cli.DurationFlag{Name: "timeout", Value: 2 * time.Second, Usage: "a /solve search's time when the request names none"},
			&cli.DurationFlag{Name: "max-timeout", Value: 30 * time.Second, Usage: "the longest time a /solve request may ask for"},
		},
		Action: runServe,
	}
}

func runServe(ctx context.Context, cmd *cli.Command) error {
	cores := runtime.NumCPU()
	workers := int(cmd.Int("workers"))
	if !cmd.IsSet("workers") {
		workers = cores
	}
	queue := int(cmd.Int("queue"))
	if !cmd.IsSet("queue") {
		queue = 2 * cores
	}
	switch {
	case workers < 1 || workers > 4*cores:
		return usagef("--workers %d: want 1 to %d", workers, 4*cores)
	case queue < 0:
		return usagef("--queue %d: want 0 or more", queue)
	case cmd.Duration("timeout") <= 0 || cmd.Duration("max-timeout") < cmd.Duration("timeout"):
		return usagef("--timeout %v, --max-timeout %v: want 0 < timeout <= max-timeout", cmd.Duration("timeout"), cmd.Duration("max-timeout"))
	case cmd.Int("hash") < 1 || int(cmd.Int("hash")) > solver.MaxHashMiB():
		return usagef("--hash %d: want 1 to %d MiB", cmd.Int("hash"), solver.MaxHashMiB())
	}
	tb, store, err := openSomeTables(cmd)
	if err != nil {
		return err
	}
	bk, err := openBook(cmd)
	if err != nil {
		return err
	}
	defer bk.Close()
	base := solver.Options{Book: bk}
	if tb != nil {
		base.Prober = endgame.NewProber(tb, func(err error) {
			fmt.Fprintf(os.Stderr, "mateline: warning: %v; going on without it\n", err)
		})
	}
	if store != nil {
		defer store.Close()
		base.DTM, base.SearchDTM = store.Prober(dtm.BoundedMen), store.Prober(4).StoredOnly()
	}
	maxT := cmd.Duration("max-timeout")
	srv := serve.New(serve.Config{
		Tables:  serve.Tables{Syzygy: tb, DTM: store},
		Solve:   serve.NewSolvePool(workers, queue, int(cmd.Int("hash")), base, cmd.Duration("timeout"), maxT),
		Version: shortVersion(),
	})
	ln, err := net.Listen("tcp", cmd.String("listen"))
	if err != nil {
		return usagef("--listen %s: %v", cmd.String("listen"), err)
	}
	hs := serve.HTTPServer(cmd.String("listen"), srv, maxT)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(os.Stderr, "mateline: serving on http://%s/ (Ctrl-C stops)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintf(os.Stderr, "mateline: stopping: finishing the requests in flight\n")
	sctx, cancel := context.WithTimeout(context.Background(), maxT+5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
