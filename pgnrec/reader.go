package pgnrec

import (
	"errors"
	"fmt"
	"io"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/pgn"
	"mateline.dev/mateline/record"
)

// reader reads the games of a PGN file as records.
type reader struct {
	source string
	sp     *pgn.Splitter
}

// NewReader returns a reader of the games of a PGN stream.
func NewReader(r io.Reader, source string) record.Reader {
	return &reader{source: source, sp: pgn.NewSplitter(r)}
}

// Next returns the next game's record, or io.EOF after the last.
func (r *reader) Next() (record.Record, error) { return record.ParseNext(r.NextRaw) }

// NextRaw returns the next game, to be parsed on any goroutine (see
// puzzles.Raw).
func (r *reader) NextRaw() (record.Raw, error) {
	c, err := r.sp.Next()
	if err != nil {
		return record.Raw{}, err
	}
	source := r.source
	return record.NewRaw(c.Line, "", func(int, string) record.Record { return chunkRecord(source, c) }), nil
}

// chunkRecord makes the record of one game.
func chunkRecord(source string, c pgn.Chunk) record.Record {
	rec := record.Record{Source: source, Line: c.Line, ID: fmt.Sprintf("game:%d", c.Number)}
	g, err := pgn.Parse(c)
	if err != nil {
		line := c.Line
		var pe *pgn.Error
		if errors.As(err, &pe) {
			line, err = pe.Line, fmt.Errorf("game %d: %w", pe.Game, pe.Err)
		}
		rec.Err = &record.LineError{Source: source, Line: line, Err: err}
		if g != nil && len(g.Tags) > 0 {
			// the tags as read, for a PGN output to keep
			rec.PGN = &record.PGNInfo{Game: c.Number, Event: g.Tag("Event"), Site: g.Tag("Site"), White: g.Tag("White"), Black: g.Tag("Black"), Tags: g.Tags}
		}
		return rec
	}
	info := &record.PGNInfo{Game: c.Number, Event: g.Tag("Event"), Site: g.Tag("Site"), White: g.Tag("White"), Black: g.Tag("Black"),
		Tags: g.Tags, Tree: g}
	rec.PGN = info
	rec.SetPosition(g.Start)
	rec.Warnings = append(rec.Warnings, g.Warnings...)
	main, _ := g.MainLine()
	for i, m := range main {
		if m == board.NoMove {
			main = main[:i] // a null move: the rest is no solution
			break
		}
	}
	rec.Claim.Line = main
	if len(main) > 0 {
		rec.Claim.Keys = main[:1]
	}
	lineMate := lineMate(rec.Pos, main)
	stated, from := statedMate(g)
	switch {
	case stated != 0:
		rec.Claim.Mate, info.ClaimFrom = stated, from
		if lineMate != 0 && lineMate != stated {
			rec.Warnings = append(rec.Warnings, fmt.Sprintf("the %s says %s, the main line mates in %d moves: the %s is the claim",
				from, stated.Describe(), lineMate.Moves(), from))
		}
	case lineMate != 0 && g.Tag("FEN") != "":
		// A game from the initial position that ends in mate is a game,
		// not a puzzle: only a set-up position makes its line a claim.
		rec.Claim.Mate, info.ClaimFrom = lineMate, "main line"
	}
	return rec
}
