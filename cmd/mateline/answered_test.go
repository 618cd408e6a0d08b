package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The positions of issue 54, from matetrack.epd: a mate in 20 (line 6171)
// and a mate in 18 (line 6068), each proved shortest in a fraction of a
// second, whose records came only at the limit, or never.
const (
	line6171 = "K4bk1/1r4p1/1qb2pnR/3p2NR/7r/7R/1p5n/QRRRRRRR w - - 0 1"
	line6068 = "5bk1/p3p1p1/p3P1P1/p7/p7/p7/P7/7K w - - 0 1"
)

// jsonRecord is the part of a JSON record these tests read.
type jsonRecord struct {
	Status  string    `json:"status"`
	Mate    int       `json:"mate"`
	Keys    []string  `json:"keys"`
	PV      []string  `json:"pv"`
	Partial bool      `json:"partial"`
	Verdict string    `json:"verdict"`
	Cut     string    `json:"cut"`
	Nodes   uint64    `json:"nodes"`
	Proof   *struct{} `json:"proof"`
}

// TestAnsweredAtOnce: a record is written as soon as its question is
// answered, with a limit or without: the mate in 20 and the mate in 18
// with --timeout 0 and with the default limit, the mate in 18 capped at
// its own length, validated with its right claim, and certified under a
// two-second limit.
func TestAnsweredAtOnce(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "k18.epd"), line6068+" bm #18; id \"matetrack:6068\";\n")
	for _, c := range []struct {
		name    string
		args    []string
		mate    int
		verdict string
		proof   bool
		// within: the record comes sooner than this; each is answered
		// in well under a second here, and a record held back to its
		// limit (30 s, or 8 s, or never with --timeout 0) comes later,
		// so the bound is half the limit, room for a loaded machine
		within time.Duration
	}{
		{"6171 --timeout 0", []string{"solve", "--timeout", "0", "--fen", line6171}, 20, "", false, 15 * time.Second},
		{"6171 default limit", []string{"solve", "--fen", line6171}, 20, "", false, 15 * time.Second},
		{"6068 --timeout 0", []string{"solve", "--timeout", "0", "--fen", line6068}, 18, "", false, 15 * time.Second},
		{"6068 --mate 18", []string{"solve", "--timeout", "8s", "--mate", "18", "--fen", line6068}, 18, "", false, 4 * time.Second},
		{"6068 validate bm #18", []string{"validate", "--timeout", "30s", "k18.epd"}, 18, "ok", false, 15 * time.Second},
		{"6068 --proof --timeout 2s", []string{"solve", "--timeout", "2s", "--proof", "k18.proof.jsonl", "--fen", line6068}, 18, "", true, 10 * time.Second},
	} {
		start := time.Now()
		args := append([]string{c.args[0], "--json", "-j", "1", "--threads", "1", "--no-progress"}, c.args[1:]...)
		code, out, errOut := runBinary(t, dir, args...)
		took := time.Since(start)
		var rec jsonRecord
		if err := json.Unmarshal([]byte(firstLine(out)), &rec); err != nil || code != 0 {
			t.Errorf("%s: exit %d, %v\n%s%s", c.name, code, err, out, errOut)
			continue
		}
		if rec.Status != "mate" || rec.Mate != c.mate || len(rec.Keys) == 0 || len(rec.PV) != 2*c.mate-1 || rec.Partial || rec.Verdict != c.verdict {
			t.Errorf("%s: %s\nwant mate %d proved shortest with its key and line, verdict %q", c.name, out, c.mate, c.verdict)
		}
		if c.proof {
			if rec.Proof == nil {
				t.Errorf("%s: no certificate: %s", c.name, out)
			} else if code, out, errOut := runBinary(t, dir, "check", "k18.proof.jsonl"); code != 0 || !strings.Contains(out, "lower bound certified") {
				t.Errorf("%s: check: exit %d %s%s", c.name, code, out, errOut)
			}
		}
		if took > c.within {
			t.Errorf("%s: the record came after %v", c.name, took)
		}
	}
}

// TestLimitsKept: a record stopped by --nodes spends at most the limit
// (within a look at the limits), and one stopped by --timeout comes within
// the process's own start-up time of it; the keys and the line are read within it.
func TestLimitsKept(t *testing.T) {
	dir := t.TempDir()
	// The opening position: no mate to find, every limit is reached.
	start := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	_, out, _ := runBinary(t, dir, "solve", "--json", "--no-progress", "--nodes", "2000000", "--fen", start)
	var rec jsonRecord
	if err := json.Unmarshal([]byte(firstLine(out)), &rec); err != nil || rec.Status != "limit" {
		t.Fatalf("--nodes: %s %v", out, err)
	}
	if rec.Nodes > 2000000+2000000/100 {
		t.Errorf("--nodes 2000000 spent %d nodes", rec.Nodes)
	}
	// The process starts and ends too, and the machine may be loaded by
	// other tests: the slack is 100 ms plus three times what a mate in one
	// takes from start to end here and now (the target, 50 ms, is measured
	// without load by scripts/promptness.sh; docs/performance.md).
	began := time.Now()
	runBinary(t, dir, "solve", "--json", "--no-progress", "--threads", "1", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	slack := 100*time.Millisecond + 3*time.Since(began)
	for _, limit := range []string{"300ms", "1s"} {
		began := time.Now()
		_, out, _ = runBinary(t, dir, "solve", "--json", "--no-progress", "--threads", "1", "--timeout", limit, "--fen", start)
		took := time.Since(began)
		d, _ := time.ParseDuration(limit)
		if took > d+slack {
			t.Errorf("--timeout %s: the record came after %v (slack %v)", limit, took, slack)
		}
		if err := json.Unmarshal([]byte(firstLine(out)), &rec); err != nil || rec.Status != "limit" {
			t.Errorf("--timeout %s: %s", limit, out)
		}
	}
}

// TestInterruptLine6171: the run of issue 54 that printed "no mate in 20
// moves or fewer (proved)" for this mate in 20 after SIGINT: at every
// moment, from before the proof to after it, what is printed is what was
// proved.
func TestInterruptLine6171(t *testing.T) {
	dir := t.TempDir()
	for _, at := range []time.Duration{5 * time.Millisecond, 30 * time.Millisecond, 80 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond} {
		args := []string{"solve", "--no-progress", "--timeout", "0", "--threads", "1", "--fen", line6171}
		out := runStopped(t, binary(t), dir, args, at, true)
		checkClaims(t, fmt.Sprintf("line 6171, SIGINT after %v", at), out, 20, "", "text")
	}
}
