package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/urfave/cli/v3"
)

// eachFEN runs one look-up per FEN argument of cmd and prints each result,
// as a JSON object with --json, else with text. ok false counts the FEN as
// failed; the command then ends with an error saying how many could not be
// what (for example "probed"), after printing them all.
func eachFEN[T any](cmd *cli.Command, what string, one func(fen string) (out T, ok bool), text func(io.Writer, T)) error {
	w := cmd.Root().Writer
	failed := 0
	for _, fen := range cmd.Args().Slice() {
		out, ok := one(fen)
		if !ok {
			failed++
		}
		if !cmd.Bool("json") {
			text(w, out)
			continue
		}
		if err := json.NewEncoder(w).Encode(out); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%s: %d position(s) could not be %s", cmd.Name, failed, what)
	}
	return nil
}
