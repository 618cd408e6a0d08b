package report

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/corentings/chess/v2"

	"mateline.dev/mateline/epd"
	"mateline.dev/mateline/pgn"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/solver"
)

// TestPGNOutput: each record becomes a game that our reader and the chess
// library read back: the position, the proved line as the main line, the
// cook as a variation, the tree's defences as variations, what was proved
// in comments, and the record's id for resume and merge.
func TestPGNOutput(t *testing.T) {
	sv := solver.New(8)
	cooked := outcomeFor(t, `6k1/5ppp/8/8/8/8/8/R3R1K1 w - - dm 1; id "cooked";`, true)
	rec := epd.ParseLine("t.epd", 2, `r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - dm 4; id "philidor";`)
	opt := solver.Options{MaxMate: 4, AllKeys: true}
	tree := puzzles.Solve(context.Background(), sv, &rec, opt)
	if err := puzzles.AddTree(context.Background(), sv, &rec, &tree, opt, 0); err != nil {
		t.Fatal(err)
	}
	bad := epd.ParseLine("t.epd", 3, `8/8/8/8/8/8/8/8 w - - dm 1; id "bad {id}";`)
	unreadable := puzzles.Validate(context.Background(), sv, &bad, solver.Options{}, 1)
	var b bytes.Buffer
	w, err := New(FormatPGN, &b, Options{Shard: "0/1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []*puzzles.Outcome{&cooked, &tree, &unreadable} {
		if err := w.Write(o, nil); err != nil {
			t.Fatal(err)
		}
	}
	out := b.String()
	if !strings.HasPrefix(out, "% mateline shard 0/1\n") || !strings.HasSuffix(out, " *\n\n\n") {
		t.Errorf("marker or ending:\n%s", out)
	}
	for _, want := range []string{
		`[Event "cooked"]`, `[Result "1-0"]`, `[SetUp "1"]`, `[FEN "6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1"]`, `[Annotator "mateline"]`,
		`{mateline: id "cooked" status mate verdict cooked}`, `1. Ra8# (1. Re8# {cook: also mates in 1}) 1-0`,
		`{mateline: id "philidor" status mate}`, "1. Nf7+ Kg8 2. Nh6+",
		`{mateline: id "bad \u007bid\u007d" status error verdict illegal}`,
	} {
		// lines wrap anywhere between words
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("the PGN lacks %q:\n%s", want, out)
		}
	}
	// Our reader: the games, and the records as resume and merge read them.
	sp := pgn.NewSplitter(strings.NewReader(out))
	var games []*pgn.Game
	for {
		c, err := sp.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		g, err := pgn.Parse(c)
		if err != nil {
			t.Fatalf("our reader: %v", err)
		}
		games = append(games, g)
	}
	if len(games) != 3 {
		t.Fatalf("%d games read back", len(games))
	}
	main, _ := games[1].MainLine()
	if len(main) != 7 || games[1].Start.FEN() != "r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1" {
		t.Errorf("Philidor's main line: %v from %s", main, games[1].Start.FEN())
	}
	// The tree's other defences are variations: after 1. Nf7+ Kg8 2. Nh6+
	// (double check) Black has Kh8 and Kf8.
	n := games[1].Root.Children[0].Children[0].Children[0]
	if len(n.Children) != 2 {
		t.Errorf("defences after 2. Nh6+: %d", len(n.Children))
	}
	r, err := NewReader(strings.NewReader(out), FormatPGN)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, string(l.Verdict)+":"+l.ID)
	}
	if r.Shard() != "0/1" || strings.Join(ids, " ") != "cooked:cooked :philidor illegal:bad {id}" {
		t.Errorf("read back: shard %q, %v", r.Shard(), ids)
	}
	// The chess library reads every game.
	sc := chess.NewScanner(strings.NewReader(out))
	count := 0
	for sc.HasNext() {
		g, err := sc.ParseNext()
		if err != nil {
			t.Fatalf("the chess library, game %d: %v", count+1, err)
		}
		count++
		if count == 1 && (len(g.Moves()) != 1 || g.Method() != chess.Checkmate || g.GetTagPair("Result") != "1-0") {
			t.Errorf("the chess library reads game 1 as %v, %v", g.Moves(), g.Method())
		}
	}
	if count != 3 {
		t.Errorf("the chess library reads %d games", count)
	}
}
