package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/book"
)

// bookFlag is the --book flag shared by book, solve and validate.
func bookFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "book", Usage: "Polyglot book file (repeatable; weights of several books add up); default MATELINE_BOOK (':'-separated), else the built-in ECO data"}
}

// openBook opens the books named by --book or MATELINE_BOOK, else the
// built-in default.
func openBook(cmd *cli.Command) (*book.Book, error) {
	paths := cmd.StringSlice("book")
	if len(paths) == 0 {
		if env := os.Getenv("MATELINE_BOOK"); env != "" {
			paths = filepath.SplitList(env)
		}
	}
	return book.Open(paths...)
}

func bookCommand() *cli.Command {
	return &cli.Command{
		Name:      "book",
		Usage:     "list the opening-book moves of positions, with weight, share and ECO name",
		ArgsUsage: "FEN...",
		Description: "Looks each position up in Polyglot books (--book, or MATELINE_BOOK), or, with none,\n" +
			"in the built-in ECO data of the chess library (moves weighted by the number of named\n" +
			"lines through them). Give each FEN as one quoted argument; 'startpos' is the initial\n" +
			"position. Entries whose move is not legal in the position are skipped and counted.\n\n" +
			"Example: mateline book --book gnuchess.bin startpos",
		Flags: []cli.Flag{
			bookFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per position"},
		},
		Action: runBook,
	}
}

type bookMoveJSON struct {
	UCI    string  `json:"uci"`
	SAN    string  `json:"san"`
	Weight uint32  `json:"weight"`
	Share  float64 `json:"share"`
}

type bookJSON struct {
	FEN     string         `json:"fen"`
	Key     string         `json:"key"`
	Moves   []bookMoveJSON `json:"moves"`
	ECO     *book.Opening  `json:"eco,omitempty"`
	Skipped int            `json:"skipped,omitempty"`
	Error   string         `json:"error,omitempty"`
}

func runBook(_ context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() == 0 {
		return usagef("book: give at least one FEN (or 'startpos')")
	}
	bk, err := openBook(cmd)
	if err != nil {
		return err
	}
	defer bk.Close()
	return eachFEN(cmd, "looked up", func(fen string) (bookJSON, bool) {
		if fen == "startpos" {
			fen = board.StartFEN
		}
		out := bookJSON{FEN: fen, Moves: []bookMoveJSON{}}
		pos, err := board.ParseFEN(fen)
		if err == nil {
			var res book.Result
			if res, err = bk.Lookup(&pos); err == nil {
				out.FEN, out.Key, out.ECO, out.Skipped = pos.FEN(), fmt.Sprintf("%016x", res.Key), res.ECO, res.Skipped
				for _, m := range res.Moves {
					out.Moves = append(out.Moves, bookMoveJSON{m.Move.UCI(), pos.SAN(m.Move), m.Weight, m.Share})
				}
			}
		}
		if err != nil {
			out.Error = err.Error()
		}
		return out, err == nil
	}, writeBookText)
}

func writeBookText(w io.Writer, out bookJSON) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", out.FEN)
	if out.Error != "" {
		fmt.Fprintf(&b, "  error: %s\n", out.Error)
		w.Write([]byte(b.String()))
		return
	}
	fmt.Fprintf(&b, "  key %s", out.Key)
	if out.ECO != nil {
		fmt.Fprintf(&b, "  %s %s", out.ECO.Code, out.ECO.Name)
	}
	b.WriteByte('\n')
	if len(out.Moves) == 0 {
		b.WriteString("  not in the book\n")
	}
	for _, m := range out.Moves {
		fmt.Fprintf(&b, "  %-7s %-6s %6d  %5.1f%%\n", m.SAN, m.UCI, m.Weight, 100*m.Share)
	}
	if out.Skipped > 0 {
		fmt.Fprintf(&b, "  (%d entries with moves not legal here were skipped)\n", out.Skipped)
	}
	w.Write([]byte(b.String()))
}
