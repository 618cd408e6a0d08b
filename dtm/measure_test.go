package dtm

import (
	"os"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"mateline.dev/mateline/board"
)

// TestMeasureFills measures, for the tables named in
// MATELINE_DTM_MEASURE (comma-separated, built in MATELINE_DTM), what
// each side to move compresses to when the slots a probe need not read
// are filled with the value before them (zstd, each block on its own):
//
//   - as stored: the unused slots 0;
//   - unused: the slots no position uses (men on one square, a form not
//     stored, the side not to move in check) filled;
//   - captures: also the positions whose value a capture or a promotion
//     already gives, which a probe that first tries those moves would
//     not read (the filler kept only when it is no better for the side
//     to move than the position's value, so the best of the two is
//     still the value).
//
// It is a measurement, not a check: it logs sizes and skips when not
// asked for.
func TestMeasureFills(t *testing.T) {
	spec, dir := os.Getenv("MATELINE_DTM_MEASURE"), os.Getenv("MATELINE_DTM")
	if spec == "" || dir == "" {
		t.Skip("MATELINE_DTM_MEASURE=SIG,... and MATELINE_DTM=DIR measure the fills")
	}
	s := Open(dir, Options{BuildMen: 4})
	defer s.Close()
	for _, name := range strings.Split(spec, ",") {
		m, err := ParseMaterial(name)
		if err != nil {
			t.Fatal(err)
		}
		m, _ = m.Canonical()
		tb, err := s.table(m, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.acquireRaw(tb); err != nil {
			t.Fatal(err)
		}
		held, err := s.holdChildren(m, s.buildMax)
		if err != nil {
			t.Fatal(err)
		}
		data, l := tb.rawData(), tb.l
		// kind[side*size+idx]: 0 used, 1 unused, 2 decided by a capture
		kind := make([]byte, 2*l.size)
		b := &builder{l: l, workers: 2}
		b.parallel(l.size, func(w *worker, from, to int64) {
			for idx := from; idx < to; idx++ {
				sq := l.decode(idx)
				cp := sq
				c, ok := l.index(&cp)
				for k := 0; k < l.men && ok; k++ {
					for j := 0; j < k; j++ {
						ok = ok && sq[j] != sq[k]
					}
				}
				nd := node{n: l.men, pc: l.pieces, sq: sq, ep: board.NoSquare}
				for side := board.White; side <= board.Black; side++ {
					at := int64(side)*l.size + idx
					nd.stm = side
					if !ok || c != idx || !nd.legal() {
						kind[at] = 1
						continue
					}
					var best bestMove
					n := 0
					for _, mv := range nd.moves(w.moves[:0]) {
						if mv.capture < 0 && mv.promo == board.NoPieceType {
							continue
						}
						w.child = nd.play(mv)
						v, err := valueOf(&w.child, s.lookupHeld, &w.ep)
						if err != nil {
							t.Error(err)
							return
						}
						best.add(v)
						n++
					}
					if n > 0 {
						if v, err := best.value(); err == nil && v == Value(data[at]) {
							kind[at] = 2
						}
					}
				}
			}
		})
		for _, c := range held {
			s.releaseRaw(c)
		}
		for side := 0; side < 2; side++ {
			vals := data[int64(side)*l.size : int64(side+1)*l.size]
			kinds := kind[int64(side)*l.size : int64(side+1)*l.size]
			unused := make([]byte, len(vals))
			captures := make([]byte, len(vals))
			counts := [3]int64{}
			var prevU, prevC byte
			for i, v := range vals {
				counts[kinds[i]]++
				switch kinds[i] {
				case 0:
					unused[i], captures[i] = v, v
				case 1:
					unused[i], captures[i] = prevU, prevC
				case 2:
					unused[i] = v
					captures[i] = v
					if !Value(prevC).Better(Value(v)) {
						captures[i] = prevC
					}
				}
				prevU, prevC = unused[i], captures[i]
			}
			better := zstdEncoder(l.size)
			bestEnc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression),
				zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true), zstd.WithZeroFrames(true))
			size := func(enc *zstd.Encoder, a []byte, block int) float64 {
				var total int
				for i := 0; i < len(a); i += block {
					total += len(enc.EncodeAll(a[i:min(i+block, len(a))], nil))
				}
				return float64(total) / 1e6
			}
			t.Logf("%s side %d: %d used, %d unused, %d decided by a capture (%.1f %% of those used); better 32K: stored %.2f, unused %.2f, captures %.2f MB; best 128K: stored %.2f, unused %.2f, captures %.2f MB",
				m, side, counts[0]+counts[2], counts[1], counts[2], 100*float64(counts[2])/float64(counts[0]+counts[2]),
				size(better, vals, 1<<15), size(better, unused, 1<<15), size(better, captures, 1<<15),
				size(bestEnc, vals, 1<<17), size(bestEnc, unused, 1<<17), size(bestEnc, captures, 1<<17))
		}
		s.releaseRaw(tb)
	}
}
