package dtm

import (
	"math/rand/v2"
	"os"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/testpos"
)

// BenchmarkProbe measures a probe of a built table, from a board
// position to its signed distance to mate (Prober.ProbeDTM, as the solver
// calls it), over random positions. The tables are read from MATELINE_DTM
// when it holds them, else four-man ones are built in a temporary
// directory first (not timed); the five-man case runs only when
// MATELINE_DTM holds KQRvKR.
func BenchmarkProbe(b *testing.B) {
	dir := os.Getenv("MATELINE_DTM")
	if dir == "" {
		dir = b.TempDir()
	}
	s := Open(dir, Options{BuildMen: 4})
	defer s.Close()
	p := s.Prober(4)
	for _, men := range []string{"KQkr", "KRkq", "KQRkr"} {
		b.Run(men, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			var positions []board.Position
			for len(positions) < 4096 {
				if pos, ok := randomPosition(r, men); ok {
					positions = append(positions, pos)
				}
			}
			if _, ok := p.ProbeDTM(&positions[0]); !ok {
				b.Skipf("%s not in the tables of %s", men, dir)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p.ProbeDTM(&positions[i&4095])
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
		})
	}
}

// randomPosition places the men (FEN letters) on random squares, White to
// move; ok is false when that is not a legal position.
func randomPosition(r *rand.Rand, men string) (board.Position, bool) {
	pos, err := board.ParseFEN(testpos.Placement(r, men) + " w - - 0 1")
	return pos, err == nil
}
