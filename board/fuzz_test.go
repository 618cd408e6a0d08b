package board

import "testing"

var fuzzFENs = []string{
	StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
	"8/8/8/8/8/8/8/8 w - - 0 1",
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 \xff",
}

// FuzzParseFEN checks that ParseFEN never panics and that an accepted
// position survives a round trip with the same key.
func FuzzParseFEN(f *testing.F) {
	for _, s := range fuzzFENs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			return
		}
		q, err := ParseFEN(p.FEN())
		if err != nil || q.Key() != p.Key() || q.FEN() != p.FEN() {
			t.Fatalf("round trip of %q: %v", s, err)
		}
		var l MoveList
		p.LegalMoves(&l)
		for _, m := range l.Slice() {
			c := p
			c.Play(m)
			if c.Key() != c.ComputeKey() {
				t.Fatalf("%s %s: key drift", p.FEN(), m)
			}
		}
	})
}

// FuzzParseUCI checks that ParseUCI never panics and that what it accepts
// prints back (castling written king-takes-rook prints as the king's move).
func FuzzParseUCI(f *testing.F) {
	for _, s := range []string{"e2e4", "e1h1", "b7b8q", "a1a1", "", "zzzz", "e7e8x"} {
		f.Add(fuzzFENs[4], s)
		f.Add(fuzzFENs[1], s)
	}
	f.Fuzz(func(t *testing.T, fen, text string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		m, err := p.ParseUCI(text)
		if err != nil {
			return
		}
		if again, err := p.ParseUCI(m.UCI()); err != nil || again != m {
			t.Fatalf("%s: %q parsed as %s, which does not parse back", fen, text, m)
		}
	})
}

// FuzzParseSAN checks that ParseSAN never panics and that an accepted move
// prints as SAN that parses back to it.
func FuzzParseSAN(f *testing.F) {
	for _, s := range []string{"Nf3", "O-O", "0-0-0", "b8=Q+", "exf6", "Rxa8#", "Kf1!?", "", "Qh4xe1", "bxa8=N"} {
		f.Add(fuzzFENs[4], s)
		f.Add(fuzzFENs[1], s)
	}
	f.Fuzz(func(t *testing.T, fen, text string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		m, err := p.ParseSAN(text)
		if err != nil {
			return
		}
		if again, err := p.ParseSAN(p.SAN(m)); err != nil || again != m {
			t.Fatalf("%s: %q parsed as %s, whose SAN %s does not parse back", fen, text, m, p.SAN(m))
		}
	})
}
