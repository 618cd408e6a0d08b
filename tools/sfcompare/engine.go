package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/corentings/chess/v2"
	chessuci "github.com/corentings/chess/v2/uci"
)

// uciEngine is a UCI engine process, driven by the UCI client of the
// chess library.
type uciEngine struct {
	label string
	eng   *chessuci.Engine
	dir   string // a wrapper script's folder, removed on close
}

// startEngine starts command (a path, and arguments if any) and sets its
// options ("Name=Value"). The client starts a bare path, so a command with
// arguments runs through a small shell script that adds them.
func startEngine(label, command string, options []string) (*uciEngine, error) {
	fields := strings.Fields(command)
	if len(fields) == 0 {
		return nil, fmt.Errorf("engine %s: no command", label)
	}
	e := &uciEngine{label: label}
	path := fields[0]
	if len(fields) > 1 {
		dir, err := os.MkdirTemp("", "sfcompare-*")
		if err != nil {
			return nil, err
		}
		e.dir = dir
		quoted := make([]string, len(fields))
		for i, f := range fields {
			quoted[i] = strconv.Quote(f)
		}
		path = filepath.Join(dir, label)
		if err := os.WriteFile(path, []byte("#!/bin/sh\nexec "+strings.Join(quoted, " ")+" \"$@\"\n"), 0o755); err != nil {
			e.close()
			return nil, err
		}
	}
	eng, err := chessuci.New(path)
	if err != nil {
		e.close()
		return nil, fmt.Errorf("starting %s: %w (Stockfish: apt-get install stockfish)", command, err)
	}
	e.eng = eng
	cmds := []chessuci.Cmd{chessuci.CmdUCI}
	for _, o := range options {
		name, value, _ := strings.Cut(o, "=")
		cmds = append(cmds, chessuci.CmdSetOption{Name: name, Value: value})
	}
	if err := eng.Run(append(cmds, chessuci.CmdIsReady)...); err != nil {
		e.close()
		return nil, fmt.Errorf("engine %s: %w", label, err)
	}
	return e, nil
}

// search runs one position and returns the mate score of the engine's last
// info line with its PV, the nodes and the time taken.
func (e *uciEngine) search(fen string, n int, movetime time.Duration, mateMode bool) (result, error) {
	opt, err := chess.FEN(fen)
	if err != nil {
		return result{}, fmt.Errorf("the chess library rejects %s: %w", fen, err)
	}
	pos := chess.NewGame(opt).Position()
	if err := e.eng.Run(chessuci.CmdUCINewGame, chessuci.CmdPosition{Position: pos}, chessuci.CmdIsReady); err != nil {
		return result{}, fmt.Errorf("engine %s: %w", e.label, err)
	}
	goCmd := chessuci.CmdGo{MoveTime: movetime}
	if mateMode {
		goCmd.Mate = abs(n)
	}
	start := time.Now()
	if err := e.eng.Run(goCmd); err != nil {
		return result{}, fmt.Errorf("engine %s: %w", e.label, err)
	}
	res := result{time: time.Since(start)}
	info := e.eng.SearchResults().Info
	res.nodes = uint64(max(info.Nodes, 0))
	if res.mate = info.Score.Mate; res.mate != 0 {
		for _, m := range info.PV {
			res.pv = append(res.pv, m.String())
		}
	}
	return res, nil
}

func (e *uciEngine) close() {
	if e.eng != nil {
		e.eng.Close()
	}
	if e.dir != "" {
		os.RemoveAll(e.dir)
	}
}
