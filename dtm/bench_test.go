package dtm

import (
	"math/rand/v2"
	"os"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
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
			positions := randomPositions(r, men, 4096)
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

// BenchmarkProbeAccess measures probes of KQRvKR (MATELINE_DTM must hold
// it) as a search makes them and at random, through the block cache:
//
//   - lines: along random games of quiet moves, 40 plies each, every
//     position probed, the cache cold at the start of the run;
//   - lines-warm: the same, the cache warmed by one pass over the lines;
//   - random-warm: random positions whose blocks are all in the cache;
//   - random-cold: random positions, a cache of 1 MiB (every probe a miss).
func BenchmarkProbeAccess(b *testing.B) {
	dir := os.Getenv("MATELINE_DTM")
	if dir == "" {
		b.Skip("MATELINE_DTM does not hold KQRvKR")
	}
	r := rand.New(rand.NewPCG(3, 4))
	random := randomPositions(r, "KQRkr", 1<<14)
	lines := quietLines(r, random)
	// the White-to-move positions of the lines: what a search that asks
	// the tables only about the side stored (and plays one move into the
	// other) would probe
	var whiteLines []board.Position
	for _, pos := range lines {
		if pos.Side() == board.White {
			whiteLines = append(whiteLines, pos)
		}
	}
	for _, c := range []struct {
		name    string
		cache   int64
		pos     []board.Position
		warm    bool
		oneSide func(*Store, *board.Position) (tablefile.Value, error)
	}{
		{"lines", 0, lines, false, nil},
		{"lines-warm", 0, lines, true, nil},
		{"lines-one-side", 0, lines, false, oneSideProbe},
		{"lines-one-side-captures", 0, lines, false, oneSideCapturesProbe},
		{"lines-captures", 0, lines, false, capturesProbe},
		{"lines-stored-side-captures", 0, whiteLines, false, capturesProbe},
		{"random-warm", 1 << 30, random, true, nil},
		{"random-cold", 1 << 20, random, false, nil},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := Open(dir, Options{CacheBytes: c.cache})
			defer s.Close()
			p := s.Prober(0)
			if _, ok := p.ProbeDTM(&c.pos[0]); !ok {
				b.Skipf("KQRvKR not in the tables of %s", dir)
			}
			if c.warm {
				for i := range c.pos {
					p.ProbeDTM(&c.pos[i])
				}
			}
			if c.oneSide != nil {
				// a check first: the answer one ply deep is the table's
				for i := 0; i < 2000; i++ {
					pos := &c.pos[i]
					want, _ := s.Probe(pos)
					if got, err := c.oneSide(s, pos); err != nil || got != want {
						b.Fatalf("%s: one ply deep %v (%v), table %v", pos.FEN(), got, err, want)
					}
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if c.oneSide != nil {
					c.oneSide(s, &c.pos[i%len(c.pos)])
					continue
				}
				p.ProbeDTM(&c.pos[i%len(c.pos)])
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
		})
	}
}

// quietLines plays random quiet moves, up to 40, from random starts,
// and returns every position on the way (1<<18 of them): lines of play
// as a search walks them.
func quietLines(r *rand.Rand, starts []board.Position) []board.Position {
	var lines []board.Position
	for len(lines) < 1<<18 {
		pos := starts[r.IntN(len(starts))]
		for ply := 0; ply < 40; ply++ {
			lines = append(lines, pos)
			var ml board.MoveList
			pos.LegalMoves(&ml)
			var quiet []board.Move
			for _, mv := range ml.Slice() {
				if !pos.Occupied().Has(mv.To()) {
					quiet = append(quiet, mv)
				}
			}
			if len(quiet) == 0 {
				break
			}
			pos.Play(quiet[r.IntN(len(quiet))])
		}
	}
	return lines
}

// oneSideProbe answers a position as a table that stores only White to
// move would: White to move read, Black to move answered one ply deep
// over White's values (the cost that storing one side would put on every
// other probe along a line).
func oneSideProbe(s *Store, pos *board.Position) (tablefile.Value, error) {
	return oneSideWith(s, pos, func(s *Store, nd *tablefile.Node, _ *tablefile.EPScratch) (tablefile.Value, error) {
		return s.lookup(nd)
	})
}

// oneSideCapturesProbe answers a position as a table that stores only
// White to move, and leaves to the probe the values a capture or a
// promotion gives (those slots filled for compression): White to move
// is the stored value and the best of its captures and promotions, Black
// to move is answered one ply deep over that (the cost of both levers
// together; the tables a capture leads to are read whole, as today).
func oneSideCapturesProbe(s *Store, pos *board.Position) (tablefile.Value, error) {
	return oneSideWith(s, pos, storedWithCaptures)
}

// oneSideWith answers pos from a table storing White to move only,
// stored giving a White-to-move position's answer: Black to move is the
// best of its moves, each child of the table's own read through stored
// (the others, captures and en passant, from their tables as today).
func oneSideWith(s *Store, pos *board.Position, stored func(*Store, *tablefile.Node, *tablefile.EPScratch) (tablefile.Value, error)) (tablefile.Value, error) {
	nd, ok := tablefile.NodeOf(pos)
	if !ok {
		return tablefile.Draw, ErrNotInTables
	}
	var ep tablefile.EPScratch
	if nd.Stm == board.White {
		return stored(s, &nd, &ep)
	}
	var best tablefile.BestMove
	for _, m := range nd.Moves(nil) {
		ch := nd.Play(m)
		var v tablefile.Value
		var err error
		if m.Capture < 0 && ch.Ep == board.NoSquare {
			v, err = stored(s, &ch, &ep)
		} else {
			v, err = tablefile.ValueOf(&ch, s.lookup, &ep)
		}
		if err != nil {
			return tablefile.Draw, err
		}
		best.Add(v)
	}
	if !best.Have {
		if nd.InCheck() {
			return tablefile.LossIn(0), nil
		}
		return tablefile.Draw, nil
	}
	return best.Value()
}

// capturesProbe answers a position as a table that stores both sides
// but leaves to the probe the values a capture or a promotion gives.
func capturesProbe(s *Store, pos *board.Position) (tablefile.Value, error) {
	nd, ok := tablefile.NodeOf(pos)
	if !ok {
		return tablefile.Draw, ErrNotInTables
	}
	var ep tablefile.EPScratch
	return storedWithCaptures(s, &nd, &ep)
}

// storedWithCaptures is a stored position's answer when the values its
// captures and promotions give are left to the probe: the better of the
// stored value and theirs.
func storedWithCaptures(s *Store, nd *tablefile.Node, ep *tablefile.EPScratch) (tablefile.Value, error) {
	v, err := s.lookup(nd)
	if err != nil {
		return v, err
	}
	var best tablefile.BestMove
	var buf [32]tablefile.Move
	convs, _ := nd.Conversions(buf[:0], nd.ThreatsTo(nd.Stm))
	for _, m := range convs {
		if m.Capture < 0 && m.Promo == board.NoPieceType {
			continue // a pawn's step: not left to the probe
		}
		ch := nd.Play(m)
		cv, err := tablefile.ValueOf(&ch, s.lookup, ep)
		if err != nil {
			return tablefile.Draw, err
		}
		best.Add(cv)
	}
	if best.Have {
		if cv, err := best.Value(); err == nil && cv.Better(v) {
			return cv, nil
		}
	}
	return v, nil
}

// randomPositions draws n legal positions of men, White to move.
func randomPositions(r *rand.Rand, men string, n int) []board.Position {
	var out []board.Position
	for len(out) < n {
		if pos, ok := randomPosition(r, men); ok {
			out = append(out, pos)
		}
	}
	return out
}

// randomPosition places the men (FEN letters) on random squares, White to
// move; ok is false when that is not a legal position.
func randomPosition(r *rand.Rand, men string) (board.Position, bool) {
	pos, err := board.ParseFEN(testpos.Placement(r, men) + " w - - 0 1")
	return pos, err == nil
}
