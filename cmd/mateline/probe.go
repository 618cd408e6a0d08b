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
	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/dtm/tablefile"
	"mateline.dev/mateline/endgame"
	"mateline.dev/mateline/solver"
	"mateline.dev/mateline/tablebase"
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
		Usage:     "look positions up in the tables: distance to mate (up to 5 men, and 6 without pawns), Syzygy WDL and DTZ, every move, the best line",
		ArgsUsage: "FEN...",
		Description: "Prints the win/draw/loss value (win, cursed win, draw, blessed loss, loss: cursed and\n" +
			"blessed are decisive results that the 50-move rule turns into draws) and the distance to\n" +
			"zeroing (DTZ, plies to the next capture, pawn move or mate), then every legal move with\n" +
			"its WDL and DTZ, best first; for a won position, the line that follows the tables' best\n" +
			"moves to mate or to the next zeroing move. Give each FEN as one quoted argument ('startpos'\n" +
			"is the initial position); a checkmate or a stalemate is named.\n" +
			"Positions with castling rights or more pieces than the tables hold are 'not in tables'.\n" +
			"Positions of up to 5 men also get their exact distance to mate (DTM: +N the side to\n" +
			"move mates in N moves, -N it is mated in N, 0 no forced mate), per move too, and the\n" +
			"DTM-optimal line, from mateline's own tables (built on first use; no Syzygy needed).\n" +
			"So do six men without pawns, from a table built with 'mateline tables build KRNvKNN' or\n" +
			"--dtm-build 6 (tens of minutes each; the record, KRNvKNN, mates in 262 moves).\n\n" +
			"Example: mateline probe '8/8/8/6k1/8/5QK1/1r6/8 w - - 0 1'",
		Flags: []cli.Flag{
			syzygyFlag(),
			dtmFlags(tablefile.MaxMen)[0],
			dtmFlags(tablefile.MaxMen)[1],
			dtmFlags(tablefile.MaxMen)[2],
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per position"},
		},
		Action: runProbe,
	}
}

type probeMoveJSON struct {
	UCI string `json:"uci"`
	SAN string `json:"san"`
	WDL *int   `json:"wdl,omitempty"`
	DTZ *int   `json:"dtz,omitempty"`
	DTM *int   `json:"dtm,omitempty"`
}

type probeJSON struct {
	FEN     string          `json:"fen"`
	WDL     *int            `json:"wdl,omitempty"`
	DTZ     *int            `json:"dtz,omitempty"`
	RootWDL *int            `json:"root_wdl,omitempty"`
	Moves   []probeMoveJSON `json:"moves,omitempty"`
	Line    []string        `json:"line,omitempty"`
	DTM     *int            `json:"dtm,omitempty"`
	DTMLine []string        `json:"dtm_line,omitempty"`
	Status  string          `json:"status,omitempty"` // checkmate or stalemate
	Error   string          `json:"error,omitempty"`

	notInTables bool // the error only says the position is not covered
}

func runProbe(_ context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() == 0 {
		return usagef("probe: give at least one FEN")
	}
	tb, store, err := openSomeTables(cmd)
	if err != nil {
		return err
	}
	var dt solver.DTM
	if store != nil {
		defer store.Close()
		dt = store.Prober(dtm.BoundedMen)
	}
	return eachFEN(cmd, "probed", func(fen string) (probeJSON, bool) {
		out := probeOne(tb, dt, store, fen)
		return out, out.Error == "" || out.notInTables
	}, writeProbeText)
}

func probeOne(tb *endgame.Tablebase, dt solver.DTM, store *dtm.Store, fen string) probeJSON {
	if fen == "startpos" {
		fen = board.StartFEN
	}
	pos, err := board.ParseFEN(fen)
	if err != nil {
		return probeJSON{FEN: fen, Error: err.Error()}
	}
	return probeReport(tablebase.Tables{Syzygy: tb, DTM: store}.Answer(pos, dt))
}

// probeReport writes the tables' answer as probe prints it: the DTM
// moves in DTM order with Syzygy's values added, else Syzygy's order.
func probeReport(a tablebase.Answer) probeJSON {
	pos := &a.Position
	out := probeJSON{FEN: pos.FEN(), Status: a.Ending, WDL: a.WDL, DTZ: a.DTZ, RootWDL: a.RootWDL}
	if a.DTM != nil {
		root := int(*a.DTM)
		out.DTM = &root
	}
	byUCI := map[string]int{}
	for _, m := range a.DTMMoves {
		v := int(m.Mate)
		byUCI[m.Move.UCI()] = len(out.Moves)
		out.Moves = append(out.Moves, probeMoveJSON{UCI: m.Move.UCI(), SAN: pos.SAN(m.Move), DTM: &v})
	}
	if len(a.DTMLine) > 0 {
		out.DTMLine = strings.Fields(pos.SANLine(a.DTMLine))
	}
	for _, m := range a.Syzygy {
		w, z := m.WDL, m.DTZ
		if i, ok := byUCI[m.Move.UCI()]; ok {
			out.Moves[i].WDL, out.Moves[i].DTZ = &w, &z
		} else if a.DTM == nil {
			out.Moves = append(out.Moves, probeMoveJSON{UCI: m.Move.UCI(), SAN: pos.SAN(m.Move), WDL: &w, DTZ: &z})
		}
	}
	if len(a.WinningLine) > 0 {
		out.Line = strings.Fields(pos.SANLine(a.WinningLine))
	}
	if a.Err != nil {
		var nt *tablebase.NotInTables
		out.Error, out.notInTables = a.Err.Error(), errors.As(a.Err, &nt)
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
	if out.DTM != nil {
		fmt.Fprintf(&b, "  DTM %s\n", dtmText(*out.DTM))
	}
	if out.WDL != nil {
		fmt.Fprintf(&b, "  %s, DTZ %d", endgame.WDLName(*out.WDL), *out.DTZ)
		if *out.RootWDL != *out.WDL {
			fmt.Fprintf(&b, " (%s at this half-move clock)", endgame.WDLName(*out.RootWDL))
		}
		b.WriteByte('\n')
	}
	for _, m := range out.Moves {
		fmt.Fprintf(&b, "  %-8s %-6s", m.SAN, m.UCI)
		if m.DTM != nil {
			fmt.Fprintf(&b, " DTM %-14s", dtmText(*m.DTM))
		}
		if m.WDL != nil {
			fmt.Fprintf(&b, " %-13s DTZ %d", endgame.WDLName(*m.WDL), *m.DTZ)
		}
		b.WriteString("\n")
	}
	if len(out.DTMLine) > 0 {
		fmt.Fprintf(&b, "  DTM line: %s\n", strings.Join(out.DTMLine, " "))
	}
	if len(out.Line) > 0 {
		fmt.Fprintf(&b, "  line: %s\n", strings.Join(out.Line, " "))
	}
	io.WriteString(w, b.String())
}

// dtmText writes a signed distance to mate for people.
func dtmText(m int) string {
	switch {
	case m > 0:
		return fmt.Sprintf("+%d (mate in %d)", m, m)
	case m < 0:
		return fmt.Sprintf("%d (mated in %d)", m, -m)
	}
	return "0 (no forced mate)"
}
