package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/endgame"
)

// syzygyFlag is the --syzygy flag shared by probe, solve and validate.
func syzygyFlag() cli.Flag {
	return &cli.StringFlag{Name: "syzygy", Usage: "Syzygy table directories, ':'-separated (default MATELINE_SYZYGY)"}
}

// openTables opens the tables named by --syzygy or MATELINE_SYZYGY; nil
// when neither is set.
func openTables(cmd *cli.Command) (*endgame.Tablebase, error) {
	dirs := cmd.String("syzygy")
	if dirs == "" {
		dirs = os.Getenv("MATELINE_SYZYGY")
	}
	if dirs == "" {
		return nil, nil
	}
	tb, err := endgame.Open(endgame.SplitDirs(dirs)...)
	if err != nil {
		return nil, err
	}
	if w, _ := tb.Tables(); w == 0 {
		return nil, fmt.Errorf("no Syzygy tables (.rtbw) in %s", dirs)
	}
	return tb, nil
}

func probeCommand() *cli.Command {
	return &cli.Command{
		Name:      "probe",
		Usage:     "look positions up in Syzygy tablebases: WDL, DTZ, every move, the winning line",
		ArgsUsage: "FEN...",
		Description: "Prints the win/draw/loss value (win, cursed win, draw, blessed loss, loss: cursed and\n" +
			"blessed are decisive results that the 50-move rule turns into draws) and the distance to\n" +
			"zeroing (DTZ, plies to the next capture, pawn move or mate), then every legal move with\n" +
			"its WDL and DTZ, best first; for a won position, the line that follows the tables' best\n" +
			"moves to mate or to the next zeroing move. Give each FEN as one quoted argument ('startpos'\n" +
			"is the initial position); a checkmate or a stalemate is named.\n" +
			"Positions with castling rights or more pieces than the tables hold are 'not in tables'.\n\n" +
			"Example: mateline probe --syzygy /tables '8/8/8/8/8/2k5/8/K6R w - - 0 1'",
		Flags: []cli.Flag{
			syzygyFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per position"},
		},
		Action: runProbe,
	}
}

type probeMoveJSON struct {
	UCI string `json:"uci"`
	SAN string `json:"san"`
	WDL int    `json:"wdl"`
	DTZ int    `json:"dtz"`
}

type probeJSON struct {
	FEN     string          `json:"fen"`
	WDL     *int            `json:"wdl,omitempty"`
	DTZ     *int            `json:"dtz,omitempty"`
	RootWDL *int            `json:"root_wdl,omitempty"`
	Moves   []probeMoveJSON `json:"moves,omitempty"`
	Line    []string        `json:"line,omitempty"`
	Status  string          `json:"status,omitempty"` // checkmate or stalemate
	Error   string          `json:"error,omitempty"`

	notInTables bool // the error only says the position is not covered
}

func runProbe(_ context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() == 0 {
		return usagef("probe: give at least one FEN")
	}
	tb, err := openTables(cmd)
	if err != nil {
		return err
	}
	if tb == nil {
		return usagef("probe: no tables: give --syzygy DIR or set MATELINE_SYZYGY")
	}
	return eachFEN(cmd, "probed", func(fen string) (probeJSON, bool) {
		out := probeOne(tb, fen)
		return out, out.Error == "" || out.notInTables
	}, writeProbeText)
}

func probeOne(tb *endgame.Tablebase, fen string) probeJSON {
	if fen == "startpos" {
		fen = board.StartFEN
	}
	out := probeJSON{FEN: fen}
	pos, err := board.ParseFEN(fen)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	out.FEN = pos.FEN()
	switch {
	case pos.IsCheckmate():
		out.Status = "checkmate: the side to move is mated"
	case pos.IsStalemate():
		out.Status = "stalemate"
	}
	wdl, err := tb.ProbeWDL(&pos)
	if err == nil {
		var dtz, rootWDL int
		var moves []endgame.RootMove
		if dtz, err = tb.ProbeDTZ(&pos); err == nil {
			moves, rootWDL, err = tb.ProbeRoot(&pos)
		}
		if err == nil {
			out.WDL, out.DTZ, out.RootWDL = &wdl, &dtz, &rootWDL
			for _, m := range moves {
				out.Moves = append(out.Moves, probeMoveJSON{m.Move.UCI(), pos.SAN(m.Move), m.WDL, m.DTZ})
			}
			if wdl > 0 {
				var line []board.Move
				if line, err = tb.WinningLine(pos); err == nil {
					out.Line = strings.Fields(pos.SANLine(line))
				}
			}
		}
	}
	if err != nil {
		out.Error = err.Error()
		out.notInTables = errors.Is(err, endgame.ErrNotInTables)
	}
	return out
}

func writeProbeText(w io.Writer, out probeJSON) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", out.FEN)
	if out.Status != "" {
		fmt.Fprintf(&b, "  %s\n", out.Status)
	}
	if out.Error != "" {
		fmt.Fprintf(&b, "  %s\n", out.Error)
		io.WriteString(w, b.String())
		return
	}
	fmt.Fprintf(&b, "  %s, DTZ %d", endgame.WDLName(*out.WDL), *out.DTZ)
	if *out.RootWDL != *out.WDL {
		fmt.Fprintf(&b, " (%s at this half-move clock)", endgame.WDLName(*out.RootWDL))
	}
	b.WriteByte('\n')
	for _, m := range out.Moves {
		fmt.Fprintf(&b, "  %-8s %-6s %-13s DTZ %d\n", m.SAN, m.UCI, endgame.WDLName(m.WDL), m.DTZ)
	}
	if len(out.Line) > 0 {
		fmt.Fprintf(&b, "  line: %s\n", strings.Join(out.Line, " "))
	}
	io.WriteString(w, b.String())
}
