//go:build fathom

package endgame

import (
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/endgame/internal/fathomref"
	"mateline.dev/mateline/internal/shareddata"
)

// Run with: MATELINE_DATA=DATA go test -tags fathom -bench WDL ./endgame
// (needs Debian's libfathom-dev).

func vectorPositions(b *testing.B) []board.Position {
	var out []board.Position
	for _, r := range readTSV(b, shareddata.Path(b, "syzygy", "probe-vectors.tsv")) {
		p, err := board.ParseFEN(r["fen"])
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func BenchmarkFathomWDL(b *testing.B) {
	positions := vectorPositions(b)
	if !fathomref.Init(shareddata.Path(b, "syzygy")) {
		b.Fatal("fathom found no tables")
	}
	type args struct {
		w, bl, k, q, r, bi, n, p uint64
		ep                       uint
		white                    bool
	}
	var as []args
	for i := range positions {
		pos := &positions[i]
		bb := func(t board.PieceType) uint64 {
			return uint64(pos.Pieces(board.White, t) | pos.Pieces(board.Black, t))
		}
		ep := uint(0)
		if s := pos.EnPassant(); s != board.NoSquare {
			ep = uint(s)
		}
		as = append(as, args{uint64(pos.ColorBB(board.White)), uint64(pos.ColorBB(board.Black)), bb(board.King), bb(board.Queen),
			bb(board.Rook), bb(board.Bishop), bb(board.Knight), bb(board.Pawn), ep, pos.Side() == board.White})
	}
	// Agreement first: Fathom and we must give the same values.
	tb := openShared(b)
	for i, a := range as {
		want := fathomref.ProbeWDL(a.w, a.bl, a.k, a.q, a.r, a.bi, a.n, a.p, a.ep, a.white)
		got, err := tb.ProbeWDL(&positions[i])
		if err != nil || got+2 != want {
			b.Fatalf("%s: fathom %d, mateline %d %v", positions[i].FEN(), want-2, got, err)
		}
	}
	n := 0
	for b.Loop() {
		a := as[n%len(as)]
		fathomref.ProbeWDL(a.w, a.bl, a.k, a.q, a.r, a.bi, a.n, a.p, a.ep, a.white)
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "probes/s")
}
