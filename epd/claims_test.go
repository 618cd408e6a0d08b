package epd

import (
	"strings"
	"testing"
)

// The EPD stip opcode: a helpmate or selfmate, or a direct mate's length.
func TestEPDStip(t *testing.T) {
	const fen = "4kb2/5p2/8/8/8/8/8/2KQ4 b - -"
	cases := []struct {
		ops, stip string
		mate      int
		err       string
	}{
		{`stip "h#2";`, "h#2", 0, ""},
		{`stip s#3;`, "s#3", 0, ""},
		{`stip "h#1.5"; id "x";`, "h#1.5", 0, ""},
		{`stip "#2";`, "", 2, ""},
		{`dm 2; stip "#2";`, "", 2, ""},
		{`dm 3; stip "#2";`, "", 0, "stip #2 and the mate claim (3) disagree"},
		{`stip "z#2";`, "", 0, `stipulation "z#2": want #N, =N, h#N, h#N.5, h=N`},
		{`stip "h#2"; dm 2;`, "", 0, "stip h#2 and the mate claim (2) disagree"},
		{`stip "s#2.5";`, "", 0, "only helpmates take half a move"},
	}
	for _, tc := range cases {
		rec := ParseLine("t.epd", 1, fen+" "+tc.ops)
		if tc.err != "" {
			if rec.Err == nil || !strings.Contains(rec.Err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.ops, rec.Err, tc.err)
			}
			continue
		}
		if rec.Err != nil {
			t.Errorf("%s: %v", tc.ops, rec.Err)
			continue
		}
		stip := ""
		if rec.IsProblem() {
			stip = rec.Stip.String()
		}
		if stip != tc.stip || int(rec.Claim.Mate) != tc.mate {
			t.Errorf("%s: stip %q mate %d, want %q %d", tc.ops, stip, rec.Claim.Mate, tc.stip, tc.mate)
		}
	}
}
