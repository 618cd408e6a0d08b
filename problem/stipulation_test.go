package problem

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in    string
		want  Stipulation
		plies int
		err   string
	}{
		{"#2", Stipulation{Kind: Direct, Moves: 2}, 3, ""},
		{"h#2", Stipulation{Kind: Help, Moves: 2}, 4, ""},
		{"H#3", Stipulation{Kind: Help, Moves: 3}, 6, ""},
		{"h#2.5", Stipulation{Kind: Help, Moves: 2, Half: true}, 5, ""},
		{"h#0.5", Stipulation{Kind: Help, Moves: 0, Half: true}, 1, ""},
		{" s# 3 ", Stipulation{Kind: Self, Moves: 3}, 6, ""},
		{"h=3", Stipulation{Kind: Help, Aim: Stalemate, Moves: 3}, 6, ""},
		{"h=1.5", Stipulation{Kind: Help, Aim: Stalemate, Moves: 1, Half: true}, 3, ""},
		{"ser-#5", Stipulation{Kind: SeriesDirect, Moves: 5}, 5, ""},
		{"ser-=4", Stipulation{Kind: SeriesDirect, Aim: Stalemate, Moves: 4}, 4, ""},
		{"SER-H#6", Stipulation{Kind: SeriesHelp, Moves: 6}, 7, ""},
		{"ser-h=5", Stipulation{Kind: SeriesHelp, Aim: Stalemate, Moves: 5}, 6, ""},
		{"r#2", Stipulation{Kind: Reflex, Moves: 2}, 4, ""},
		{"semi-r#3", Stipulation{Kind: SemiReflex, Moves: 3}, 6, ""},
		{"=2", Stipulation{Kind: Direct, Aim: Stalemate, Moves: 2}, 3, ""},
		{"s=2", Stipulation{Kind: Self, Aim: Stalemate, Moves: 2}, 4, ""},
		{"r=2", Stipulation{}, 0, "reflexstalemates are not supported yet"},
		{"semi-r=2", Stipulation{}, 0, "semi-reflexstalemates are not supported yet"},
		{"r#2.5", Stipulation{}, 0, "only helpmates"},
		{"ser-r#3", Stipulation{Kind: SeriesReflex, Moves: 3}, 4, ""},
		{"ser-s#3", Stipulation{Kind: SeriesSelf, Moves: 3}, 4, ""},
		{"exact-ser-r#2", Stipulation{Kind: SeriesReflex, Moves: 2, Exact: true}, 3, ""},
		{"exact-s#2", Stipulation{Kind: Self, Moves: 2, Exact: true}, 4, ""},
		{"exact-#2", Stipulation{Kind: Direct, Moves: 2, Exact: true}, 3, ""},
		{"ser-r=3", Stipulation{}, 0, "series reflexstalemates are not supported yet"},
		{"pser-h#6", Stipulation{Kind: SeriesHelp, Moves: 6, Parry: true}, 7, ""},
		{"2->pser-h#3", Stipulation{Kind: SeriesHelp, Moves: 3, Intro: 2, Parry: true}, 6, ""},
		{"pser-h=4", Stipulation{Kind: SeriesHelp, Aim: Stalemate, Moves: 4, Parry: true}, 5, ""},
		{"pser-#3", Stipulation{Kind: SeriesDirect, Moves: 3, Parry: true}, 3, ""},
		{"pser-=2", Stipulation{Kind: SeriesDirect, Aim: Stalemate, Moves: 2, Parry: true}, 2, ""},
		{"pser-s#3", Stipulation{Kind: SeriesSelf, Moves: 3, Parry: true}, 4, ""},
		{"pser-r#3", Stipulation{}, 0, "parry series other than pser-#N, pser-=N, pser-h#N, pser-h=N, pser-s#N and pser-s=N are not supported yet"},
		{"phser-s#6", Stipulation{}, 0, "want #N"},
		{"reci-h#3", Stipulation{Kind: HelpReciprocal, Moves: 3}, 6, ""},
		{"exact-reci-h#2", Stipulation{Kind: HelpReciprocal, Moves: 2, Exact: true}, 4, ""},
		{"reci-h=3", Stipulation{}, 0, "reciprocal helpstalemates are not supported yet"},
		{"reci-h(=)#4", Stipulation{}, 0, "reciprocal help-alternatives"},
		{"ser-reci-h#1", Stipulation{}, 0, "series reciprocal helpmates are not supported yet"},
		{"reci-h#2.5", Stipulation{}, 0, "only helpmates"},
		{"reci-hs#2", Stipulation{}, 0, "want #N"},
		{"hs#3", Stipulation{Kind: HelpSelf, Moves: 3}, 6, ""},
		{"hr#2", Stipulation{Kind: HelpReflex, Moves: 2}, 4, ""},
		{"exact-hr#2", Stipulation{Kind: HelpReflex, Moves: 2, Exact: true}, 4, ""},
		{"hs=2", Stipulation{}, 0, "help-selfstalemates are not supported yet"},
		{"hs#1.5", Stipulation{}, 0, "only helpmates"},
		{"exact-h#3", Stipulation{Kind: Help, Moves: 3, Exact: true}, 6, ""},
		{"2->ser-h#4", Stipulation{Kind: SeriesHelp, Moves: 4, Intro: 2}, 7, ""},
		{"1->exact-ser-s#2", Stipulation{Kind: SeriesSelf, Moves: 2, Intro: 1, Exact: true}, 4, ""},
		{"2->h#2", Stipulation{}, 0, "come before a series-mover"},
		{"0->ser-#2", Stipulation{}, 0, "introductory moves"},
		{"ser-h#2.5", Stipulation{}, 0, "only helpmates"},
		{"s#2.5", Stipulation{}, 0, "only helpmates"},
		{"h#0", Stipulation{}, 0, "want 1 to"},
		{"#31", Stipulation{}, 0, "want 1 to"},
		{"h#x", Stipulation{}, 0, "not a whole number"},
		{"h#-2", Stipulation{}, 0, "not a whole number"},
		{"x#2", Stipulation{}, 0, "want #N"},
		{"", Stipulation{}, 0, "want #N"},
	} {
		got, err := Parse(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Parse(%q): %v, want an error with %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want || got.Plies() != c.plies {
			t.Errorf("Parse(%q) = %+v (%d plies), %v; want %+v (%d plies)", c.in, got, got.Plies(), err, c.want, c.plies)
		}
		if again, _ := Parse(got.String()); again != got {
			t.Errorf("%q: String %q does not read back", c.in, got.String())
		}
	}
}

// FuzzParse: any text gives a stipulation or an error, never a panic, and
// a stipulation read back from its String is itself.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"#2", "h#2.5", "s#3", "h#0.5", "x", "h#99999999999999999999", "s#-1", "ser-h=4", "h=2.5", "ser-#3", "r#2", "ser-",
		"semi-r#3", "exact-ser-r#2", "s=2", "=3", "ser-s#4", "exact-h#2.5", "exact-exact-#2", "ser-r=2", "2->ser-h#4", "1->exact-ser-s#2", "hs#2", "hr#3", "reci-h#2", "reci-h=2", "pser-h#3", "1->pser-h=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := Parse(s)
		if err != nil {
			return
		}
		if again, err := Parse(st.String()); err != nil || again != st {
			t.Errorf("%q -> %v -> %q -> %v, %v", s, st, st.String(), again, err)
		}
		if st.Plies() < 1 || st.Plies() > 2*MaxMoves+1 {
			t.Errorf("%q: %d plies", s, st.Plies())
		}
	})
}
