package uci

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"mateline.dev/mateline/board"
)

// goParams are the parameters of a "go" command.
type goParams struct {
	mate, depth      int
	nodes            uint64
	moveTime         time.Duration
	wtime, btime     time.Duration
	winc, binc       time.Duration
	movesToGo        int
	infinite, ponder bool
	searchMoves      []string
	clockGiven       bool     // wtime or btime was given
	problems         []string // what could not be read; the rest still counts
	// badLimit: a limit's value could not be read, so the limits the GUI
	// meant are not known: the go is answered at once, without a search.
	badLimit bool
}

// parseGo reads the words after "go". A word it does not know is reported
// in problems and left out; a limit whose value it cannot read is reported
// too, and sets badLimit.
func parseGo(args []string) goParams {
	var p goParams
	num := func(i int, name string) (int64, bool) {
		if i+1 >= len(args) {
			p.problems = append(p.problems, name+" without a value")
			return 0, false
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil || n < 0 {
			p.problems = append(p.problems, fmt.Sprintf("%s %q is not a count", name, args[i+1]))
			return 0, false
		}
		return n, true
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch w {
		case "infinite":
			p.infinite = true
		case "ponder":
			p.ponder = true
		case "searchmoves":
			for i+1 < len(args) && !isGoWord(args[i+1]) {
				p.searchMoves = append(p.searchMoves, args[i+1])
				i++
			}
		case "mate", "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo":
			n, ok := num(i, w)
			if ok {
				i++
			} else if i+1 < len(args) && !isGoWord(args[i+1]) {
				i++ // skip the unreadable value
			}
			if !ok {
				p.badLimit = true
				continue
			}
			ms := time.Duration(n) * time.Millisecond
			switch w {
			case "mate":
				p.mate = int(min(n, 1000))
			case "depth":
				p.depth = int(min(n, 1000))
			case "nodes":
				p.nodes = uint64(n)
			case "movetime":
				p.moveTime = ms
			case "wtime":
				p.wtime, p.clockGiven = ms, true
			case "btime":
				p.btime, p.clockGiven = ms, true
			case "winc":
				p.winc = ms
			case "binc":
				p.binc = ms
			case "movestogo":
				p.movesToGo = int(min(n, 1000))
			}
		default:
			p.problems = append(p.problems, fmt.Sprintf("unknown go parameter %q", w))
		}
	}
	return p
}

// isGoWord reports whether w is a keyword of "go".
func isGoWord(w string) bool {
	switch w {
	case "searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo",
		"depth", "nodes", "mate", "movetime", "infinite":
		return true
	}
	return false
}

// positionResult is what a "position" command sets up.
type positionResult struct {
	pos   board.Position
	moves int    // moves played after the start position
	err   string // what was wrong; the position then stops before it
	ok    bool   // a start position was read (else the old one stays)
}

// parsePosition reads the words after "position": startpos or fen FEN,
// then optionally moves. A bad FEN leaves ok false; an illegal move stops
// the position at the last legal one, with err saying so.
func parsePosition(args []string) positionResult {
	var r positionResult
	if len(args) == 0 {
		r.err = "position needs startpos or fen FEN"
		return r
	}
	rest := args[1:]
	switch args[0] {
	case "startpos":
		r.pos = board.StartPosition()
	case "fen":
		end := 0
		for end < len(rest) && rest[end] != "moves" {
			end++
		}
		fen := strings.Join(rest[:end], " ")
		rest = rest[end:]
		if fen == "" {
			r.err = "position fen without a FEN"
			return r
		}
		if !isASCII(fen) {
			r.err = "bad FEN: not plain ASCII"
			return r
		}
		pos, err := board.ParseFEN(fen)
		if err != nil {
			r.err = fmt.Sprintf("bad FEN %q: %v", fen, err)
			return r
		}
		r.pos = pos
	default:
		r.err = fmt.Sprintf("position %q: want startpos or fen", args[0])
		return r
	}
	r.ok = true
	if len(rest) == 0 {
		return r
	}
	if rest[0] != "moves" {
		r.err = fmt.Sprintf("unexpected %q after the position (want moves)", rest[0])
		return r
	}
	for _, text := range rest[1:] {
		m, err := r.pos.ParseUCI(text)
		if err != nil {
			r.err = fmt.Sprintf("moves: number %d, %v; the position stops before it", r.moves+1, err)
			return r
		}
		r.pos.Play(m)
		r.moves++
	}
	return r
}

// parseSetOption reads "name N... [value V...]"; names and values may hold
// spaces.
func parseSetOption(args []string) (name, value string, hasValue bool, err error) {
	if len(args) == 0 || args[0] != "name" {
		return "", "", false, fmt.Errorf("setoption needs name NAME [value VALUE]")
	}
	i := 1
	for i < len(args) && args[i] != "value" {
		i++
	}
	name = strings.Join(args[1:i], " ")
	if name == "" {
		return "", "", false, fmt.Errorf("setoption without an option name")
	}
	if i < len(args) {
		return name, strings.Join(args[i+1:], " "), true, nil
	}
	return name, "", false, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
