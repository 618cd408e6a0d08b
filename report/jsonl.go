package report

import (
	"encoding/json"
	"io"

	"mateline.dev/mateline/puzzles"
)

// JSON writes o's outcome as one JSON line (docs/formats.md).
func JSON(w io.Writer, o *puzzles.Answer) error {
	b, err := json.Marshal(&o.Outcome)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
