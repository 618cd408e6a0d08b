package board

import (
	"os"
	"strconv"
	"testing"
)

// perftCases are the standard perft positions with their published counts
// (index i holds the count at depth i+1).
var perftCases = []struct {
	name   string
	fen    string
	counts []uint64
}{
	{"start", StartFEN, []uint64{20, 400, 8902, 197281, 4865609, 119060324}},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		[]uint64{48, 2039, 97862, 4085603, 193690690}},
	{"endgame-ep", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		[]uint64{14, 191, 2812, 43238, 674624, 11030083, 178633661}},
	{"promotions", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292, 706045033}},
	{"promotions-mirror", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292, 706045033}},
	{"talkchess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		[]uint64{44, 1486, 62379, 2103487, 89941194}},
	{"steven-edwards", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		[]uint64{46, 2079, 89890, 3894594, 164075551}},
}

// perftLimit is the largest leaf count TestPerft checks; set
// MATELINE_PERFT_MAX to go deeper (the full table needs about 1.2e9).
func perftLimit() uint64 {
	if s := os.Getenv("MATELINE_PERFT_MAX"); s != "" {
		if n, err := strconv.ParseUint(s, 10, 64); err == nil {
			return n
		}
	}
	return 5_000_000
}

func TestPerft(t *testing.T) {
	limit := perftLimit()
	for _, tc := range perftCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range tc.counts {
				if want > limit {
					break
				}
				if got := Perft(&p, d+1); got != want {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
		})
	}
}

func BenchmarkPerft(b *testing.B) {
	for _, tc := range perftCases[:3] {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			b.Fatal(err)
		}
		depth := 0
		for depth < len(tc.counts) && tc.counts[depth] < 5_000_000 {
			depth++
		}
		b.Run(tc.name, func(b *testing.B) {
			var leaves uint64
			for b.Loop() {
				leaves += Perft(&p, depth)
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}

// BenchmarkPerftDeep checks every published count, the deepest ones too
// (2.16 billion leaves in all), and reports the rate:
// go test -run XXX -bench PerftDeep -benchtime 1x ./board
func BenchmarkPerftDeep(b *testing.B) {
	var leaves uint64
	for b.Loop() {
		for _, tc := range perftCases {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				b.Fatal(err)
			}
			d := len(tc.counts)
			if got := Perft(&p, d); got != tc.counts[d-1] {
				b.Fatalf("%s: perft(%d) = %d, want %d", tc.name, d, got, tc.counts[d-1])
			}
			leaves += tc.counts[d-1]
		}
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkCopyPosition measures the copy that copy-make adds per move
// (the most that make/unmake could save, before its own bookkeeping).
func BenchmarkCopyPosition(b *testing.B) {
	p := StartPosition()
	var stack [8]Position
	for i := 0; b.Loop(); i++ {
		stack[i&7] = p
	}
}
