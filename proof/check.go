package proof

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/corentings/chess/v2"
)

// Report is the outcome of checking one certificate.
type Report struct {
	Name        string
	FEN         string
	Mate        int    // the certified mate, signed moves
	LowerBound  string // "certified", "depth", "not certified", "from tables" or "none", as the file says
	LowerPlies  int    // with "certified" or "depth": no mate within these plies
	Nodes       int    // proof nodes in the file
	Refutations int    // refutation records in the file
	Checked     int    // positions the checker examined
	Elapsed     time.Duration
	// Failure is nil when the certificate holds.
	Failure *Failure
}

// OK reports whether the certificate holds.
func (r *Report) OK() bool { return r.Failure == nil }

// Failure names the first node where a certificate does not hold.
type Failure struct {
	FEN     string // the position
	Move    string // the move concerned, if any
	Problem string
}

func (f *Failure) Error() string {
	if f.Move != "" {
		return fmt.Sprintf("at %s, move %s: %s", f.FEN, f.Move, f.Problem)
	}
	return fmt.Sprintf("at %s: %s", f.FEN, f.Problem)
}

// FormatError is a certificate that cannot be read: it names the line.
type FormatError struct {
	Name string
	Line int
	Msg  string
}

func (e *FormatError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Name, e.Msg)
}

// maxLine bounds a certificate line (a refute record of a position with
// every move answered is a few kilobytes).
const maxLine = 1 << 20

// record is any line of a certificate.
type record struct {
	Format   *string            `json:"format"`
	Version  *int               `json:"version"`
	FEN      *string            `json:"fen"`
	Mate     *int               `json:"mate"`
	Attacker *string            `json:"attacker"`
	Node     *string            `json:"node"`
	Move     *string            `json:"move"`
	Refute   *string            `json:"refute"`
	Hold     *string            `json:"hold"`
	Plies    *int               `json:"plies"`
	Replies  *map[string]string `json:"replies"`
	Reply    *string            `json:"reply"`
	End      *endRecord         `json:"end"`
}

type endRecord struct {
	Nodes       *int   `json:"nodes"`
	Refutations *int   `json:"refutations"`
	LowerBound  string `json:"lower_bound"`
	LowerPlies  int    `json:"lower_bound_plies"`
	Reason      string `json:"reason"`
}

// certificate is a file read into memory.
type certificate struct {
	fen      string
	mate     int
	attacker chess.Color
	nodes    map[string]string // position key -> attacker move
	refutes  map[string]refutation
	// refuteRecords counts the refute lines; a position may have several
	// (the one with the most plies counts).
	refuteRecords int
	hold          *holdRecord
	lower         string
	lowerPlies    int
	reason        string
}

type refutation struct {
	plies   int
	replies map[string]string
}

type holdRecord struct {
	key   string
	plies int
	reply string
}

// Check reads the certificate in r (named name in messages) and checks it.
// expectFEN, when not empty, is the position the certificate must be for.
// A file that cannot be read returns a *FormatError; a certificate that
// does not hold returns a Report with Failure set.
func Check(r io.Reader, name, expectFEN string) (Report, error) {
	start := time.Now()
	rep := Report{Name: name}
	c, err := read(r, name)
	if err != nil {
		return rep, err
	}
	rep.FEN, rep.Mate, rep.LowerBound, rep.LowerPlies = c.fen, c.mate, c.lower, c.lowerPlies
	rep.Nodes, rep.Refutations = len(c.nodes), c.refuteRecords
	if c.hold != nil {
		rep.Refutations++
	}
	root, err := parseFEN(c.fen)
	if err != nil {
		return rep, &FormatError{name, 1, "header: " + err.Error()}
	}
	if expectFEN != "" {
		want, err := parseFEN(expectFEN)
		if err != nil {
			return rep, &FormatError{name, 0, "the expected position: " + err.Error()}
		}
		if key(want) != key(root) {
			rep.Failure = &Failure{FEN: c.fen, Problem: fmt.Sprintf("the certificate is for this position, not for %s", expectFEN)}
			return rep, nil
		}
	}
	ck := &checker{c: c, proved: map[string]int{}, refuted: map[string]int{}}
	rep.Failure = ck.verify(root)
	rep.Checked = ck.examined
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// read parses the lines of a certificate.
func read(r io.Reader, name string) (*certificate, error) {
	c := &certificate{nodes: map[string]string{}, refutes: map[string]refutation{}}
	br := bufio.NewReaderSize(r, 64<<10)
	bad := func(line int, format string, args ...any) error {
		return &FormatError{name, line, fmt.Sprintf(format, args...)}
	}
	line, headerSeen, ended := 0, false, false
	var end *endRecord
	for {
		text, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, bad(line+1, "line longer than %d bytes", br.Size())
		}
		if len(text) == 0 && errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, bad(line+1, "%v", err)
		}
		line++
		text = bytes.TrimRight(text, "\r\n")
		if len(bytes.TrimSpace(text)) == 0 {
			return nil, bad(line, "empty line")
		}
		if ended {
			return nil, bad(line, "a line after the trailer")
		}
		var rec record
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			return nil, bad(line, "not a certificate record: %v", err)
		}
		if dec.More() {
			return nil, bad(line, "more than one JSON value on the line")
		}
		switch {
		case !headerSeen:
			if rec.Format == nil || *rec.Format != "mateline-proof" {
				return nil, bad(line, "not a mateline proof certificate (the first line has no \"format\":\"mateline-proof\")")
			}
			if rec.Version == nil || *rec.Version != 1 {
				return nil, bad(line, "format version %v: this checker reads version 1", deref(rec.Version))
			}
			if rec.FEN == nil || rec.Mate == nil || rec.Attacker == nil {
				return nil, bad(line, "the header needs fen, mate and attacker")
			}
			if *rec.Mate == 0 {
				return nil, bad(line, "mate 0: nothing to certify")
			}
			switch *rec.Attacker {
			case "w":
				c.attacker = chess.White
			case "b":
				c.attacker = chess.Black
			default:
				return nil, bad(line, "attacker %q: want w or b", *rec.Attacker)
			}
			c.fen, c.mate = *rec.FEN, *rec.Mate
			headerSeen = true
		case rec.Node != nil:
			if rec.Move == nil {
				return nil, bad(line, "a node without a move")
			}
			if _, dup := c.nodes[*rec.Node]; dup {
				return nil, bad(line, "node %q appears twice", *rec.Node)
			}
			c.nodes[*rec.Node] = *rec.Move
		case rec.Refute != nil:
			if rec.Plies == nil || *rec.Plies < 1 || *rec.Plies%2 != 1 || rec.Replies == nil {
				return nil, bad(line, "a refute record needs odd plies and replies")
			}
			c.refuteRecords++
			if old, dup := c.refutes[*rec.Refute]; dup && old.plies >= *rec.Plies {
				break // a record for more plies covers fewer
			}
			c.refutes[*rec.Refute] = refutation{*rec.Plies, *rec.Replies}
		case rec.Hold != nil:
			if rec.Plies == nil || *rec.Plies < 0 || *rec.Plies%2 != 0 || rec.Reply == nil || c.hold != nil {
				return nil, bad(line, "a hold record needs even plies and a reply, once")
			}
			c.hold = &holdRecord{*rec.Hold, *rec.Plies, *rec.Reply}
		case rec.End != nil:
			end, ended = rec.End, true
		default:
			return nil, bad(line, "a record of no known kind")
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	if !headerSeen {
		return nil, bad(0, "empty: no header")
	}
	if end == nil {
		return nil, bad(line, "truncated: no trailer line (\"end\")")
	}
	refutations := c.refuteRecords
	if c.hold != nil {
		refutations++
	}
	if end.Nodes == nil || *end.Nodes != len(c.nodes) || end.Refutations == nil || *end.Refutations != refutations {
		return nil, bad(line, "truncated or altered: the trailer counts %v nodes and %v refutations, the file holds %d and %d",
			deref(end.Nodes), deref(end.Refutations), len(c.nodes), refutations)
	}
	switch end.LowerBound {
	case "certified", "depth", "not certified", "from tables", "none":
	default:
		return nil, bad(line, "lower_bound %q: want certified, depth, not certified, from tables or none", end.LowerBound)
	}
	c.lower, c.lowerPlies, c.reason = end.LowerBound, end.LowerPlies, end.Reason
	return c, nil
}

func deref(p *int) any {
	if p == nil {
		return "no"
	}
	return *p
}

// parseFEN reads a position with the chess library, refusing input it
// cannot take safely (it panics on non-ASCII bytes).
func parseFEN(fen string) (*chess.Position, error) {
	for i := 0; i < len(fen); i++ {
		if fen[i] >= 0x80 || fen[i] < 0x20 {
			return nil, fmt.Errorf("FEN %q: not plain ASCII", fen)
		}
	}
	if len(strings.Fields(fen)) == 4 {
		fen += " 0 1"
	}
	opt, err := chess.FEN(fen)
	if err != nil {
		return nil, fmt.Errorf("FEN %q: %v", fen, err)
	}
	return chess.NewGame(opt).Position(), nil
}
