package board_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/corentings/chess/v2"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/testpos"
)

// randomGameStarts are the positions random games start from: the start
// position and perft positions rich in castling, en passant and promotion.
var randomGameStarts = []string{
	board.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"4k3/1P6/8/3pP3/8/8/6p1/4K2R w K d6 0 1",
}

// TestOracle plays random games and compares every position with the
// independent chess library: the legal move set, FEN, SAN of every move,
// check, mate and stalemate, the incremental key, and the checking-moves
// generator.
func TestOracle(t *testing.T) {
	starts := randomGameStarts
	const wantPositions = 12000
	rng := rand.New(rand.NewPCG(1, 2))
	positions := 0
	for game := 0; positions < wantPositions; game++ {
		fen := starts[game%len(starts)]
		pos, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		oracle := oraclePosition(t, fen)
		var oracleInCheck *bool
		for ply := 0; ply < 160 && positions < wantPositions; ply++ {
			positions++
			moves := comparePosition(t, &pos, oracle, oracleInCheck)
			if len(moves) == 0 || t.Failed() {
				break
			}
			i := rng.IntN(len(moves))
			m, om := moves[i].ours, moves[i].theirs
			check := om.HasTag(chess.Check)
			oracleInCheck = &check
			pos.Play(m)
			oracle = oracle.Update(om)
		}
		if t.Failed() {
			t.Fatalf("stopped in game %d", game)
		}
	}
	t.Logf("%d positions compared", positions)
}

type movePair struct {
	ours   board.Move
	theirs *chess.Move
}

func oraclePosition(t *testing.T, fen string) *chess.Position {
	t.Helper()
	var op chess.Position
	if err := op.UnmarshalText([]byte(fen)); err != nil {
		t.Fatalf("oracle rejects %s: %v", fen, err)
	}
	return &op
}

func comparePosition(t *testing.T, pos *board.Position, oracle *chess.Position, oracleInCheck *bool) []movePair {
	t.Helper()
	fen := pos.FEN()
	if of := oracle.String(); of != fen {
		t.Errorf("FEN %s, oracle %s", fen, of)
		return nil
	}
	if again, err := board.ParseFEN(fen); err != nil || again.FEN() != fen || again.Key() != pos.Key() {
		t.Errorf("FEN round trip of %s: %v", fen, err)
	}
	if pos.Key() != pos.ComputeKey() {
		t.Errorf("%s: incremental key %x, from scratch %x", fen, pos.Key(), pos.ComputeKey())
	}
	if oracleInCheck != nil && *oracleInCheck != pos.InCheck() {
		t.Errorf("%s: InCheck %v, oracle %v", fen, pos.InCheck(), *oracleInCheck)
	}
	var l, checks board.MoveList
	pos.LegalMoves(&l)
	pos.CheckingMoves(&checks)
	byUCI := map[string]*chess.Move{}
	for _, om := range oracle.ValidMoves() {
		byUCI[chess.UCINotation{}.Encode(oracle, &om)] = &om
	}
	var pairs []movePair
	var wantChecks, gotChecks []string
	for _, m := range l.Slice() {
		om, ok := byUCI[m.UCI()]
		if !ok {
			t.Errorf("%s: %s is not legal for the oracle", fen, m.UCI())
			continue
		}
		delete(byUCI, m.UCI())
		pairs = append(pairs, movePair{m, om})
		san := pos.SAN(m)
		if osan := (chess.AlgebraicNotation{}).Encode(oracle, om); osan != san {
			t.Errorf("%s: SAN of %s is %s, oracle %s", fen, m.UCI(), san, osan)
		}
		if back, err := pos.ParseSAN(san); err != nil || back != m {
			t.Errorf("%s: ParseSAN(%s) = %v, %v; want %s", fen, san, back, err, m.UCI())
		}
		if back, err := pos.ParseUCI(m.UCI()); err != nil || back != m {
			t.Errorf("%s: ParseUCI(%s) = %v, %v", fen, m.UCI(), back, err)
		}
		if om.HasTag(chess.Check) {
			wantChecks = append(wantChecks, m.UCI())
		}
		if pos.GivesCheck(m) != om.HasTag(chess.Check) {
			t.Errorf("%s: GivesCheck(%s) = %v", fen, m.UCI(), pos.GivesCheck(m))
		}
	}
	for u := range byUCI {
		t.Errorf("%s: oracle move %s is missing", fen, u)
	}
	for _, m := range checks.Slice() {
		gotChecks = append(gotChecks, m.UCI())
	}
	slices.Sort(wantChecks)
	slices.Sort(gotChecks)
	if !slices.Equal(wantChecks, gotChecks) {
		t.Errorf("%s: checking moves %v, oracle %v", fen, gotChecks, wantChecks)
	}
	status := oracle.Status()
	if (status == chess.Checkmate) != pos.IsCheckmate() || (status == chess.Stalemate) != pos.IsStalemate() {
		t.Errorf("%s: mate %v stalemate %v, oracle status %v", fen, pos.IsCheckmate(), pos.IsStalemate(), status)
	}
	return pairs
}

// TestGivesCheckWith compares the fast check test with GivesCheck over
// positions from random games.
func TestGivesCheckWith(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 0
	for game := 0; game < 60; game++ {
		pos := board.StartPosition()
		for ply := 0; ply < 120; ply++ {
			var l board.MoveList
			pos.LegalMoves(&l)
			if l.N == 0 {
				break
			}
			ci := pos.NewCheckInfo()
			for _, m := range l.Slice() {
				n++
				if pos.GivesCheckWith(&ci, m) != pos.GivesCheck(m) {
					t.Fatalf("%s %s: GivesCheckWith %v", pos.FEN(), m, pos.GivesCheckWith(&ci, m))
				}
			}
			if pos.HasLegalMove() != (l.N > 0) {
				t.Fatalf("%s: HasLegalMove wrong", pos.FEN())
			}
			pos.Play(l.Moves[rng.IntN(l.N)])
		}
	}
	t.Logf("%d moves compared", n)
}

// TestCaptures checks the captures-only generator against the legal moves
// that take a piece, over random games.
func TestCaptures(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for game := 0; game < 60; game++ {
		pos, _ := board.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
		for ply := 0; ply < 100; ply++ {
			var l, c board.MoveList
			pos.LegalMoves(&l)
			pos.Captures(&c)
			var want []string
			for _, m := range l.Slice() {
				if pos.PieceAt(m.To()) != board.NoPiece {
					want = append(want, m.UCI())
				}
			}
			var got []string
			for _, m := range c.Slice() {
				got = append(got, m.UCI())
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: captures %v, want %v", pos.FEN(), got, want)
			}
			if l.N == 0 {
				break
			}
			pos.Play(l.Moves[rng.IntN(l.N)])
		}
	}
}

// TestHasLegalMoveNearStalemate compares HasLegalMove with the full
// generation on random positions where the side to move has few men and
// many are stuck, stalemates among them.
func TestHasLegalMoveNearStalemate(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 1))
	stalemates, few, compared := 0, 0, 0
	for compared < 50000 {
		men := "Kk"
		for n := 2 + rng.IntN(4); n > 0; n-- {
			men += string("QRRBBNP"[rng.IntN(7)])
		}
		for n := rng.IntN(5); n > 0; n-- {
			men += string("pppppppbnr"[rng.IntN(10)])
		}
		pos, err := board.ParseFEN(testpos.Placement(rng, men) + " b - - 0 1")
		if err != nil {
			continue
		}
		compared++
		var l board.MoveList
		pos.LegalMoves(&l)
		if pos.HasLegalMove() != (l.N > 0) {
			t.Fatalf("%s: HasLegalMove %v, %d legal moves", pos.FEN(), pos.HasLegalMove(), l.N)
		}
		if l.N == 0 && !pos.InCheck() {
			stalemates++
		}
		if l.N <= 3 {
			few++
		}
	}
	if stalemates == 0 || few < 1000 {
		t.Errorf("%d stalemates, %d positions with at most three moves: too few", stalemates, few)
	}
	t.Logf("%d positions, %d stalemates, %d with at most three moves", compared, stalemates, few)
}

// TestLine: the whole line through two squares, or none.
func TestLine(t *testing.T) {
	sq := func(s string) board.Square { q, _ := board.ParseSquare(s); return q }
	cases := []struct {
		a, b string
		want board.Bitboard
	}{
		{"a1", "c3", 0x8040201008040201}, // the long diagonal
		{"e2", "e7", board.FileA << 4},   // the e-file
		{"b4", "g4", board.Rank4},
		{"a1", "b3", 0}, // a knight's jump: no line
	}
	for _, c := range cases {
		if got := board.Line(sq(c.a), sq(c.b)); got != c.want {
			t.Errorf("Line(%s, %s) = %#x, want %#x", c.a, c.b, uint64(got), uint64(c.want))
		}
	}
}
