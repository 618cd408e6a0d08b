package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"time"

	"mateline.dev/mateline/puzzles"
)

// Writer writes outcomes in one output format. Render does the formatting
// and is safe to call from many goroutines (the batch workers call it), so
// Write, called in input order from one goroutine, only copies bytes.
type Writer interface {
	// Render formats one outcome.
	Render(o *puzzles.Answer) []byte
	// Write writes an outcome that Render formatted (rendered); with
	// rendered nil it renders it first.
	Write(o *puzzles.Answer, rendered []byte) error
	// Close finishes the output (the HTML page needs the summary).
	Close(s *Summary) error
}

// Options say how a writer starts its output.
type Options struct {
	// Appending says the output continues an existing file (--resume): no
	// CSV header or shard marker then.
	Appending bool
	// Shard names the shard of a sharded run ("i/n"; empty for none):
	// JSONL and EPD outputs start with a marker line, CSV names it in the
	// header's last column and gives it in each row, so that merge knows
	// each file.
	Shard string
	// Run describes the run, for the HTML report's header.
	Run RunInfo
}

// RunInfo describes a run, for the HTML report's header.
type RunInfo struct {
	Inputs   []string
	Settings string
	Version  string
	Date     time.Time
}

// New returns a writer of format to w.
func New(format Format, w io.Writer, o Options) (Writer, error) {
	var first []byte
	if o.Shard != "" && !o.Appending {
		first = []byte(shardMarker(format, o.Shard))
	}
	switch format {
	case FormatText:
		return &streamWriter{w: w, render: func(b *bytes.Buffer, o *puzzles.Answer) { Text(b, o) }}, nil
	case FormatJSONL:
		return &streamWriter{w: w, header: first, render: func(b *bytes.Buffer, o *puzzles.Answer) { JSON(b, o) }}, nil
	case FormatEPD:
		return &streamWriter{w: w, header: first, render: func(b *bytes.Buffer, o *puzzles.Answer) { EPD(b, o) }}, nil
	case FormatCSV:
		sw := &streamWriter{w: w, render: func(b *bytes.Buffer, out *puzzles.Answer) { csvRow(b, out, o.Shard) }}
		if !o.Appending {
			header := csvHeader
			if o.Shard != "" {
				header = append(append([]string(nil), csvHeader...), csvShardPrefix+o.Shard)
			}
			var b bytes.Buffer
			cw := csv.NewWriter(&b)
			cw.Write(header)
			cw.Flush()
			sw.header = b.Bytes()
		}
		return sw, nil
	case FormatHTML:
		return newHTMLWriter(w, o.Run)
	case FormatPGN:
		return &streamWriter{w: w, header: first, render: func(b *bytes.Buffer, o *puzzles.Answer) { PGN(b, o) }}, nil
	}
	return nil, fmt.Errorf("unknown format %q (want text, epd, jsonl, csv, html or pgn)", format)
}

// streamWriter writes one rendered chunk per outcome.
type streamWriter struct {
	w      io.Writer
	render func(b *bytes.Buffer, o *puzzles.Answer)
	header []byte // written before the first outcome
}

func (s *streamWriter) Render(o *puzzles.Answer) []byte {
	var b bytes.Buffer
	s.render(&b, o)
	return b.Bytes()
}

func (s *streamWriter) Write(o *puzzles.Answer, rendered []byte) error {
	if s.header != nil {
		if _, err := s.w.Write(s.header); err != nil {
			return err
		}
		s.header = nil
	}
	if rendered == nil {
		rendered = s.Render(o)
	}
	_, err := s.w.Write(rendered)
	return err
}

// Close writes the header (a CSV header, a shard marker) of an output
// that got no record, so that even an empty shard says which it is.
func (s *streamWriter) Close(*Summary) error {
	if s.header != nil {
		_, err := s.w.Write(s.header)
		s.header = nil
		return err
	}
	return nil
}
