package solver

import (
	"context"
	"testing"

	"mateline.dev/mateline/board"
)

// TestBenchPositions checks every answer of the bench workload, with every
// key and the main line replayed.
func TestBenchPositions(t *testing.T) {
	for _, bp := range BenchPositions {
		pos := board.MustParseFEN(bp.FEN)
		res := New(16).Solve(context.Background(), pos, Options{MaxMate: bp.MaxMate, AllKeys: true})
		if res.Mate != bp.Want || res.Status == StatusLimit {
			t.Errorf("%s: %v %d, want %d", bp.FEN, res.Status, res.Mate, bp.Want)
			continue
		}
		if bp.Want != 0 {
			checkLine(t, pos, res)
		} else if res.Depth != bp.MaxMate {
			t.Errorf("%s: no-mate proved to %d, want %d", bp.FEN, res.Depth, bp.MaxMate)
		}
	}
}

// BenchmarkSolve solves the bench workload and reports nodes per second.
func BenchmarkSolve(b *testing.B) {
	var positions []board.Position
	for _, bp := range BenchPositions {
		positions = append(positions, board.MustParseFEN(bp.FEN))
	}
	var nodes uint64
	for b.Loop() {
		for i, bp := range BenchPositions {
			res := New(16).Solve(context.Background(), positions[i], Options{MaxMate: bp.MaxMate})
			nodes += res.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
