package pgn

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/corentings/chess/v2"

	"mateline.dev/mateline/board"
)

// games splits and parses every game of a text.
func games(t *testing.T, text string) ([]*Game, []error) {
	t.Helper()
	sp := NewSplitter(strings.NewReader(text))
	var gs []*Game
	var errs []error
	for {
		c, err := sp.Next()
		if errors.Is(err, io.EOF) {
			return gs, errs
		}
		if err != nil {
			t.Fatal(err)
		}
		g, err := Parse(c)
		gs = append(gs, g)
		errs = append(errs, err)
	}
}

// line writes a tree's main line and variations as UCI moves, variations
// in parentheses, for comparison.
func line(n *Node) string {
	var parts []string
	for len(n.Children) > 0 {
		main := n.Children[0]
		parts = append(parts, main.Move.UCI())
		for _, v := range n.Children[1:] {
			sub := line(v)
			if sub != "" {
				sub = " " + sub
			}
			parts = append(parts, "("+v.Move.UCI()+sub+")")
		}
		n = main
	}
	return strings.Join(parts, " ")
}

func TestParse(t *testing.T) {
	cases := []struct {
		name, text string
		fen        string // "" for the initial position
		moves      string // line()
		result     string
		check      func(g *Game) string
	}{
		{"tags, FEN and a main line",
			"[Event \"#1 Mate in one\"]\n[Site \"?\"]\n[White \"Mate in one\"]\n[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]\n[SetUp \"1\"]\n\n1.Ra8# 1-0\n",
			"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "1-0",
			func(g *Game) string {
				if g.Tag("white") != "Mate in one" || g.Tag("Event") != "#1 Mate in one" {
					return "tags"
				}
				return ""
			}},
		{"Black to move, numbered 1...",
			"[FEN \"6k1/8/8/8/8/8/r4PPP/6K1 b - - 0 1\"]\n\n1... Ra1# *",
			"6k1/8/8/8/8/8/r4PPP/6K1 b - - 0 1", "a2a1", "*", nil},
		{"comments, NAGs, glyphs, nested variations",
			"1. e4 {best by test} e5 $1 2. Nf3 (2. f4!? exf4 (2... d5) 3. Nf3) 2... Nc6 += 3. Bb5 a6 -+ ; a line comment\n4. Ba4 *",
			"", "e2e4 e7e5 g1f3 (f2f4 e5f4 (d7d5) g1f3) b8c6 f1b5 a7a6 b5a4", "*",
			func(g *Game) string {
				ml, nodes := g.MainLine()
				if len(ml) != 7 || nodes[0].After != "best by test" || len(nodes[1].NAGs) != 1 || nodes[1].NAGs[0] != 1 {
					return "comments or NAGs"
				}
				if nodes[3].NAGs[0] != 14 || nodes[5].NAGs[0] != 19 || nodes[5].After != "a line comment" {
					return "glyphs"
				}
				return ""
			}},
		{"escape lines, CRLF, BOM, result glued to the next game's line",
			"\ufeff% a note\r\n[Event \"x\"]\r\n\r\n1. e4 e5 {x} 1-0\r\n",
			"", "e2e4 e7e5", "1-0", nil},
		{"SAN as written in the wild",
			"[FEN \"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1\"]\n1. 0-0 0-0-0 2. Rf1e1 Rd8-e8 3. a2-a4 *",
			"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", "e1g1 e8c8 f1e1 d8e8 a2a4", "*", nil},
		{"promotion without '=', a superfluous check mark",
			"[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n1. b8Q+ Kd7 2. Qb7+ Kd6+ *",
			"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q e8d7 b8b7 d7d6", "*", nil},
		{"figurines, extra check marks, glued numbers",
			"1.e4 e5 2.♘f3+ ♞c6 3.Bb5 a6 *", "", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "*", nil},
		{"castling rights the position cannot have",
			"[FEN \"8/8/8/8/4R3/6k1/8/4K2R w KQkq - 0 1\"]\n1. O-O *",
			"8/8/8/8/4R3/6k1/8/4K2R w K - 0 1", "e1g1", "*",
			func(g *Game) string {
				if len(g.Warnings) != 1 || !strings.Contains(g.Warnings[0], `read as "K"`) {
					return "warning " + strings.Join(g.Warnings, "; ")
				}
				return ""
			}},
		{"a null move shows a threat", "[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1\"]\n1... h6 (1... -- 2. Ra8#) 2. Ra8+ *",
			"6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", "h7h6 (0000 a1a8) a1a8", "*", nil},
		{"Latin-1 bytes", "[Event \"Polg\xe1r\"]\n1. d4 *", "", "d2d4", "*",
			func(g *Game) string {
				if g.Tag("Event") != "Polgár" {
					return "Event " + g.Tag("Event")
				}
				return ""
			}},
	}
	for _, tc := range cases {
		gs, errs := games(t, tc.text)
		if len(gs) != 1 || errs[0] != nil {
			t.Errorf("%s: %d games, errors %v", tc.name, len(gs), errs)
			continue
		}
		g := gs[0]
		want := tc.fen
		if want == "" {
			sp := board.StartPosition()
			want = sp.FEN()
		}
		if g.Start.FEN() != want || line(g.Root) != tc.moves || g.Result != tc.result {
			t.Errorf("%s: %s, %q, result %q", tc.name, g.Start.FEN(), line(g.Root), g.Result)
		}
		if tc.check != nil {
			if why := tc.check(g); why != "" {
				t.Errorf("%s: %s", tc.name, why)
			}
		}
	}
}

// TestSplitter: games are cut at their markers, at a tag section that
// follows a game without one, and a bad game does not stop the next.
func TestSplitter(t *testing.T) {
	text := "[Event \"1\"]\n\n1. e4 e5 *\n\n" +
		"[Event \"2\"]\n1. d4 {a comment with [brackets] and 1-0 in it} d5\n" +
		"[Event \"3\"]\n1. e4 Ke7?? 2. Qh5 *\n" +
		"[Event \"4\"]\n1. c4 (1. b3) 1... c5 1/2-1/2 [Event \"5\"] 1. g3 0-1\n"
	gs, errs := games(t, text)
	if len(gs) != 5 {
		t.Fatalf("%d games", len(gs))
	}
	for i, g := range gs {
		if g.Number != i+1 {
			t.Errorf("game %d numbered %d", i+1, g.Number)
		}
	}
	var pe *Error
	if !errors.As(errs[2], &pe) || pe.Game != 3 || pe.Line != 8 || !strings.Contains(pe.Error(), "1...Ke7??") {
		t.Errorf("game 3: %v", errs[2])
	}
	for _, i := range []int{0, 1, 3, 4} {
		if errs[i] != nil {
			t.Errorf("game %d: %v", i+1, errs[i])
		}
	}
	if gs[1].Line != 5 || gs[1].Result != "" || gs[3].Line != 9 || gs[4].Tag("Event") != "5" || gs[4].Result != "0-1" {
		t.Errorf("lines %d %d, results %q %q", gs[1].Line, gs[3].Line, gs[1].Result, gs[4].Result)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"1. e4 e4 *", "1...e4: not legal"},
		{"[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4 *", "FEN tag"},
		{"[SetUp \"1\"]\n1. e4 *", "without a FEN"},
		{"1. e4 {never closed *", "never closed"},
		{"1. e4 (1. d4 *", "never closed"},
		{"1. e4 ) *", "closes no variation"},
		{"( 1. e4 ) *", "before any move"},
		{"[Event \"x\"\n1. e4 *", "no ']'"},
		{"[Variant \"Chess960\"]\n1. e4 *", "standard chess only"},
		{"1. e4 $999 *", "bad NAG"},
	} {
		_, errs := games(t, tc.text)
		if len(errs) != 1 || errs[0] == nil || !strings.Contains(errs[0].Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, errs, tc.want)
		}
	}
	// A game longer than the limit is one error, and the next is read.
	long := "[Event \"big\"]\n1. e4 {" + strings.Repeat("x", MaxGameBytes) + "} *\n[Event \"next\"]\n1. d4 *\n"
	gs, errs := games(t, long)
	if len(gs) != 2 || !errors.Is(errs[0], ErrTooLong) || errs[1] != nil || gs[1].Tag("Event") != "next" {
		t.Errorf("a game over the limit: %d games, %v", len(gs), errs)
	}
}

// TestWriteReadsBack: what Write writes, Parse reads back to the same
// tags, position and tree, and the chess library reads it too.
func TestWriteReadsBack(t *testing.T) {
	text := "[Event \"back \\\"quoted\\\"\"]\n[Annotator \"mateline\"]\n[FEN \"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3\"]\n[SetUp \"1\"]\n\n" +
		"{mate in 1, proved shortest} 3. Qxf7# {the key} (3. Bxf7+ {a try} 3... Ke7 4. Qb3 (4. Bb3 Nf6) 4... Nf6) 1-0"
	gs, errs := games(t, text)
	if errs[0] != nil {
		t.Fatal(errs[0])
	}
	var b strings.Builder
	if err := Write(&b, gs[0]); err != nil {
		t.Fatal(err)
	}
	back, errs := games(t, b.String())
	if errs[0] != nil {
		t.Fatalf("%v\n%s", errs[0], b.String())
	}
	if line(back[0].Root) != line(gs[0].Root) || back[0].Tag("Event") != `back "quoted"` || back[0].Start.FEN() != gs[0].Start.FEN() ||
		back[0].Root.Children[0].Before != "mate in 1, proved shortest" || back[0].Root.Children[1].After != "a try" || back[0].Result != "1-0" {
		t.Errorf("read back:\n%s\n%q\n%q %q %q %q %q", b.String(), line(back[0].Root), line(gs[0].Root), back[0].Tag("Event"), back[0].Root.After, back[0].Root.Children[1].After, back[0].Result)
	}
	if back[0].Tag("Date") != "????.??.??" || back[0].Tag("Round") != "?" {
		t.Errorf("the Seven Tag Roster is not complete:\n%s", b.String())
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if len(l) >= 80 {
			t.Errorf("a line of %d characters: %s", len(l), l)
		}
	}
	// The chess library reads it: tags, position, main line.
	sc := chess.NewScanner(strings.NewReader(b.String()))
	if !sc.HasNext() {
		t.Fatal("the chess library finds no game")
	}
	g, err := sc.ParseNext()
	if err != nil {
		t.Fatalf("the chess library: %v\n%s", err, b.String())
	}
	if g.GetTagPair("Event") != `back "quoted"` || len(g.Moves()) != 1 || g.Moves()[0].String() != "f3f7" || g.Method() != chess.Checkmate {
		t.Errorf("the chess library reads %q, moves %v, %v", g.GetTagPair("Event"), g.Moves(), g.Method())
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"[Event \"x\"]\n\n1. e4 e5 *",
		"[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]\n1. Ra8# 1-0",
		"1. e4 (1. d4 {c} d5 (1... Nf6 $1)) 1... e5 ; x\n% esc\n2. Nf3 1/2-1/2",
		"[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1\"]\n1... h6 (1... -- 2. Ra8#) *",
		"\xef\xbb\xbf[Event \"\xe1\"]\r\n1.e4 *",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp := NewSplitter(strings.NewReader(s))
		for i := 0; i < 100; i++ {
			c, err := sp.Next()
			if err != nil {
				return
			}
			g, err := Parse(c)
			if err != nil {
				continue
			}
			var b strings.Builder
			if err := Write(&b, g); err != nil {
				t.Fatal(err)
			}
			// What Write writes reads back to the same moves.
			sp2 := NewSplitter(strings.NewReader(b.String()))
			c2, err := sp2.Next()
			if err != nil {
				t.Fatalf("%q: written %q: %v", s, b.String(), err)
			}
			g2, err := Parse(c2)
			if err != nil || line(g2.Root) != line(g.Root) {
				t.Fatalf("%q: written %q reads back as %v %q, want %q", s, b.String(), err, line(g2.Root), line(g.Root))
			}
		}
	})
}
