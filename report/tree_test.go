package report

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/solver"
)

// treeOutcome solves a problem and adds its solution tree to fullDepth.
func treeOutcome(t *testing.T, fen string, mate, fullDepth int) puzzles.Answer {
	t.Helper()
	rec := epd.ParseLine("t.epd", 1, fen)
	sv := solver.New(16)
	opt := solver.Options{MaxMate: mate, AllKeys: true}
	o := puzzles.Solve(context.Background(), sv, &rec, opt, nil)
	if err := puzzles.AddTree(context.Background(), sv, &rec, &o, opt, fullDepth, nil); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestTreeText: the text and the JSON carry the solution tree; below the
// full depth the text gives the main line and says so.
func TestTreeText(t *testing.T) {
	o := treeOutcome(t, "8/8/8/2n5/2ppQ3/P1kp3R/b1PN4/1R1K1N2 w - - 0 1", 2, 0)
	key := o.Tree.Keys[0]
	var b bytes.Buffer
	Text(&b, &o)
	if !strings.Contains(b.String(), "1."+key.SAN+"!") {
		t.Errorf("text lacks the key:\n%s", b.String())
	}
	b.Reset()
	JSON(&b, &o)
	var back struct{ Tree puzzles.Tree }
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || len(back.Tree.Keys) != 1 || len(back.Tree.Keys[0].Defences) != len(key.Defences) {
		t.Errorf("JSON tree: %v %s", err, b.String())
	}

	o = treeOutcome(t, "K5R1/7p/7p/8/R3PkP1/3p1b2/3pBQn1/4n2N w - - 0 1", 3, 1)
	b.Reset()
	Text(&b, &o)
	if !strings.Contains(b.String(), "main line") {
		t.Errorf("text:\n%s", b.String())
	}
}
