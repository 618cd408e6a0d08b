package epd

import (
	"reflect"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	type tok struct {
		text   string
		quoted bool
		col    int
	}
	cases := []struct {
		name string
		ops  string
		want []tok // semicolons as {";", false, col}
	}{
		{"a quote inside a word is text", `bm #11; 00'40" (Gustav);`,
			[]tok{{"bm", false, 1}, {"#11", false, 4}, {";", false, 7}, {`00'40"`, false, 9}, {"(Gustav)", false, 16}, {";", false, 24}}},
		{"escaped quotes", `id "a \"b\" \\ c";`,
			[]tok{{"id", false, 1}, {`a "b" \ c`, true, 4}, {";", false, 18}}},
		{"semicolon inside a string", `c0 "semi; colon"; dm 1;`,
			[]tok{{"c0", false, 1}, {"semi; colon", true, 4}, {";", false, 17}, {"dm", false, 19}, {"1", false, 22}, {";", false, 23}}},
		{"a backslash before other text stays", `c0 "a\b";`,
			[]tok{{"c0", false, 1}, {`a\b`, true, 4}, {";", false, 9}}},
		{"columns count characters", `c0 "é"; c1 "x`,
			[]tok{{"c0", false, 1}, {"é", true, 4}, {";", false, 7}, {"c1", false, 9}, {"x", true, 12}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []tok
			for _, k := range tokenize(tc.ops, 0) {
				if k.sep {
					got = append(got, tok{";", false, k.col})
					continue
				}
				got = append(got, tok{k.text, k.quoted, k.col})
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("tokenize(%q)\n got %v\nwant %v", tc.ops, got, tc.want)
			}
		})
	}
}

func TestEPDAnnotationsAndClaims(t *testing.T) {
	const mate1 = "6k1/5ppp/8/8/8/8/8/R5K1 w - -"
	cases := []struct {
		name     string
		line     string
		err      string // "" for a readable record
		mate     int
		warnings []string // substrings, in order
	}{
		{"matetrack timing comment", mate1 + ` bm #1; --:-- @ C0/R-4/K5/P10/X39; 00'40" (Gustav);`, "", 1, nil},
		{"truncated pv is a warning", mate1 + ` dm 1; pv Ra8# R;`, "", 1, []string{`pv: ply 2: move "R"`}},
		{"bad am is a warning", mate1 + ` dm 1; am Zz9;`, "", 1, []string{"am:"}},
		{"bad counts are warnings", mate1 + ` dm 1; acd x; acn -4; acs 1.5; ce +32766;`, "", 1, []string{"acd:", "acn:"}},
		{"bad ce is a warning", mate1 + ` dm 1; ce mate;`, "", 1, []string{"ce:"}},
		{"empty comment is a warning", mate1 + ` dm 1; c3;`, "", 1, []string{"c3: no text"}},
		{"unclosed quote in a comment is a warning", mate1 + ` dm 1; c0 "open`, "", 1, []string{"c0: unclosed quote at column 40"}},
		{"unclosed quote in the id names its column", mate1 + ` dm 1; id "open`, "id: unclosed quote at column 40", 0, nil},
		{"leading spaces count in the column", "  " + mate1 + ` dm 1; id "open`, "id: unclosed quote at column 42", 0, nil},
		{"repeated claim with another value", mate1 + ` dm 1; dm 3;`, "opcode dm appears twice", 0, nil},
		{"repeated claim with the same value", mate1 + ` dm 1; dm 1;`, "", 1, nil},
		{"repeated bm", mate1 + ` bm #1; bm #2;`, "opcode bm appears twice", 0, nil},
		{"repeated id", mate1 + ` dm 1; id "a"; id "b";`, "opcode id appears twice", 0, nil},
		{"repeated comment is a warning", mate1 + ` dm 1; c0 "a"; c0 "b";`, "", 1, []string{"opcode c0 appears twice"}},
		{"dm and bm #N disagree", mate1 + ` dm 1; bm #2;`, "dm 1 and bm #2 disagree", 0, nil},
		{"dm and bm #N agree", mate1 + ` dm 1; bm #1;`, "", 1, nil},
		{"bad dm is an error", mate1 + ` dm x;`, "dm: want one number", 0, nil},
		{"bad bm is an error", mate1 + ` bm Zz9;`, "bm:", 0, nil},
		{"quoted opcode is an error", mate1 + ` "dm" 1;`, "column 31: an operation starts with a quoted string", 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := ParseLine("t.epd", 7, tc.line)
			if tc.err != "" {
				if rec.Err == nil || !strings.Contains(rec.Err.Error(), tc.err) || !strings.HasPrefix(rec.Err.Error(), "t.epd:7: ") {
					t.Fatalf("error %v, want t.epd:7: ... %q", rec.Err, tc.err)
				}
				return
			}
			if rec.Err != nil {
				t.Fatalf("unreadable: %v", rec.Err)
			}
			if int(rec.Claim.Mate) != tc.mate {
				t.Errorf("claim %d, want %d", rec.Claim.Mate, tc.mate)
			}
			if len(rec.Warnings) != len(tc.warnings) {
				t.Fatalf("warnings %q, want %d", rec.Warnings, len(tc.warnings))
			}
			for i, w := range tc.warnings {
				if !strings.Contains(rec.Warnings[i], w) {
					t.Errorf("warning %d: %q, want %q", i, rec.Warnings[i], w)
				}
			}
		})
	}
}
