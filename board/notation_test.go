package board

import (
	"strings"
	"testing"
)

func TestSAN(t *testing.T) {
	cases := []struct{ fen, uci, san string }{
		{StartFEN, "g1f3", "Nf3"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"},
		{"3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", "O-O-O+"},
		{"7k/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1b1", "Rab1"},
		{"7k/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a2", "R1a2"},
		{"8/7k/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "a4b3", "Qa4b3"},
		{"7k/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+"},
		{"7k/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b8=N"},
		{"6rk/6pp/8/8/8/8/5N2/4K3 w - - 0 1", "f2h3", "Nh3"},
		{"6rk/6pp/7N/8/8/8/8/1Q2K3 w - - 0 1", "b1g6", "Qg6"},
		{"6rk/6pp/8/6N1/8/8/8/4K3 w - - 0 1", "g5f7", "Nf7#"},
		{"8/2k5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6+"},
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
		if got := p.SAN(m); got != tc.san {
			t.Errorf("%s %s: SAN %s, want %s", tc.fen, tc.uci, got, tc.san)
		}
		if back, err := p.ParseSAN(tc.san); err != nil || back != m {
			t.Errorf("ParseSAN(%s) = %v, %v", tc.san, back, err)
		}
	}
}

func TestParseLenient(t *testing.T) {
	p, _ := ParseFEN("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
	for text, want := range map[string]string{
		"0-0": "e1g1", "O-O-O": "e1c1", "b8Q": "b7b8q", "bxa8=N": "b7a8n", "Ra1b1": "a1b1", "Rxa8+": "a1a8", "Kf1!?": "e1f1",
	} {
		m, err := p.ParseSAN(text)
		if err != nil || m.UCI() != want {
			t.Errorf("ParseSAN(%q) = %v, %v; want %s", text, m, err, want)
		}
	}
	for _, text := range []string{"", "Qd4", "b8", "Kd3", "Zz9", "e9", "exe5", "O-O-O-O"} {
		if m, err := p.ParseSAN(text); err == nil {
			t.Errorf("ParseSAN(%q) = %v, want an error", text, m)
		}
	}
	// King takes own rook is castling in UCI input.
	for text, want := range map[string]string{"e1h1": "e1g1", "e1a1": "e1c1", "e1g1": "e1g1", "b7a8r": "b7a8r"} {
		m, err := p.ParseUCI(text)
		if err != nil || m.UCI() != want {
			t.Errorf("ParseUCI(%q) = %v, %v; want %s", text, m, err, want)
		}
	}
	for _, text := range []string{"", "e2e4", "e1e3", "b7b8", "b7b8k", "i1a1", "0000"} {
		if m, err := p.ParseUCI(text); err == nil {
			t.Errorf("ParseUCI(%q) = %v, want an error", text, m)
		}
	}
}

func TestSANLine(t *testing.T) {
	p, _ := ParseFEN("8/1k1K4/8/8/6R1/8/8/8 w - - 0 1")
	moves := []string{"g4g6", "b7a8", "d7c7", "a8a7", "c7c8", "a7a8", "g6a6"}
	var ms []Move
	q := p
	for _, u := range moves {
		m, err := q.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		q.Play(m)
	}
	if got, want := p.SANLine(ms), "1. Rg6 Ka8 2. Kc7 Ka7 3. Kc8 Ka8 4. Ra6#"; got != want {
		t.Errorf("SANLine = %q, want %q", got, want)
	}
	q = p
	q.Play(ms[0])
	if got, want := q.SANLine(ms[1:3]), "1... Ka8 2. Kc7"; got != want {
		t.Errorf("SANLine from black = %q, want %q", got, want)
	}
}

func TestDiagram(t *testing.T) {
	p, err := ParseFEN("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	d := p.Diagram()
	for _, want := range []string{
		" |   |   |   |   | k |   |   |   | 8\n",
		" |   |   |   |   | r |   |   |   | 2\n",
		" |   |   |   |   | K |   |   |   | 1\n",
		"   a   b   c   d   e   f   g   h\n",
		"Fen: 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1\n",
		"Checkers: e2\n",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("diagram lacks %q:\n%s", want, d)
		}
	}
}
