package dtm

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/generate"
	"mateline.dev/mateline/dtm/tablefile"
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
		m, err := tablefile.ParseMaterial(name)
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
		kind := make([]byte, 2*l.Size)
		eachChunk(2, l.Size, func(w *stepScratch, from, to int64) {
			for idx := from; idx < to; idx++ {
				sq := l.Decode(idx)
				cp := sq
				c, ok := l.Index(&cp)
				for k := 0; k < l.Men && ok; k++ {
					for j := 0; j < k; j++ {
						ok = ok && sq[j] != sq[k]
					}
				}
				nd := tablefile.Node{N: l.Men, Pieces: l.Pieces, Sq: sq, Ep: board.NoSquare}
				for side := board.White; side <= board.Black; side++ {
					at := int64(side)*l.Size + idx
					nd.Stm = side
					if !ok || c != idx || !nd.Legal() {
						kind[at] = 1
						continue
					}
					var best tablefile.BestMove
					n := 0
					for _, mv := range nd.Moves(w.moves[:0]) {
						if mv.Capture < 0 && mv.Promo == board.NoPieceType {
							continue
						}
						w.child = nd.Play(mv)
						v, err := tablefile.ValueOf(&w.child, s.lookupHeld, &w.ep)
						if err != nil {
							t.Error(err)
							return
						}
						best.Add(v)
						n++
					}
					if n > 0 {
						if v, err := best.Value(); err == nil && v == tablefile.Value(data[at]) {
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
			vals := data[int64(side)*l.Size : int64(side+1)*l.Size]
			kinds := kind[int64(side)*l.Size : int64(side+1)*l.Size]
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
					if !tablefile.Value(prevC).Better(tablefile.Value(v)) {
						captures[i] = prevC
					}
				}
				prevU, prevC = unused[i], captures[i]
			}
			better := tablefile.ZstdEncoder(l.Size)
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

// TestMeasureLevels measures, for every table of format 3 in the
// directory MATELINE_DTM_LEVELS, what its stored blocks come to at
// zstd's "better" and best levels, and how long each level takes (two
// goroutines, as a build): one line per table, then the totals for
// tables with and without pawns. It is a measurement, not a check.
func TestMeasureLevels(t *testing.T) {
	dir := os.Getenv("MATELINE_DTM_LEVELS")
	if dir == "" {
		t.Skip("MATELINE_DTM_LEVELS=DIR measures the levels of the tables there")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.mldtm"))
	var sum [2][3]float64 // pawns; stored, better, best bytes
	var secs [2][2]float64
	for _, path := range files {
		m, err := tablefile.ParsePlannedMaterial(strings.TrimSuffix(filepath.Base(path), ".mldtm"))
		if err != nil {
			continue
		}
		l := tablefile.NewLayout(m)
		z, release, err := tablefile.OpenCompressed(path, l, false)
		if err != nil || z.Header.Version < tablefile.ZFormatDecided {
			continue
		}
		var bytes [3]atomic.Int64
		var took [2]time.Duration
		for k, enc := range []*zstd.Encoder{tablefile.ZstdEncoder(l.Size), tablefile.ZstdBest()} {
			start := time.Now()
			tablefile.Blocks(int64(z.Header.Blocks), 2, func(g int64, buf []byte) []byte {
				vals, err := z.Decode(g, buf)
				if err != nil {
					t.Error(err)
					return buf
				}
				if k == 0 {
					from, to, _ := z.Index(g)
					bytes[0].Add(to - from)
				}
				bytes[k+1].Add(int64(len(enc.EncodeAll(vals, nil))))
				return vals
			})
			took[k] = time.Since(start)
		}
		release()
		p := 0
		if m.HasPawns() {
			p = 1
		}
		for k := range sum[p] {
			sum[p][k] += float64(bytes[k].Load()) / 1e6
		}
		secs[p][0] += took[0].Seconds()
		secs[p][1] += took[1].Seconds()
		t.Logf("LEVELS %s stored %.2f better %.2f best %.2f MB; better %.2f s best %.2f s (with decoding)", m,
			float64(bytes[0].Load())/1e6, float64(bytes[1].Load())/1e6, float64(bytes[2].Load())/1e6, took[0].Seconds(), took[1].Seconds())
	}
	for p, name := range []string{"pawnless", "with pawns"} {
		t.Logf("LEVELS %s: stored %.1f better %.1f best %.1f MB; better %.1f s best %.1f s", name, sum[p][0], sum[p][1], sum[p][2], secs[p][0], secs[p][1])
	}
}

// TestMeasureEncoders measures, on one table file of format 3
// (MATELINE_DTM_ENC=FILE), zstd's levels and options on the same bytes:
// every eighth run of MATELINE_DTM_ENC_GROUP consecutive blocks (1 by
// default), compressed whole and in blocks of the format's size. It is a
// measurement, not a check.
func TestMeasureEncoders(t *testing.T) {
	path := os.Getenv("MATELINE_DTM_ENC")
	if path == "" {
		t.Skip()
	}
	_, _, z := openMeasured(t, path)
	var in [][]byte
	group := int64(1)
	if v := os.Getenv("MATELINE_DTM_ENC_GROUP"); v != "" {
		fmt.Sscan(v, &group)
	}
	for g := int64(0); g+group <= int64(z.Header.Blocks); g += 8 * group {
		var b []byte
		for k := int64(0); k < group; k++ {
			vals, _ := z.Decode(g+k, nil)
			b = append(b, vals...)
		}
		in = append(in, b)
	}
	base := []zstd.EOption{zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true), zstd.WithZeroFrames(true)}
	try := func(name string, opts ...zstd.EOption) {
		enc, err := zstd.NewWriter(nil, append(append([]zstd.EOption{}, base...), opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		n := 0
		for _, b := range in {
			n += len(enc.EncodeAll(b, nil))
		}
		whole := time.Since(start).Seconds()
		start = time.Now()
		parts := 0
		for _, b := range in {
			for i := 0; i < len(b); i += 1 << tablefile.ZOneSideShift {
				parts += len(enc.EncodeAll(b[i:min(i+1<<tablefile.ZOneSideShift, len(b))], nil))
			}
		}
		t.Logf("ENC %-30s whole %.3f MB %.2f s; in 128K blocks %.3f MB %.2f s", name, float64(n)/1e6, whole, float64(parts)/1e6, time.Since(start).Seconds())
	}
	try("default", zstd.WithEncoderLevel(zstd.SpeedDefault))
	try("better", zstd.WithEncoderLevel(zstd.SpeedBetterCompression))
	try("better lowmem", zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithLowerEncoderMem(true))
	try("better window 128K", zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithWindowSize(1<<17))
	try("better alllit", zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithAllLitEntropyCompression(true))
	try("best", zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	try("best lowmem", zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithLowerEncoderMem(true))
	try("best window 128K", zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithWindowSize(1<<17))
	try("best alllit", zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithAllLitEntropyCompression(true))
}

// TestMeasureBlockOrders measures, on one table file of format 3
// (MATELINE_DTM_ORDERS=FILE), every eighth block rearranged before zstd
// ("better" and best): as stored, transposed (the 64 or 4096 values of a
// row one after the other: a man's squares outermost), or each byte
// replaced by its difference (xor, subtraction) from the byte 1, 64 or
// 4096 before; then best only on the blocks "better" compresses worst
// (by share). It is a measurement, not a check.
func TestMeasureBlockOrders(t *testing.T) {
	path := os.Getenv("MATELINE_DTM_ORDERS")
	if path == "" {
		t.Skip("MATELINE_DTM_ORDERS=FILE measures the orders of its blocks")
	}
	m, l, z := openMeasured(t, path)
	transpose := func(w int) func([]byte) []byte {
		return func(b []byte) []byte {
			n, out := len(b)/w, make([]byte, len(b))
			for r := 0; r < n; r++ {
				for c := 0; c < w; c++ {
					out[c*n+r] = b[r*w+c]
				}
			}
			return out
		}
	}
	delta := func(d int, sub bool) func([]byte) []byte {
		return func(b []byte) []byte {
			out := append([]byte(nil), b...)
			for i := d; i < len(b); i++ {
				if sub {
					out[i] = b[i] - b[i-d]
				} else {
					out[i] = b[i] ^ b[i-d]
				}
			}
			return out
		}
	}
	orders := []struct {
		name string
		f    func([]byte) []byte
	}{
		{"as stored", func(b []byte) []byte { return b }},
		{"transposed 64", transpose(64)}, {"transposed 4096", transpose(4096)},
		{"xor 1 back", delta(1, false)}, {"xor 64 back", delta(64, false)},
		{"minus 64 back", delta(64, true)}, {"xor 4096 back", delta(4096, false)},
	}
	encs := []*zstd.Encoder{tablefile.ZstdEncoder(l.Size), tablefile.ZstdBest()}
	var sizes [2][]int // level; block: as stored
	var took [2][]time.Duration
	for _, o := range orders {
		var n [2]int
		var d [2]time.Duration
		for g := int64(0); g < int64(z.Header.Blocks); g += 8 {
			vals, err := z.Decode(g, nil)
			if err != nil {
				t.Fatal(err)
			}
			b := o.f(vals)
			for k, enc := range encs {
				start := time.Now()
				c := len(enc.EncodeAll(b, nil))
				d[k] += time.Since(start)
				n[k] += c
				if o.name == "as stored" {
					sizes[k] = append(sizes[k], c)
					took[k] = append(took[k], time.Since(start))
				}
			}
		}
		t.Logf("ORDER %s %-16s better %.3f MB %.2f s, best %.3f MB %.2f s", m, o.name, float64(n[0])/1e6, d[0].Seconds(), float64(n[1])/1e6, d[1].Seconds())
	}
	// best on the share of blocks that "better" compresses worst
	idx := make([]int, len(sizes[0]))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return sizes[0][idx[a]] > sizes[0][idx[b]] })
	for _, share := range []int{0, 20, 40, 60, 80, 100} {
		n, d := 0, time.Duration(0)
		for r, i := range idx {
			k := 0
			if r < share*len(idx)/100 {
				k = 1
			}
			n += sizes[k][i]
			d += took[k][i]
		}
		t.Logf("ORDER %s best on the %d %% worst blocks: %.3f MB %.2f s", m, share, float64(n)/1e6, d.Seconds())
	}
}

// TestMeasureFillRules builds the table MATELINE_DTM_REFILL (its smaller
// tables in MATELINE_DTM) and measures, on every eighth block of each
// side to move, what zstd ("better" and best) makes of it when the slots
// a probe need not read are filled by each rule: the byte before, the
// byte 64 back (a row: flagFillUp), 4096 back or 8 back, each only where
// allowed (else the byte before). It is a measurement, not a check.
func TestMeasureFillRules(t *testing.T) {
	name, dir := os.Getenv("MATELINE_DTM_REFILL"), os.Getenv("MATELINE_DTM")
	if name == "" || dir == "" {
		t.Skip("MATELINE_DTM_REFILL=SIG and MATELINE_DTM=DIR measure the fills")
	}
	s := Open(dir, Options{})
	defer s.Close()
	m, err := tablefile.ParseMaterial(name)
	if err != nil {
		t.Fatal(err)
	}
	l := tablefile.NewLayout(m)
	val, decided, unused := buildMarked(t, s, m, l)
	// back fills each free slot with the byte d back where allowed
	back := func(d int) func(b []byte, decided, unused []uint64, from int64) {
		return func(b []byte, decided, unused []uint64, from int64) {
			for i := range b {
				k, j := (from+int64(i))>>6, uint((from+int64(i))&63)
				u := unused[k]>>j&1 != 0
				if !u && decided[k]>>j&1 == 0 {
					continue
				}
				for _, c := range []int{d, 1} {
					if i >= c && (u || !tablefile.Value(b[i-c]).Better(tablefile.Value(b[i]))) {
						b[i] = b[i-c]
						break
					}
				}
			}
		}
	}
	rules := []struct {
		name string
		fill func(b []byte, decided, unused []uint64, from int64)
	}{
		{"the byte before", func(b []byte, d, u []uint64, from int64) { tablefile.FillDecided(b, d, u, from, false) }},
		{"a row back (64)", func(b []byte, d, u []uint64, from int64) { tablefile.FillDecided(b, d, u, from, true) }},
		{"4096 back", back(4096)}, {"8 back", back(8)},
	}
	encs := []*zstd.Encoder{tablefile.ZstdEncoder(l.Size), tablefile.ZstdBest()}
	for side := 0; side < 2; side++ {
		vals := val[side].Bytes(l.Size)
		for _, r := range rules {
			var n [2]int
			var d [2]time.Duration
			for from := int64(0); from < l.Size; from += 8 << tablefile.ZOneSideShift {
				b := append([]byte(nil), vals[from:min(from+1<<tablefile.ZOneSideShift, l.Size)]...)
				r.fill(b, decided[side], unused[side], from)
				for k, enc := range encs {
					start := time.Now()
					n[k] += len(enc.EncodeAll(b, nil))
					d[k] += time.Since(start)
				}
			}
			t.Logf("FILL %s %v to move, %-16s better %.3f MB %.2f s, best %.3f MB %.2f s", m, board.Color(side), r.name,
				float64(n[0])/1e6, d[0].Seconds(), float64(n[1])/1e6, d[1].Seconds())
		}
	}
}

// openMeasured opens the table file at path (named SIG.mldtm) for a
// measurement; the test's cleanup lets it go.
func openMeasured(t *testing.T, path string) (tablefile.Material, *tablefile.Layout, *tablefile.Compressed) {
	m, _ := tablefile.ParseMaterial(strings.TrimSuffix(filepath.Base(path), ".mldtm"))
	l := tablefile.NewLayout(m)
	z, release, err := tablefile.OpenCompressed(path, l, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return m, l, z
}

// buildMarked builds m's values again in s, with the bits of the
// positions a capture or promotion decides and of the unused slots, its
// smaller tables held while it runs.
func buildMarked(t *testing.T, s *Store, m tablefile.Material, l *tablefile.Layout) ([2]tablefile.ByteArray, [2][]uint64, [2][]uint64) {
	held, err := s.holdChildren(m, tablefile.MaxMen)
	if err != nil {
		t.Fatal(err)
	}
	resolve := s.resolveForBuild
	b, err := generate.Build(l, s.lookupHeld, resolve, generate.Options{Workers: s.workers, Decide: true})
	val, decided, unused := b.Values, b.Decided, b.Unused
	for _, c := range held {
		s.releaseRaw(c)
	}
	if err != nil {
		t.Fatal(err)
	}
	return val, decided, unused
}
