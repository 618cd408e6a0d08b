package board

import "testing"

// The expected texts are Popeye 4.104's, as it prints these moves.
func TestLongNotation(t *testing.T) {
	cases := []struct{ fen, uci, want string }{
		{StartFEN, "g1f3", "Sg1-f3"},
		{StartFEN, "e2e4", "e2-e4"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "0-0"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "0-0-0"},
		{"3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", "0-0-0 +"},
		{"4kb2/5p2/8/8/8/8/8/2KQ4 b - - 0 1", "f8e7", "Bf8-e7"},
		{"5k2/4bp2/8/7Q/8/8/8/2K5 w - - 0 1", "h5f7", "Qh5*f7 +"},
		{"5k2/3Q1pb1/8/8/8/8/8/2K5 w - - 0 1", "d7d8", "Qd7-d8 #"},
		{"7k/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b7-b8=Q +"},
		{"7k/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b7-b8=S"},
		{"8/2k5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "e5*d6 ep. +"},
		{"k7/pp6/8/8/8/8/8/1K1R4 w - - 0 1", "d1d8", "Rd1-d8 #"},
	}
	for _, tc := range cases {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatalf("%s: %v", tc.fen, err)
		}
		m, err := p.ParseUCI(tc.uci)
		if err != nil {
			t.Fatalf("%s: %v", tc.fen, err)
		}
		if got := p.LongNotation(m); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.fen, tc.uci, got, tc.want)
		}
	}
}
