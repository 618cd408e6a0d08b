package popeye

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
)

// Popeye's English keywords (docs/formats.md, "Popeye problem files").
var (
	commands = []string{"remark", "author", "origin", "title", "award", "protocol", "condition",
		"option", "stipulation", "sstipulation", "forsyth", "pieces", "twin", "zeroposition",
		"endproblem", "nextproblem", "LaTeX", "LaTeXPieces", "InitialGameArray"}
	options = []string{"Defence", "SetPlay", "WhiteToPlay", "Variations", "MoveNumbers",
		"StartMoveNumber", "NoWk", "Duplex", "NoBk", "Threat", "NoThreat", "Try", "MaxSolutions",
		"MaxFlightsquares", "Search", "MultiSolutions", "NoSymmetry", "NonTrivial", "KeepMatingPiece",
		"EnPassant", "NoBoard", "NoShortVariations", "HalfDuplex", "PostKeyPlay", "Intelligent",
		"MaxTime", "NoCastling", "Quodlibet", "StopOnShortSolutions", "Beep", "SuppressGrid",
		"WriteGrid", "CastlingMutuallyExclusive", "GoalIsEnd", "NullMoves", "UpToMoveNumber",
		"TrivialTriesAvoid", "MatesIn1"}
	twinning = []string{"move", "exchange", "stipulation", "sstipulation", "add", "remove",
		"continued", "rotate", "condition", "PolishType", "mirror", "shift", "substitute"}
	colours = []string{"white", "black", "neutral"}
)

// unsupportedOptions change the rules, or the play, beyond
// orthodox direct, help and self play.
var unsupportedOptions = map[string]string{
	"NoWk": "a position without a white king", "NoBk": "a position without a black king",
	"PostKeyPlay": "post-key play", "Quodlibet": "quodlibet stipulations", "GoalIsEnd": "GoalIsEnd",
	"NullMoves":  "null moves",
	"NonTrivial": "NonTrivial", "KeepMatingPiece": "KeepMatingPiece", "CastlingMutuallyExclusive": "mutually exclusive castlings",
}

// ignoredOptions are read and have no effect here: how Popeye
// prints or searches, not what a problem's solution is.
var ignoredOptions = map[string]bool{
	"MoveNumbers": true, "NoBoard": true, "Intelligent": true, "Beep": true, "SuppressGrid": true,
	"WriteGrid": true, "NoSymmetry": true, "Search": true, "MultiSolutions": true,
	"StopOnShortSolutions": true, "NoShortVariations": true, "TrivialTriesAvoid": true,
}

// reader reads problem files in Popeye's input language: each
// problem (and each twin) is a record.
type reader struct {
	source string
	lx     *lexer
	lang   *language // the language of the last BeginProblem
	queue  []record.Record
	ids    map[string]bool // ids given so far, to keep them unique
	// started: a problem was begun, so after NextProblem the next one
	// starts without BeginProblem.
	started bool
	done    bool
}

// NewReader reads problems in Popeye's input language (English,
// German or French keywords and piece letters, as the first word
// BeginProblem, AnfangProblem or DebutProbleme chooses; any unambiguous
// prefix of a keyword) from r. Each problem, each twin and,
// with Duplex, each side gives one record; a problem that cannot be read
// is one record with the error, naming the line and the word, and reading
// goes on with the next problem.
func NewReader(r io.Reader, source string) record.Reader {
	return &reader{source: source, lx: newLexer(r), ids: map[string]bool{}, lang: english}
}

// Next returns the next record, or io.EOF after the last.
func (pr *reader) Next() (record.Record, error) { return record.ParseNext(pr.NextRaw) }

// NextRaw returns the next record, already parsed.
func (pr *reader) NextRaw() (record.Raw, error) {
	for len(pr.queue) == 0 {
		if pr.done {
			if pr.lx.err != nil {
				return record.Raw{}, fmt.Errorf("%s: %w", pr.source, pr.lx.err)
			}
			return record.Raw{}, io.EOF
		}
		pr.readProblem()
	}
	rec := pr.queue[0]
	pr.queue = pr.queue[1:]
	return record.RawRecord(rec), nil
}

// wordError is a problem's error at a line and word.
type wordError struct {
	line int
	msg  string
}

func (e *wordError) Error() string { return e.msg }

func perrf(line int, format string, args ...any) error {
	return &wordError{line, fmt.Sprintf(format, args...)}
}

// parsedProblem is one problem as read, before its twins are set up.
type parsedProblem struct {
	line     int // the line of BeginProblem (or NextProblem before it)
	board    diagram
	stip     string
	stipLine int
	info     record.Problem
	halfDup  bool
	duplex   bool
	// whiteToPlay: a helpmate h#N starts with White, one ply shorter
	// (h#(N-1).5), as Popeye's WhiteToPlay.
	whiteToPlay bool
	noCastle    []board.Square // NoCastling squares
	ep          []board.Square // EnPassant squares
	twins       []twin
	zero        bool // a ZeroPosition: the diagram itself is not solved
	warnings    []string
}

// twin is one twin: its changes to the diagram (or, continued, to the
// twin before it).
type twin struct {
	line      int
	continued bool
	changes   []change
}

// change is one twinning change.
type change struct {
	kind string // a twinning name
	args []string
	line int
}

// readProblem reads one problem up to EndProblem or NextProblem and
// queues its records.
func (pr *reader) readProblem() {
	w, ok := pr.lx.next()
	if !ok {
		pr.done = true
		return
	}
	p := &parsedProblem{line: w.line, board: diagram{}}
	switch l := langOf(w.text); {
	case l != nil:
		pr.lang = l // BeginProblem: its language holds for the file
	case pr.started:
		// after NextProblem the next problem starts without BeginProblem
		pr.lx.peeked = &w
	default:
		pr.fail(p, perrf(w.line, "%q: a problem starts with BeginProblem (AnfangProblem, DebutProbleme)", w.text))
		return
	}
	pr.started = true
	err := pr.readCommands(p)
	if err != nil {
		pr.fail(p, err)
		return
	}
	pr.queueTwins(p)
}

// fail queues the record of a problem that could not be read, and skips
// to the end of the problem.
func (pr *reader) fail(p *parsedProblem, err error) {
	pr.queue = append(pr.queue, pr.errorRecord(p.line, pr.uniqueID(fmt.Sprintf("line:%d", p.line)), err))
	// skip to the problem's end
	for {
		w, ok := pr.lx.next()
		if !ok {
			pr.done = true
			return
		}
		if name, err := pr.lang.keyword(w.text, commands); err == nil && (name == "endproblem" || name == "nextproblem") {
			pr.done = name == "endproblem" && !pr.moreAfterEnd()
			return
		}
	}
}

// moreAfterEnd reports whether another problem follows EndProblem (a file
// of several EndProblem-terminated problems).
func (pr *reader) moreAfterEnd() bool {
	_, ok := pr.lx.peek()
	return ok
}

// readCommands reads a problem's commands up to its end.
func (pr *reader) readCommands(p *parsedProblem) error {
	lx := pr.lx
	for {
		w, ok := lx.next()
		if !ok {
			p.warnings = append(p.warnings, "the file ends without EndProblem")
			pr.done = true
			return nil
		}
		name, err := pr.lang.keyword(w.text, commands)
		if err != nil {
			return perrf(w.line, "%v: want a command (pieces, stipulation, option, twin, ...)", err)
		}
		switch name {
		case "endproblem":
			pr.done = !pr.moreAfterEnd()
			return nil
		case "nextproblem":
			return nil
		case "remark", "protocol", "LaTeX", "award":
			lx.restOfLine()
		case "author", "origin", "title":
			text := lx.restOfLine()
			field := map[string]*string{"author": &p.info.Author, "origin": &p.info.Origin, "title": &p.info.Title}[name]
			if *field != "" {
				*field += "; "
			}
			*field += text
		case "condition":
			c, _ := lx.next()
			return perrf(c.line, "condition %q: fairy conditions are not supported (orthodox chess only)", c.text)
		case "sstipulation":
			return perrf(w.line, "sstipulation: structured stipulations are not supported; write stipulation #N, h#N, h#N.5 or s#N")
		case "LaTeXPieces", "InitialGameArray":
			return perrf(w.line, "%s is not supported", name)
		case "stipulation":
			s, ok := lx.next()
			if !ok {
				return perrf(w.line, "stipulation: the stipulation is missing")
			}
			p.stip, p.stipLine = joinStipulation(lx, s.text), s.line
		case "option":
			if err := pr.readOptions(p); err != nil {
				return err
			}
		case "pieces":
			if err := pr.readPieces(p.board, w.line); err != nil {
				return err
			}
		case "forsyth":
			f, _ := lx.next()
			b, err := parseForsyth(pr.lang, f.text)
			if err != nil {
				return perrf(f.line, "forsyth %q: %v", f.text, err)
			}
			p.board = b
		case "twin", "zeroposition":
			if name == "zeroposition" {
				if len(p.twins) > 0 {
					return perrf(w.line, "ZeroPosition comes before the twins")
				}
				p.zero = true
			}
			t, err := pr.readTwin(w.line)
			if err != nil {
				return err
			}
			p.twins = append(p.twins, t)
		}
	}
}

// readOptions reads the words of an option command, up to a word that is
// not an option.
func (pr *reader) readOptions(p *parsedProblem) error {
	lx := pr.lx
	for {
		w, ok := lx.peek()
		if !ok {
			return nil
		}
		name, err := pr.lang.keyword(w.text, options)
		if err != nil {
			if _, cerr := pr.lang.keyword(w.text, commands); cerr == nil {
				return nil // the next command
			}
			return perrf(w.line, "option %v", err)
		}
		lx.next()
		if why, bad := unsupportedOptions[name]; bad {
			return perrf(w.line, "option %s: %s is not supported", name, why)
		}
		switch name {
		case "Defence", "Threat", "MaxSolutions", "MaxFlightsquares", "MaxTime", "StartMoveNumber", "UpToMoveNumber", "MatesIn1":
			if name == "MatesIn1" {
				continue
			}
			a, _ := lx.next()
			n, err := strconv.Atoi(a.text)
			if err != nil || n < 0 {
				return perrf(a.line, "option %s wants a number, not %q", name, a.text)
			}
			switch name {
			case "MaxSolutions":
				p.info.MaxSolutions = n
			case "Defence":
				p.info.Defence = n
			case "Threat":
				p.info.Threat = n
			case "MaxFlightsquares":
				p.info.MaxFlights = n + 1 // defended with more than n flights
			}
		case "EnPassant", "NoCastling":
			var sqs []board.Square
			for {
				a, ok := lx.peek()
				if !ok || !isSquares(a.text) { // "d2 d3 d4", or "d2d3d4"
					break
				}
				lx.next()
				for i := 0; i < len(a.text); i += 2 {
					sq, _ := board.ParseSquare(strings.ToLower(a.text[i : i+2]))
					sqs = append(sqs, sq)
				}
			}
			if name == "EnPassant" {
				if len(sqs) < 3 || len(sqs) > 4 {
					return perrf(w.line, "option EnPassant wants 3 or 4 squares (from, passed, to)")
				}
				p.ep = sqs
			} else {
				p.noCastle = append(p.noCastle, sqs...)
			}
		case "Variations":
			p.info.Variation = true
		case "NoThreat":
			p.info.NoThreat = true
		case "HalfDuplex":
			p.halfDup = true
		case "WhiteToPlay":
			p.whiteToPlay = true
		case "Duplex":
			p.duplex = true
		case "SetPlay":
			p.info.SetPlay = true
		case "Try":
			p.info.Try = true
		default:
			if !ignoredOptions[name] {
				p.warnings = append(p.warnings, fmt.Sprintf("option %s is read but not used", name))
			}
		}
	}
}

// readTwin reads a twin's changes.
func (pr *reader) readTwin(line int) (twin, error) {
	lx := pr.lx
	t := twin{line: line}
	for {
		w, ok := lx.peek()
		if !ok {
			return t, nil
		}
		name, err := pr.lang.keyword(w.text, twinning)
		if err != nil {
			if _, cerr := pr.lang.keyword(w.text, commands); cerr == nil || len(t.changes) > 0 || t.continued {
				return t, nil
			}
			return t, perrf(w.line, "twin %v", err)
		}
		if name == "stipulation" {
			// "stipulation" is also a command: a twin's own comes first
			if len(t.changes) > 0 && t.changes[len(t.changes)-1].kind == "stipulation" {
				return t, nil
			}
		}
		lx.next()
		nargs := map[string]int{"move": 2, "exchange": 2, "stipulation": 1, "remove": 1, "rotate": 1,
			"mirror": 1, "shift": 2, "substitute": 2, "PolishType": 0, "continued": 0}
		switch name {
		case "continued":
			t.continued = true
			continue
		case "condition", "sstipulation":
			return t, perrf(w.line, "twin %s is not supported (orthodox stipulations only)", name)
		case "add":
			c := change{kind: name, line: w.line}
			colour, _ := lx.next()
			c.args = append(c.args, colour.text)
			for {
				a, ok := lx.peek()
				if !ok || !isPieceSpec(pr.lang, a.text) {
					break
				}
				lx.next()
				c.args = append(c.args, a.text)
			}
			t.changes = append(t.changes, c)
			continue
		}
		c := change{kind: name, line: w.line}
		for i := 0; i < nargs[name]; i++ {
			a, ok := lx.next()
			if !ok {
				return t, perrf(w.line, "twin %s: an argument is missing", name)
			}
			c.args = append(c.args, a.text)
		}
		if name == "stipulation" {
			c.args[0] = joinStipulation(lx, c.args[0])
		}
		t.changes = append(t.changes, c)
	}
}

// readPieces reads a pieces command: colours, each followed by pieces
// with their squares ("white Ka3 Ra8 Pb2c2 black Kb1").
func (pr *reader) readPieces(b diagram, line int) error {
	lx := pr.lx
	colour := -1
	for {
		w, ok := lx.peek()
		if !ok {
			return nil
		}
		if c, err := pr.lang.keyword(w.text, colours); err == nil && len(w.text) >= 3 {
			if c == "neutral" {
				return perrf(w.line, "neutral pieces are not supported (orthodox chess only)")
			}
			lx.next()
			colour = map[string]int{"white": 0, "black": 1}[c]
			continue
		}
		if colour < 0 {
			return perrf(w.line, "pieces: %q: want white or black first", w.text)
		}
		if !isPieceSpec(pr.lang, w.text) {
			_, err := pr.lang.keyword(w.text, commands)
			if err == nil {
				return nil
			}
			if errors.Is(err, errAmbiguous) {
				return perrf(w.line, "%v", err)
			}
			return perrf(w.line, "pieces: %v", pieceError(pr.lang, w.text))
		}
		lx.next()
		if err := b.place(pr.lang, board.Color(colour), w.text); err != nil {
			return perrf(w.line, "pieces: %v", err)
		}
	}
}

// joinStipulation completes a stipulation whose number Popeye lets stand
// apart ("h# 2", even on the next line) with that number.
func joinStipulation(lx *lexer, text string) string {
	if text == "" || text[len(text)-1] >= '0' && text[len(text)-1] <= '9' {
		return text
	}
	if n, ok := lx.peek(); ok && strings.Trim(n.text, "0123456789.") == "" && n.text != "" {
		lx.next()
		return text + n.text
	}
	return text
}

// stipulationFor reads a problem's stipulation text.
func stipulationFor(text string, line int) (problem.Stipulation, error) {
	st, err := problem.Parse(text)
	if err != nil {
		return st, perrf(line, "%v (orthodox only)", err)
	}
	return st, nil
}

// queueTwins sets up every position the problem asks to solve and queues
// their records, in order; a twin that cannot be set up is an error
// record, and the twins after it are not read.
func (pr *reader) queueTwins(p *parsedProblem) {
	type stage struct {
		b     diagram
		stip  string
		sline int
		line  int
	}
	queue := func(s stage, label string) {
		sides := []bool{p.halfDup}
		if p.duplex {
			sides = []bool{false, true}
		}
		for _, other := range sides {
			pr.queue = append(pr.queue, pr.record(p, s.b, s.stip, s.sline, label, s.line, other, p.duplex))
		}
	}
	base := stage{b: p.board, stip: p.stip, sline: p.stipLine, line: p.line}
	if !p.zero {
		label := ""
		if len(p.twins) > 0 {
			label = "a)"
		}
		queue(base, label)
	}
	prev := base
	for i, t := range p.twins {
		from := base
		if t.continued {
			from = prev
		}
		next := stage{b: from.b.clone(), stip: from.stip, sline: from.sline, line: t.line}
		var labels []string
		for _, c := range t.changes {
			label, err := next.b.apply(pr.lang, c, &next.stip)
			if err != nil {
				pr.queue = append(pr.queue, pr.errorRecord(next.line, pr.uniqueID(fmt.Sprintf("line:%d", next.line)), err))
				return
			}
			if c.kind == "stipulation" {
				next.sline = c.line
			}
			labels = append(labels, label)
		}
		letter := i + 1
		if p.zero {
			letter = i
		}
		queue(next, fmt.Sprintf("%c) %s", 'a'+letter, strings.Join(labels, "  ")))
		prev = next
	}
}

// errorRecord is the record of a problem that cannot be solved, at line
// line, with id: its error names the line of the word at fault when it
// knows it (a wordError), else line.
func (pr *reader) errorRecord(line int, id string, err error) record.Record {
	at := line
	var pe *wordError
	if errors.As(err, &pe) {
		at = pe.line
	}
	rec := record.ErrorRecord(pr.source, at, err)
	rec.Line, rec.ID = line, id
	return rec
}

// record makes the record of one position to solve.
func (pr *reader) record(p *parsedProblem, b diagram, stipText string, stipLine int, label string, line int, other, duplex bool) record.Record {
	info := p.info
	info.Twin = label
	if duplex {
		info.Twin = strings.TrimSpace(info.Twin + map[bool]string{false: " (White's play)", true: " (Black's play, duplex)"}[other])
	}
	id := fmt.Sprintf("line:%d", line)
	if info.Title != "" {
		id = info.Title
		if label != "" {
			id += " " + strings.Fields(label)[0]
		}
		if duplex && other {
			id += " duplex"
		}
	} else if duplex && other {
		id += " duplex"
	}
	rec := record.Record{Source: pr.source, Line: line, ID: pr.uniqueID(id), Problem: &info, Warnings: p.warnings}
	fail := func(err error) record.Record {
		e := pr.errorRecord(line, rec.ID, err)
		e.Problem = rec.Problem
		return e
	}
	if stipText == "" {
		return fail(errors.New("the problem has no stipulation"))
	}
	st, err := stipulationFor(stipText, stipLine)
	if err != nil {
		return fail(err)
	}
	if p.whiteToPlay {
		if st.Kind == problem.Help && !st.Half {
			st.Moves, st.Half = st.Moves-1, true
		} else {
			rec.Warnings = append(slices.Clip(rec.Warnings), "option WhiteToPlay applies to h#N only: ignored")
		}
	}
	// Problems state who starts by the stipulation (FirstSide);
	// HalfDuplex swaps.
	side := st.FirstSide()
	if other {
		side = side.Other()
	}
	fen := b.fen(side, p.noCastle, p.ep)
	pos, err := board.ParseFEN(fen)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", fen, err))
	}
	rec.SetPosition(pos)
	if st.IsDirectMate() {
		rec.Claim.Mate = problem.Mate(st.Moves)
	} else {
		rec.Stip = st
	}
	switch {
	case st.IsDirectMate() && (info.MaxFlights > 0 || info.Threat > 0):
		rec.Warnings = append(slices.Clip(rec.Warnings), "options Threat and MaxFlightsquares are used for selfmates only")
	case st.HasSolutions() && (info.MaxFlights > 0 || info.Threat > 0):
		rec.Warnings = append(slices.Clip(rec.Warnings), "options Threat and MaxFlightsquares are for selfmates: not used in a "+st.String())
	case st.HasSolutions() && info.Try:
		rec.Warnings = append(slices.Clip(rec.Warnings), "option Try: a "+st.String()+" has no tries")
	}
	return rec
}

// uniqueID returns id, or id with its occurrence number when the file
// already gave it.
func (pr *reader) uniqueID(id string) string {
	out := id
	for n := 2; pr.ids[out]; n++ {
		out = fmt.Sprintf("%s (%d)", id, n)
	}
	pr.ids[out] = true
	return out
}
