package tablefile

import (
	"bytes"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// runsOfValues fills dst with one-byte values in runs, which a
// compressor shortens as it does a table's.
func runsOfValues(rng *rand.Rand, dst []byte) {
	for i := range dst {
		dst[i] = byte(rng.IntN(5))
		if dst[i] >= 3 {
			dst[i] = byte(128 + rng.IntN(40))
		}
		if i > 0 && rng.IntN(6) != 0 {
			dst[i] = dst[i-1]
		}
	}
}

// randomBits is n bits, a quarter of them set.
func randomBits(rng *rand.Rand, n int64) []uint64 {
	b := make([]uint64, (n+63)/64)
	for k := range b {
		b[k] = rng.Uint64() & rng.Uint64()
	}
	return b
}

// wholeFile writes c's file the way a file of one side is written, every
// block compressed before the first is written (writeTo).
func wholeFile(t *testing.T, path string, c *compressedTable) []byte {
	t.Helper()
	if _, err := writeSized(path, c.writeTo); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameBytes checks that the file at path holds want, byte for byte.
func sameBytes(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("streamed file of %d bytes differs from the whole one's %d", len(got), len(want))
	}
}

// TestStreamedEqualsWhole: a file of both sides written a batch of
// blocks at a time (WriteFile's streamTo, WriteFileFrom's chunks) is
// the file written with every block compressed first, byte for byte, in
// formats 2 to 5 and over batches and chunks that end inside a side or
// on its end, and it reads back its values.
func TestStreamedEqualsWhole(t *testing.T) {
	l := testLayout(t, "KRvKN")
	rng := rand.New(rand.NewPCG(11, 12))
	var sides [2][]byte
	var decided, unused [2][]uint64
	for s := range 2 {
		sides[s] = make([]byte, l.Size)
		runsOfValues(rng, sides[s])
		decided[s], unused[s] = randomBits(rng, l.Size), randomBits(rng, l.Size)
	}
	per := blocksPerSide(l.Size, zBlockShift)
	t.Logf("KRvKN: %d positions a side, %d blocks a side", l.Size, per)
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		o     ZOptions
		batch int64
	}{
		{"format 2, batch 1", ZOptions{}, 1},
		{"format 2, batch 3", ZOptions{}, 3},
		{"format 2, batch of a side", ZOptions{}, per},
		{"format 2, one batch", ZOptions{}, streamBatch},
		{"format 3 of both sides, batch 5", ZOptions{Decided: decided, Unused: unused}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole := newCompressedTable(l, sides, tc.o, zBlockShift)
			enc := ZstdEncoder(l.Size)
			whole.compress(2, func(int64) *zstd.Encoder { return enc }, true, false, whole.comp, whole.crcs, func(int64) bool { return true }, 0, 2*per)
			want := wholeFile(t, filepath.Join(dir, "whole"), whole)
			streamed := newCompressedTable(l, sides, tc.o, zBlockShift)
			path := filepath.Join(dir, "KRvKN"+FileSuffix)
			if _, err := writeSized(path, func(f *os.File) (int64, error) { return streamed.streamTo(f, 2, tc.batch) }); err != nil {
				t.Fatal(err)
			}
			sameBytes(t, path, want)
			readsBack(t, path, l, sides, tc.o.Decided[0] != nil, decided, unused)
		})
	}
	for _, tc := range []struct {
		name  string
		wide  bool
		flags bool
		chunk int64
	}{
		{"format 2, chunk of a block", false, false, 1 << zBlockShift},
		{"format 2, chunk of 4 blocks", false, false, 4 << zBlockShift},
		{"format 4 (wide)", true, false, 2 << zBlockShift},
		{"format 3 of both sides", false, true, 3 << zBlockShift},
		{"format 5 of both sides", true, true, 1 << zBlockShift},
	} {
		t.Run("from a stream, "+tc.name, func(t *testing.T) {
			st := Stream{Values: func(side int, from int64, dst []byte) error {
				if !tc.wide {
					copy(dst, sides[side][from:])
					return nil
				}
				for i := range int64(len(dst) / 2) {
					dst[2*i], dst[2*i+1] = sides[side][from+i], 0
				}
				return nil
			}, Wide: tc.wide}
			if tc.flags {
				st.Flags = func(side int, from int64, d, u []uint64) error {
					copy(d, decided[side][from/64:])
					copy(u, unused[side][from/64:])
					return nil
				}
			}
			whole, err := newStreamedTable(l, st, tc.chunk)
			if err != nil {
				t.Fatal(err)
			}
			if err := whole.compressFrom(l, st, tc.chunk, 2, nil); err != nil {
				t.Fatal(err)
			}
			want := wholeFile(t, filepath.Join(dir, "whole"), whole)
			path := filepath.Join(dir, "KRvKN"+FileSuffix)
			if _, err := WriteFileFrom(path, l, st, tc.chunk, 2); err != nil {
				t.Fatal(err)
			}
			sameBytes(t, path, want)
			readsBack(t, path, l, sides, tc.flags, decided, unused)
		})
	}
}

// readsBack checks that the file at path opens, its checksums whole, and
// gives every value of sides; with flags (format 3), a decided
// position's value may be filled, and is only checked not to be better,
// and an unused slot is not read.
func readsBack(t *testing.T, path string, l *Layout, sides [2][]byte, flags bool, decided, unused [2][]uint64) {
	t.Helper()
	z, release, err := OpenCompressed(path, l, true)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	z.Cache = NewBlockCache(1 << 24)
	if h := z.Header; h.Version == ZFormatVersion && h.crc != crc32.Update(crc32.Checksum(sides[0], Castagnoli), Castagnoli, sides[1]) {
		t.Errorf("the values' checksum %08x is not theirs", h.crc)
	}
	for s := range 2 {
		for i := range l.Size {
			got, err := z.At(s, i)
			if err != nil {
				t.Fatal(err)
			}
			want := Value(sides[s][i])
			if flags && unused[s][i/64]>>(i%64)&1 != 0 {
				continue
			}
			filled := flags && decided[s][i/64]>>(i%64)&1 != 0
			if got != want && (!filled || got.Better(want)) {
				t.Fatalf("side %d index %d: %v, want %v", s, i, got, want)
			}
		}
	}
}
