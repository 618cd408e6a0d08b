package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/proof"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "verify proof certificates independently of the solver",
		ArgsUsage: "CERT...",
		Description: "Checks certificates written by 'mateline solve --proof' or '--proof-dir' with the move\n" +
			"generator of the chess library github.com/corentings/chess/v2; the checker imports\n" +
			"none of mateline's board or solver code, so a bug there cannot hide itself. It checks\n" +
			"that the root matches, that every attacker move is legal, that every legal defence is\n" +
			"covered, that every line ends in checkmate within the claimed moves, and, when the\n" +
			"certificate says the lower bound is certified, that every attacker move is refuted so\n" +
			"that no shorter mate exists. It prints 'ok' with the nodes checked and the time, or\n" +
			"the first failing position, the move and what is wrong. The format is defined in\n" +
			"docs/certificate.md. Exit code 0 when all hold, 3 when any fails or cannot be read.\n\n" +
			"Example: mateline solve --proof m.jsonl --fen '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1' && mateline check m.jsonl",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "fen", Usage: "the position the certificates must be for"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per certificate"},
		},
		Action: runCheck,
	}
}

type checkJSON struct {
	File        string  `json:"file"`
	OK          bool    `json:"ok"`
	FEN         string  `json:"fen,omitempty"`
	Mate        int     `json:"mate,omitempty"`
	LowerBound  string  `json:"lower_bound,omitempty"`
	Nodes       int     `json:"nodes"`
	Refutations int     `json:"refutations"`
	Checked     int     `json:"checked"`
	MS          float64 `json:"ms"`
	Failure     string  `json:"failure,omitempty"`
	Error       string  `json:"error,omitempty"`
}

func runCheck(_ context.Context, cmd *cli.Command) error {
	paths := cmd.Args().Slice()
	if len(paths) == 0 {
		return usagef("check: give the certificate files")
	}
	w := cmd.Root().Writer
	failed := 0
	for _, path := range paths {
		out := checkJSON{File: path}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		rep, err := proof.Check(f, path, cmd.String("fen"))
		f.Close()
		out.FEN, out.Mate, out.LowerBound = rep.FEN, rep.Mate, rep.LowerBound
		out.Nodes, out.Refutations, out.Checked = rep.Nodes, rep.Refutations, rep.Checked
		out.MS = float64(rep.Elapsed.Microseconds()) / 1000
		var fe *proof.FormatError
		switch {
		case errors.As(err, &fe):
			out.Error = err.Error()
		case err != nil:
			return err
		case rep.Failure != nil:
			out.Failure = rep.Failure.Error()
		default:
			out.OK = true
		}
		if !out.OK {
			failed++
		}
		if cmd.Bool("json") {
			if err := json.NewEncoder(w).Encode(out); err != nil {
				return err
			}
			continue
		}
		switch {
		case out.Error != "":
			fmt.Fprintf(w, "error %s\n", out.Error)
		case out.Failure != "":
			fmt.Fprintf(w, "FAIL %s: %s\n", path, out.Failure)
		default:
			what := fmt.Sprintf("mate in %d", rep.Mate)
			if rep.Mate < 0 {
				what = fmt.Sprintf("mated in %d", -rep.Mate)
			}
			lower := rep.LowerBound
			if lower == "depth" {
				// no mate within the plies the certificate refutes
				lower = fmt.Sprintf("depth: %s certified", problem.NoMateIn(problem.MateInPlies(rep.LowerPlies).Moves()))
			}
			fmt.Fprintf(w, "ok %s: %s; lower bound %s; %d nodes checked in %s (%.0f nodes/s)\n", path, what, lower,
				rep.Checked, rep.Elapsed.Round(1000), float64(rep.Checked)/max(rep.Elapsed.Seconds(), 1e-9))
		}
	}
	if failed > 0 {
		return cli.Exit(fmt.Sprintf("check: %d of %d certificate(s) failed", failed, len(paths)), exitFailures)
	}
	return nil
}
