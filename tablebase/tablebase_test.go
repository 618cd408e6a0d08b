package tablebase

import (
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/endgame"
	"mateline.dev/mateline/internal/shareddata"
	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/tablebase/dtmline"
)

// openDTM is a store in a fresh directory that builds tables of up to
// three men on first use (a fraction of a second each).
func openDTM(t *testing.T, buildMen int) *dtm.Store {
	t.Helper()
	s := dtm.Open(t.TempDir(), dtm.Options{BuildMen: buildMen, Workers: 1})
	t.Cleanup(func() { s.Close() })
	return s
}

func parse(t *testing.T, fen string) board.Position {
	t.Helper()
	pos, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// TestAnswerDTM: the root's distance, one value per legal move with the
// best first, and a line of the right length that ends in mate, on rows
// of Gaviota's tables (the shared data's dtm3-vectors.tsv; plies there,
// moves here).
func TestAnswerDTM(t *testing.T) {
	store := openDTM(t, 3)
	tables := Tables{DTM: store}
	dt := store.Prober(3)
	cases := []struct {
		fen    string
		gtbDTM int // Gaviota's signed plies
	}{
		{"8/3K4/7q/8/6k1/8/8/8 b - - 0 60", 11},
		{"8/K7/8/3Q4/5k2/8/8/8 b - - 0 6", -16},
		{"8/8/8/8/7K/5R2/8/4k3 b - - 45 48", -20},
		{"7k/8/r7/8/8/8/8/6K1 w - - 33 14", -24},
		{"8/8/3P4/1k6/8/8/8/2K5 w - - 74 15", 17},
		{"8/8/8/3p4/5k2/8/8/K7 b - - 0 38", 23},
		{"8/8/1k6/Q7/8/8/3K4/8 b - - 0 16", 0},
	}
	for _, c := range cases {
		checkAnswer(t, tables, dt, c.fen, c.gtbDTM)
	}
	if n := checkGaviotaRows(t, tables, dt); n > 0 {
		t.Logf("%d rows of Gaviota's tables", n)
	}
}

// checkGaviotaRows checks every row of the shared Gaviota vectors, when
// MATELINE_DATA is set; it returns how many.
func checkGaviotaRows(t *testing.T, tables Tables, dt dtmline.DTM) int {
	if os.Getenv("MATELINE_DATA") == "" {
		return 0
	}
	data, err := os.ReadFile(shareddata.Path(t, "gaviota", "dtm3-vectors.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 || len(f) < 3 {
			continue
		}
		plies, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatalf("dtm3-vectors.tsv:%d: %v", i+1, err)
		}
		checkAnswer(t, tables, dt, f[0], plies)
		n++
	}
	return n
}

// checkAnswer checks one position's DTM answer against Gaviota's signed
// plies.
func checkAnswer(t *testing.T, tables Tables, dt dtmline.DTM, fen string, gtbPlies int) {
	t.Helper()
	want := problem.Mate((gtbPlies + 1) / 2)
	if gtbPlies < 0 {
		want = problem.Mate(gtbPlies / 2)
	}
	pos := parse(t, fen)
	a := tables.Answer(pos, dt)
	if a.Err != nil || a.DTM == nil {
		t.Errorf("%s: no DTM answer: %v", fen, a.Err)
		return
	}
	var l board.MoveList
	pos.LegalMoves(&l)
	if *a.DTM != want || len(a.DTMMoves) != len(l.Slice()) {
		t.Errorf("%s: DTM %d with %d moves, Gaviota %d with %d", fen, *a.DTM, len(a.DTMMoves), want, len(l.Slice()))
		return
	}
	if a.DTMMoves[0].Mate != want {
		t.Errorf("%s: the first move %s keeps %d, not the root's %d", fen, a.DTMMoves[0].Move.UCI(), a.DTMMoves[0].Mate, want)
	}
	for i := 1; i < len(a.DTMMoves); i++ {
		if dtmline.Better(a.DTMMoves[i].Mate, a.DTMMoves[i-1].Mate) {
			t.Errorf("%s: move %d better than the one before it", fen, i)
		}
	}
	checkLine(t, fen, pos, a.DTMLine, want)
}

// checkLine: a line of a mate in m (m > 0) or a mated in -m ends in mate
// after 2m-1 or 2m plies; with no mate it is empty.
func checkLine(t *testing.T, fen string, pos board.Position, line []board.Move, m problem.Mate) {
	t.Helper()
	want := 0
	switch {
	case m > 0:
		want = 2*int(m) - 1
	case m < 0:
		want = -2 * int(m)
	}
	if len(line) != want {
		t.Errorf("%s: line of %d plies, want %d", fen, len(line), want)
		return
	}
	for _, mv := range line {
		var l board.MoveList
		pos.LegalMoves(&l)
		if !slices.Contains(l.Slice(), mv) {
			t.Errorf("%s: line move %s is not legal", fen, mv.UCI())
			return
		}
		pos.Play(mv)
	}
	if want > 0 && !pos.IsCheckmate() {
		t.Errorf("%s: the line does not end in mate", fen)
	}
}

// TestMoveValueMatchesValues: on random positions of three and four men,
// each move's value for the mover is the DTM the tables give the
// position it leads to, seen one move earlier, and the root's value is
// the best of them (the retrograde step's rule, checked from outside).
func TestMoveValueMatchesValues(t *testing.T) {
	store := openDTM(t, 4)
	tables := Tables{DTM: store}
	dt := store.Prober(4)
	n := int(testpos.EnvCount(t, "MATELINE_TABLEBASE_CASES", 60))
	testpos.FewMen(7, n, func(pos board.Position) {
		if pos.Occupied().Count() > 4 {
			return
		}
		a := tables.Answer(pos, dt)
		if a.DTM == nil {
			t.Errorf("%s: no DTM answer: %v", pos.FEN(), a.Err)
			return
		}
		root, err := tables.Values(&pos)
		if err != nil || root.DTM == nil || *root.DTM != *a.DTM {
			t.Errorf("%s: Values gives %v (%v), Answer %d", pos.FEN(), root.DTM, err, *a.DTM)
		}
		for _, m := range a.DTMMoves {
			child := pos
			child.Play(m.Move)
			v, err := tables.Values(&child)
			var want problem.Mate
			switch {
			case child.IsCheckmate():
				want = 1
			case err != nil:
				t.Errorf("%s %s: %v", pos.FEN(), m.Move.UCI(), err)
				continue
			case v.DTM == nil:
				want = 0 // stalemate
			case *v.DTM > 0:
				want = -*v.DTM
			case *v.DTM < 0:
				want = -*v.DTM + 1
			}
			if m.Mate != want {
				t.Errorf("%s %s: move value %d, the child's DTM says %d", pos.FEN(), m.Move.UCI(), m.Mate, want)
			}
			if dtmline.Better(m.Mate, *a.DTM) {
				t.Errorf("%s: move %s (%d) better than the root's %d", pos.FEN(), m.Move.UCI(), m.Mate, *a.DTM)
			}
		}
		checkLine(t, pos.FEN(), pos, a.DTMLine, *a.DTM)
	})
}

// TestReasons: what the answer says when no table answers.
func TestReasons(t *testing.T) {
	none := Tables{DTM: openDTM(t, 0)}
	cases := []struct {
		tables Tables
		fen    string
		want   string // in the reason
	}{
		{none, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "castling rights"},
		{none, board.StartFEN, "castling rights"},
		{none, "4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1", "10 men"},
		{none, "8/8/8/4k3/8/8/2RPK3/7r w - - 0 1", "the KRPvKR table is not built: 'mateline tables build KRPvKR' builds it"},
		{Tables{}, "8/8/8/4k3/8/8/2RPK3/7r w - - 0 1", "5 men: the tables hold at most 0"},
	}
	for _, c := range cases {
		pos := parse(t, c.fen)
		var err error
		if err = c.tables.Covered(&pos); err == nil {
			_, err = c.tables.Values(&pos)
			if a := c.tables.Answer(pos, nil); a.Err == nil || !strings.Contains(a.Err.Error(), c.want) {
				t.Errorf("%s: Answer says %v, want %q", c.fen, a.Err, c.want)
			}
		}
		var nt *NotInTables
		if !errors.As(err, &nt) || !strings.Contains(nt.Why, c.want) {
			t.Errorf("%s: %v, want a NotInTables saying %q", c.fen, err, c.want)
		}
	}
	// a checkmate and a stalemate need no table
	for _, fen := range []string{"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"} {
		pos := parse(t, fen)
		if _, err := none.Values(&pos); err != nil {
			t.Errorf("%s: %v", fen, err)
		}
		if a := none.Answer(pos, nil); a.Err != nil || a.Ending == "" {
			t.Errorf("%s: ending %q, error %v", fen, a.Ending, a.Err)
		}
	}
}

// TestDTMAgreesWithSyzygy: on random positions of up to four men, the
// DTM and Syzygy halves of one answer, two independent kinds of table,
// agree: a side that mates wins, a side mated loses, no mate is a draw
// (the WDL of the files, before the 50-move rule: a cursed win is a win
// here), and both list every legal move.
func TestDTMAgreesWithSyzygy(t *testing.T) {
	tb, err := endgame.Open(shareddata.Path(t, "syzygy"))
	if err != nil {
		t.Fatal(err)
	}
	store := openDTM(t, 4)
	tables := Tables{Syzygy: tb, DTM: store}
	dt := store.Prober(4)
	rng := rand.New(rand.NewPCG(3, 4))
	n := int(testpos.EnvCount(t, "MATELINE_TABLEBASE_CASES", 200))
	checked := 0
	testpos.FewMen(rng.Uint64(), n, func(pos board.Position) {
		if pos.Occupied().Count() > 4 {
			return
		}
		a := tables.Answer(pos, dt)
		if a.Err != nil || a.DTM == nil || a.WDL == nil {
			t.Errorf("%s: %v", pos.FEN(), a.Err)
			return
		}
		checked++
		w, m := *a.WDL, *a.DTM
		if (m > 0) != (w > 0) || (m < 0) != (w < 0) {
			t.Errorf("%s: DTM %d, WDL %d", pos.FEN(), m, w)
		}
		if len(a.Syzygy) != len(a.DTMMoves) {
			t.Errorf("%s: %d Syzygy moves, %d DTM moves", pos.FEN(), len(a.Syzygy), len(a.DTMMoves))
		}
	})
	t.Logf("%d positions, DTM and WDL agree", checked)
}
