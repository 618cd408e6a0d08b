package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/board"
)

func perftCommand() *cli.Command {
	return &cli.Command{
		Name:      "perft",
		Usage:     "count the leaves of the legal move tree (move-generator check and speed)",
		ArgsUsage: "[FEN]",
		Description: "Counts every legal move sequence of --depth plies from the position (the start\n" +
			"position if no FEN is given; the FEN may be one quoted argument or several words),\n" +
			"and prints the count, the seconds taken and the leaves per second. Leaves at the\n" +
			"last ply are counted without being played, as Stockfish's \"go perft\" does.\n\n" +
			"Example: mateline perft --depth 5 --divide 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1'",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "depth", Aliases: []string{"d"}, Value: 5, Usage: "plies to count (1-12)"},
			&cli.BoolFlag{Name: "divide", Usage: "print the leaves below each root move"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object instead of text"},
		},
		Action: runPerft,
	}
}

type perftJSON struct {
	FEN     string            `json:"fen"`
	Depth   int               `json:"depth"`
	Nodes   uint64            `json:"nodes"`
	Seconds float64           `json:"seconds"`
	NPS     float64           `json:"nps"`
	Moves   []perftMoveResult `json:"moves,omitempty"`
}

type perftMoveResult struct {
	UCI   string `json:"uci"`
	Nodes uint64 `json:"nodes"`
}

func runPerft(_ context.Context, cmd *cli.Command) error {
	depth := int(cmd.Int("depth"))
	if depth < 1 || depth > 12 {
		return usagef("perft: --depth %d is out of range 1-12", depth)
	}
	fen := board.StartFEN
	if cmd.Args().Len() > 0 {
		fen = strings.Join(cmd.Args().Slice(), " ")
	}
	pos, err := board.ParseFEN(fen)
	if err != nil {
		return usagef("perft: %v", err)
	}
	out := perftJSON{FEN: pos.FEN(), Depth: depth}
	start := time.Now()
	if cmd.Bool("divide") {
		for _, e := range board.Divide(&pos, depth) {
			out.Moves = append(out.Moves, perftMoveResult{e.Move.UCI(), e.Nodes})
			out.Nodes += e.Nodes
		}
	} else {
		out.Nodes = board.Perft(&pos, depth)
	}
	out.Seconds = time.Since(start).Seconds()
	if out.Seconds > 0 {
		out.NPS = float64(out.Nodes) / out.Seconds
	}
	w := cmd.Root().Writer
	if cmd.Bool("json") {
		return json.NewEncoder(w).Encode(out)
	}
	for _, m := range out.Moves {
		fmt.Fprintf(w, "%s: %d\n", m.UCI, m.Nodes)
	}
	if len(out.Moves) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "fen     %s\ndepth   %d\nnodes   %d\nseconds %.3f\nnps     %.0f leaves/s\n",
		out.FEN, out.Depth, out.Nodes, out.Seconds, out.NPS)
	return nil
}
