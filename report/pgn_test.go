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
	"mateline.dev/mateline/pgnrec"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
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
	tree := puzzles.Solve(context.Background(), sv, &rec, opt, nil)
	if err := puzzles.AddTree(context.Background(), sv, &rec, &tree, opt, 0, nil); err != nil {
		t.Fatal(err)
	}
	bad := epd.ParseLine("t.epd", 3, `8/8/8/8/8/8/8/8 w - - dm 1; id "bad {id}";`)
	unreadable := puzzles.Validate(context.Background(), sv, &bad, solver.Options{}, 1)
	var b bytes.Buffer
	w, err := New(FormatPGN, &b, Options{Shard: "0/1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []*puzzles.Answer{&cooked, &tree, &unreadable} {
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

// TestPGNKeepsTheInput: a PGN puzzle's own comments, NAGs and variations
// come back with the proved line (a variation the line does not play
// marked the author's), and a game whose FEN tag is illegal keeps the tag
// for its reader to fix; an unreadable EPD line is kept in its comment.
func TestPGNKeepsTheInput(t *testing.T) {
	text := "[Event \"Test\"]\n[White \"Mate in four\"]\n[FEN \"r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1\"]\n[SetUp \"1\"]\n\n" +
		"{Philidor's legacy} 1. Nf7+ {the key} Kg8 2. Nh6+ Kh8 (2... Kf8 3. Qf7#) 3. Qg8+ $1 Rxg8 4. Nf7# 1-0\n\n" +
		"[Event \"Illegal\"]\n[White \"Mate in two\"]\n[FEN \"K6k/8/8/8/8/8/8/K7 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Ka7 *\n"
	recs, err := record.ReadAll(pgnrec.NewReader(strings.NewReader(text), "t.pgn"))
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	sv := solver.New(8)
	var b bytes.Buffer
	for i := range recs {
		o := puzzles.Validate(context.Background(), sv, &recs[i], solver.Options{}, 1)
		PGN(&b, &o)
	}
	out := b.String()
	for _, want := range []string{"{Philidor's legacy}", "1. Nf7+\n{the key}", "({the author's} 2... Kf8 3. Qf7#)", "Qg8+ $1", "verdict ok",
		`[FEN "K6k/8/8/8/8/8/8/K7 w - - 0 1"]`, "verdict illegal"} {
		if !strings.Contains(strings.ReplaceAll(out, "\n", " "), strings.ReplaceAll(want, "\n", " ")) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	bad := epd.ParseLine("t.epd", 3, `8/8/8/8 w - - bm #2;`)
	o := puzzles.Validate(context.Background(), sv, &bad, solver.Options{}, 1)
	b.Reset()
	EPD(&b, &o)
	if s := b.String(); !strings.Contains(s, `(the line: "8/8/8/8 w - - bm #2;")`) || !strings.HasPrefix(s, unreadablePrefix) {
		t.Errorf("unreadable EPD record: %q", s)
	}
}
