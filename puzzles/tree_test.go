package puzzles_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/solver"
)

// A published problem with its solution, as the source gives it (S is
// written N, and + and # are left out: sources differ on marking them).
type knownProblem struct {
	source string
	fen    string
	mate   int
	key    string
	threat []string // the threat's first moves; nil for none
	// variations: a defence after the key, and every answer the source
	// gives for it (all mate soonest; several are duals).
	variations map[string][]string
	// deeper: lines of the tree that must be there, from the key on.
	deeper [][]string
}

var knownProblems = []knownProblem{
	{
		source: "D. Lebeck, Mate in Two!!, 1992; meson database PID 27224 (bstephen.me.uk/meson)",
		fen:    "8/8/8/2n5/2ppQ3/P1kp3R/b1PN4/1R1K1N2 w - - 0 1", mate: 2, key: "Qb7",
		threat: []string{"Qb2", "Qb4"},
		variations: map[string][]string{
			"Bxb1": {"Nxb1", "Qb4"}, "Nxb7": {"Ne4"}, "Bb3": {"Qb4"},
			"Nb3": {"Ne4", "Qb4"}, "Na4": {"Ne4", "Qb4"}, "Na6": {"Ne4", "Qb2"},
		},
	},
	{
		source: "K. Moen, Best Problems 2023; meson PID 276652",
		fen:    "2n1B3/8/q3P2R/2Pk1NP1/1P2N3/p2p1KB1/3P4/2R4Q w - - 0 1", mate: 2, key: "Kf2",
		threat:     []string{"Ned6"},
		variations: map[string][]string{"Qxe6": {"Nf6"}, "Qc4": {"Nc3"}, "Qd6": {"Nexd6"}, "Nd6": {"Nexd6"}},
	},
	{
		source: "G. Guidelli, 2nd Prize L'Eco degli Scacchi 1916-17; The Problemist, 'Two-Move Secrets' (B. Barnes)",
		fen:    "4KQ2/3pN3/1PpkpbR1/8/1P1p1r1p/4N3/b6B/2q1R3 w - - 0 1", mate: 2, key: "Kf7",
		threat: []string{"Qb8"},
		variations: map[string][]string{
			"Ke5": {"Nc4"}, "e5": {"N7d5"}, "Be5": {"N7f5"}, "Bxe7": {"Bxf4"},
			"Bg5": {"N3f5"}, "Bg7": {"N3f5"}, "Bh8": {"N3f5"},
		},
	},
	{
		source: "L. Makaronets, Best Problems 2019; meson PID 194741",
		fen:    "K5R1/7p/7p/8/R3PkP1/3p1b2/3pBQn1/4n2N w - - 0 1", mate: 3, key: "Qb6",
		threat: []string{"Qxh6"},
		variations: map[string][]string{
			"Bxe4": {"Qc6"}, "Ke5": {"Qc7"}, "Bxe2": {"Qf6"}, "Bxg4": {"Rxg4"}, "h5": {"Qh6"},
		},
		deeper: [][]string{
			{"Qb6", "Bxe4", "Qc6", "Ke3", "Rxe4"}, {"Qb6", "Bxe4", "Qc6", "Ke3", "Qxe4"},
			{"Qb6", "Bxe4", "Qc6", "Ke5", "Rxe4"}, {"Qb6", "Ke5", "Qc7", "Ke6", "Ra6"},
			{"Qb6", "Ke5", "Qc7", "Kf6", "Ra6"}, {"Qb6", "Bxe2", "Qf6", "Ke3", "Qf2"},
			{"Qb6", "Bxg4", "Rxg4", "Ke5", "Ra5"}, {"Qb6", "h5", "Qh6", "Ke5", "Re8"},
		},
	},
	{
		source: "D. M. Howard, 3rd Prize record.Problem Observer 2007-08; meson PID 78844",
		fen:    "B7/8/7Q/4k3/KNp5/8/5P2/8 w - - 0 1", mate: 3, key: "Qg6",
		threat:     nil,
		variations: map[string][]string{"Kd4": {"Qf6"}, "Kf4": {"Qh5"}, "c3": {"Nd3"}},
		deeper: [][]string{
			{"Qg6", "Kd4", "Qf6", "Kc5", "Na6"}, {"Qg6", "Kf4", "Qh5", "c3", "Nd3"}, {"Qg6", "c3", "Nd3", "Kd4", "Qe4"},
		},
	},
}

func bare(san string) string { return strings.TrimRight(san, "+#") }

func bareAll(sans []string) []string {
	out := make([]string, len(sans))
	for i, s := range sans {
		out[i] = bare(s)
	}
	slices.Sort(out)
	return out
}

// hasLine reports whether the tree holds the line of moves from a key.
func hasLine(t *puzzles.Tree, line []string) bool {
	for _, k := range t.Keys {
		if bare(k.SAN) == line[0] && moveHas(k, line[1:]) {
			return true
		}
	}
	return false
}

func moveHas(m *puzzles.TreeMove, rest []string) bool {
	if len(rest) == 0 {
		return true
	}
	for _, d := range m.Defences {
		if bare(d.SAN) != rest[0] {
			continue
		}
		if len(rest) == 1 {
			return true
		}
		for _, a := range d.Answers {
			if bare(a.SAN) == rest[1] && moveHas(a, rest[2:]) {
				return true
			}
		}
	}
	return false
}

// TestKnownSolutionTrees cross-checks the tree against published solutions
// of #2 and #3 problems with threats and duals.
func TestKnownSolutionTrees(t *testing.T) {
	for _, p := range knownProblems {
		t.Run(p.key, func(t *testing.T) {
			rec := epd.ParseLine("t.epd", 1, p.fen)
			if rec.Err != nil {
				t.Fatal(rec.Err)
			}
			sv := solver.New(16)
			opt := solver.Options{MaxMate: p.mate, AllKeys: true}
			o := puzzles.Solve(context.Background(), sv, &rec, opt, nil)
			if o.Status != "mate" || int(o.Mate) != p.mate {
				t.Fatalf("%s: %s mate %d", p.source, o.Status, o.Mate)
			}
			if err := puzzles.AddTree(context.Background(), sv, &rec, &o, opt, 0, nil); err != nil {
				t.Fatal(err)
			}
			tr := o.Tree
			if len(tr.Keys) != 1 || bare(tr.Keys[0].SAN) != p.key {
				t.Fatalf("%s: keys %v, want %s", p.source, o.KeysSAN, p.key)
			}
			key := tr.Keys[0]
			var threat []string
			if key.Threat != nil {
				threat = key.Threat.Moves
			}
			if !slices.Equal(bareAll(threat), bareAll(p.threat)) {
				t.Errorf("%s: threat %v, want %v", p.source, threat, p.threat)
			}
			for def, answers := range p.variations {
				found := false
				for _, d := range key.Defences {
					if bare(d.SAN) != def {
						continue
					}
					found = true
					var got []string
					for _, a := range d.Answers {
						got = append(got, a.SAN)
					}
					if !slices.Equal(bareAll(got), bareAll(answers)) {
						t.Errorf("%s: 1...%s answered by %v, want %v", p.source, def, got, answers)
					}
					if d.Dual != (len(answers) > 1) {
						t.Errorf("%s: 1...%s dual %v", p.source, def, d.Dual)
					}
				}
				if !found {
					t.Errorf("%s: no defence 1...%s in the tree", p.source, def)
				}
			}
			for _, line := range p.deeper {
				if !hasLine(tr, line) {
					t.Errorf("%s: the tree lacks %v", p.source, line)
				}
			}
		})
	}
}

// TestTreeDepth: below the full depth, a variation gives its main line and
// the tree says so; a mated position lists every move of the side to move.
func TestTreeDepth(t *testing.T) {
	rec := epd.ParseLine("t.epd", 1, "K5R1/7p/7p/8/R3PkP1/3p1b2/3pBQn1/4n2N w - - 0 1")
	sv := solver.New(16)
	opt := solver.Options{MaxMate: 3, AllKeys: true}
	o := puzzles.Solve(context.Background(), sv, &rec, opt, nil)
	if err := puzzles.AddTree(context.Background(), sv, &rec, &o, opt, 1, nil); err != nil {
		t.Fatal(err)
	}
	if !o.Tree.Cut || o.Tree.Note == "" {
		t.Fatalf("a depth-1 tree of a #3 says nothing of its cut: %+v", o.Tree)
	}
	k := o.Tree.Keys[0]
	if len(k.Defences) != 0 || len(k.MainLine) != 4 {
		t.Errorf("depth 1: %d defences, main line %v", len(k.Defences), k.MainLine)
	}
	mated := epd.ParseLine("t.epd", 1, "8/1Q6/8/8/k7/8/2K5/8 b - -")
	o = puzzles.Solve(context.Background(), sv, &mated, solver.Options{MaxMate: 3, AllKeys: true}, nil)
	if err := puzzles.AddTree(context.Background(), sv, &mated, &o, opt, 0, nil); err != nil {
		t.Fatal(err)
	}
	if o.Mate != -2 || len(o.Tree.Defences) != 2 || len(o.Tree.Keys) != 0 {
		t.Fatalf("mated in 2: %d, tree %+v", o.Mate, o.Tree)
	}
	for _, d := range o.Tree.Defences {
		if len(d.Answers) == 0 {
			t.Errorf("defence %s has no answer", d.SAN)
		}
	}
}
