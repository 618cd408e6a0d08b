package solver

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/problem"
)

// TestDTMAgreesWithSearch solves random 4-man positions both ways: from
// the DTM tables, and by search without them. The mates and the key sets
// must be equal.
func TestDTMAgreesWithSearch(t *testing.T) {
	store := dtm.Open(t.TempDir(), dtm.Options{BuildMen: 4})
	defer store.Close()
	tables := store.Prober(4)
	r := rand.New(rand.NewPCG(7, 1))
	pieces := "QRrnbpP"
	sv := New(16)
	compared := 0
	for tries := 0; compared < 40 && tries < 20000; tries++ {
		men := "Kk" + string(pieces[r.IntN(2)]) + string(pieces[2+r.IntN(5)])
		fen := testpos.Placement(r, men)
		pos, err := board.ParseFEN(fen + " w - - 0 1")
		if err != nil || pos.IsCheckmate() || pos.IsStalemate() {
			continue
		}
		m, ok := tables.ProbeDTM(&pos)
		if !ok || m <= 0 || m > 4 {
			continue
		}
		fromTables := sv.Solve(context.Background(), pos, Options{MaxMate: 5, AllKeys: true, DTM: tables})
		bySearch := sv.Solve(context.Background(), pos, Options{MaxMate: 5, AllKeys: true, Nodes: 5_000_000})
		if bySearch.Status != StatusMate {
			continue
		}
		compared++
		keys := func(ms []board.Move) []string {
			var out []string
			for _, m := range ms {
				out = append(out, m.UCI())
			}
			slices.Sort(out)
			return out
		}
		if fromTables.Mate != bySearch.Mate || !slices.Equal(keys(fromTables.Keys), keys(bySearch.Keys)) {
			t.Errorf("%s: tables %v %v, search %v %v", pos.FEN(), fromTables.Mate, keys(fromTables.Keys), bySearch.Mate, keys(bySearch.Keys))
		}
		if !fromTables.AllKeys || !bySearch.AllKeys {
			t.Errorf("%s: AllKeys asked, results say %v and %v", pos.FEN(), fromTables.AllKeys, bySearch.AllKeys)
		}
		// One rule for both: without AllKeys, one key, and it says so.
		one := sv.Solve(context.Background(), pos, Options{MaxMate: 5, DTM: tables})
		if len(one.Keys) != 1 || one.AllKeys || !slices.Contains(fromTables.Keys, one.Keys[0]) {
			t.Errorf("%s: without AllKeys the tables give keys %v (AllKeys %v)", pos.FEN(), keys(one.Keys), one.AllKeys)
		}
		if err := CheckLine(pos, fromTables.Mate, fromTables.PV); err != nil {
			t.Errorf("%s: table line %v: %v", pos.FEN(), fromTables.PV, err)
		}
	}
	if compared < 20 {
		t.Fatalf("only %d positions compared", compared)
	}
}

// TestDTMInSearchWithRule50: under the 50-move rule the tables give a
// search node its value only when the mate fits in the plies its clock
// leaves; a mate in 9 (17 plies) with 10 plies left on the clock is no
// mate, with 20 left it is a mate in 9.
func TestDTMInSearchWithRule50(t *testing.T) {
	store := dtm.Open(t.TempDir(), dtm.Options{BuildMen: 3})
	defer store.Close()
	tables := store.Prober(3)
	for _, c := range []struct {
		clock int
		want  problem.Mate
	}{{0, 9}, {80, 9}, {83, 9}, {84, 0}, {90, 0}} {
		pos, err := board.ParseFEN("8/8/8/3k4/8/8/8/K5Q1 w - - " + strconv.Itoa(c.clock) + " 1")
		if err != nil {
			t.Fatal(err)
		}
		r := New(16).Solve(context.Background(), pos, Options{MaxMate: 10, Rule50: true, SearchDTM: tables, Nodes: 20_000_000})
		if c.want == 0 && r.Status != StatusCapped || c.want != 0 && r.Mate != c.want {
			t.Errorf("clock %d: %v mate %v (nodes %d), want mate %v", c.clock, r.Status, r.Mate, r.Nodes, c.want)
		}
	}
}
