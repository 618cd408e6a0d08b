package dtm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/generate"
	"mateline.dev/mateline/dtm/tablefile"
)

// tableValues reads a table file's values whole, White to move then
// Black.
func tableValues(t testing.TB, path string, m tablefile.Material) []byte {
	t.Helper()
	l := tablefile.NewLayout(m)
	z, release, err := tablefile.OpenCompressed(path, l, true)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	var b bytes.Buffer
	if _, err := z.DecompressAll(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// writeOldFormat writes a file of format version 1 as mateline wrote it
// until 2026-11-27: the 64-byte header (magic, version, men, signature,
// size, the values' and the header's CRC-32C), then every value.
func writeOldFormat(path string, l *tablefile.Layout, vals []byte) error {
	b := make([]byte, 64, 64+len(vals))
	copy(b, tablefile.Magic[:])
	binary.LittleEndian.PutUint32(b[8:], tablefile.OldFormatVersion)
	binary.LittleEndian.PutUint32(b[12:], uint32(l.Men))
	copy(b[16:32], l.Mat.String())
	binary.LittleEndian.PutUint64(b[32:], uint64(l.Size))
	binary.LittleEndian.PutUint32(b[40:], crc32.Checksum(vals, tablefile.Castagnoli))
	binary.LittleEndian.PutUint32(b[44:], crc32.Checksum(b[:44], tablefile.Castagnoli))
	return os.WriteFile(path, append(b, vals...), 0o644)
}

// TestCompressedEqualsRaw builds tables and compares their values,
// decompressed whole, with every probe through the block cache with a
// tiny cache (every block evicted again and again).
func TestCompressedEqualsRaw(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, Options{BuildMen: 4, CacheBytes: 1 << 16})
	defer s.Close()
	for _, sig := range []string{"KQvK", "KRvKN", "KPvKP", "KBNvK"} {
		m, _ := tablefile.ParseMaterial(sig)
		tab, err := s.Build(m)
		if err != nil {
			t.Fatal(err)
		}
		vals := tableValues(t, s.Path(m), m)
		l := tab.l
		if int64(len(vals)) != 2*l.Size {
			t.Fatalf("%s: %d values", sig, len(vals))
		}
		for idx := int64(0); idx < l.Size; idx += 7 {
			for side := 0; side < 2; side++ {
				v, err := tab.z.At(side, idx)
				if err != nil || byte(v) != vals[int64(side)*l.Size+idx] {
					t.Fatalf("%s: side %d index %d: %v %v, want %d", sig, side, idx, v, err, vals[int64(side)*l.Size+idx])
				}
			}
		}
	}
}

// TestOldFormatRebuilt: a table file of format version 1 is named in a
// warning and rebuilt on first use, its values the same; where tables of
// its men may not be built, it is not built.
func TestOldFormatRebuilt(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, Options{BuildMen: 4})
	m, _ := tablefile.ParseMaterial("KRvK")
	if _, err := s.Build(m); err != nil {
		t.Fatal(err)
	}
	s.Close()
	path := s.Path(m)
	want := tableValues(t, path, m)
	l := tablefile.NewLayout(m)
	if err := writeOldFormat(path, l, want); err != nil {
		t.Fatal(err)
	}
	if info := s.Inspect(m); !errors.Is(info.Err, tablefile.ErrOldFormat) {
		t.Errorf("Inspect of an old file: %v, want ErrOldFormat", info.Err)
	}
	pos := board.MustParseFEN("8/8/8/8/8/2k5/8/K6R w - - 0 1")
	var warnings []string
	warn := func(m string) { warnings = append(warnings, m) }
	none := Open(dir, Options{BuildMen: 0, Warn: warn})
	if _, err := none.Probe(&pos); !errors.Is(err, ErrMissing) {
		t.Errorf("probe without building: %v, want ErrMissing", err)
	}
	none.Close()
	s = Open(dir, Options{BuildMen: 3, Warn: warn})
	defer s.Close()
	if v, err := s.Probe(&pos); err != nil || !v.Win() {
		t.Fatalf("probe: %v %v", v, err)
	}
	if info := s.Inspect(m); info.Err != nil || info.Format != tablefile.ZFormatVersion {
		t.Errorf("after use: format %d, %v; want %d", info.Format, info.Err, tablefile.ZFormatVersion)
	}
	if got := tableValues(t, path, m); !bytes.Equal(got, want) {
		t.Errorf("values differ after the rebuild")
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], "format version 1") {
		t.Errorf("warnings %q, want two naming format version 1", warnings)
	}
}

// TestFlippedByteCaught flips each byte of a small table's file in turn
// (header, index, blocks): the file is never trusted.
func TestFlippedByteCaught(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, Options{BuildMen: 4})
	m, _ := tablefile.ParseMaterial("KQvK")
	if _, err := s.Build(m); err != nil {
		t.Fatal(err)
	}
	s.Close()
	path := s.Path(m)
	data, _ := os.ReadFile(path)
	l := tablefile.NewLayout(m)
	step := 1
	if testing.Short() {
		step = 13
	}
	for i := 0; i < len(data); i += step {
		if i >= 56 && i < 60 {
			continue // the header's zero bytes are not read
		}
		b := append([]byte(nil), data...)
		b[i] ^= 0x10
		p := filepath.Join(t.TempDir(), "KQvK"+tablefile.FileSuffix)
		os.WriteFile(p, b, 0o644)
		if z, release, err := tablefile.OpenCompressed(p, l, true); err == nil {
			release()
			t.Fatalf("byte %d flipped: file accepted (%d blocks)", i, z.Header.Blocks)
		} else if !errors.Is(err, tablefile.ErrCorrupt) {
			t.Fatalf("byte %d flipped: %v, want ErrCorrupt", i, err)
		}
	}
}

// TestCorruptBlockAtProbe: a block damaged after the table was opened is
// named in a warning and the probe is not answered (never a wrong value).
func TestCorruptBlockAtProbe(t *testing.T) {
	dir := t.TempDir()
	var warnings []string
	s := Open(dir, Options{BuildMen: 4, Warn: func(m string) { warnings = append(warnings, m) }})
	defer s.Close()
	m, _ := tablefile.ParseMaterial("KQvK")
	tab, err := s.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	// damage a copy of the mapping: the table reads its blocks from z.file
	z := tab.z
	file := append([]byte(nil), z.File...)
	z.File = file
	from, to, _ := z.Index(0)
	file[(from+to)/2] ^= 1
	if _, err := z.At(0, 5); !errors.Is(err, tablefile.ErrCorrupt) {
		t.Fatalf("probe of a damaged block: %v, want ErrCorrupt", err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "block 0") {
		t.Errorf("warnings %q, want one naming block 0", warnings)
	}
}

func FuzzReadCompressed(f *testing.F) {
	dir := f.TempDir()
	s := Open(dir, Options{BuildMen: 3})
	m, _ := tablefile.ParseMaterial("KQvK")
	if _, err := s.Build(m); err != nil {
		f.Fatal(err)
	}
	s.Close()
	good, _ := os.ReadFile(s.Path(m))
	// the same table in format 3, one side stored
	s3 := Open(f.TempDir(), Options{BuildMen: 3})
	s3.format3, s3.format3Men = 2, 3
	if _, err := s3.Build(m); err != nil {
		f.Fatal(err)
	}
	s3.Close()
	good3, _ := os.ReadFile(s3.Path(m))
	l := tablefile.NewLayout(m)
	f.Add(good)
	f.Add(good[:tablefile.ZHeaderSize])
	f.Add(good[:len(good)-3])
	f.Add([]byte("MLDTM\x1a\x00\x00\x02\x00\x00\x00"))
	f.Add(good3)
	f.Add(good3[:len(good3)-3])
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "KQvK"+tablefile.FileSuffix)
		os.WriteFile(path, data, 0o644)
		z, release, err := tablefile.OpenCompressed(path, l, true)
		if err != nil {
			return
		}
		defer release()
		var b bytes.Buffer
		crc, err := z.DecompressAll(&b)
		if err != nil {
			return
		}
		want := z.Header.SidesStored() * l.Size
		if int64(b.Len()) != want || z.Header.Version == tablefile.ZFormatVersion && crc != crc32.Checksum(b.Bytes(), tablefile.Castagnoli) {
			t.Fatalf("%d values accepted, want %d", b.Len(), want)
		}
	})
}

// TestConcurrentProbes: threads probing through one small block cache
// (blocks evicted while others read them) read every value right.
func TestConcurrentProbes(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, Options{BuildMen: 4, CacheBytes: 1 << 18})
	defer s.Close()
	m, _ := tablefile.ParseMaterial("KRvKN")
	tab, err := s.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	vals := tableValues(t, s.Path(m), m)
	l := tab.l
	done := make(chan error, 4)
	for w := 0; w < 4; w++ {
		go func() {
			for i := int64(w); i < 2*l.Size; i += 97 {
				side, idx := int(i/l.Size), i%l.Size
				v, err := tab.z.At(side, idx)
				if err != nil || byte(v) != vals[i] {
					done <- fmt.Errorf("value %d: %v %v, want %d", i, v, err, vals[i])
					return
				}
			}
			done <- nil
		}()
	}
	for w := 0; w < 4; w++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	reads := 4 * (2*l.Size + 96) / 97
	if m := s.cache.Misses.Load(); m == 0 || m >= reads {
		t.Errorf("%d misses of about %d reads: the cache was not exercised", m, reads)
	}
}

// rawBuild builds m's values again in memory, as the generator leaves
// them before they are compressed (its tables already in s).
func rawBuild(t testing.TB, s *Store, m tablefile.Material) []byte {
	t.Helper()
	held, err := s.holdChildren(m, tablefile.MaxMen)
	defer func() {
		for _, c := range held {
			s.releaseRaw(c)
		}
	}()
	if err != nil {
		t.Fatal(err)
	}
	l := tablefile.NewLayout(m)
	resolve := s.resolveForBuild
	b, err := generate.Build(l, s.lookupHeld, resolve, generate.Options{Workers: s.workers})
	val := b.Values
	if err != nil {
		t.Fatal(err)
	}
	return append(append([]byte(nil), val[0].Bytes(l.Size)...), val[1].Bytes(l.Size)...)
}

// TestEveryTableDecompressesToItsBuild: for every table of up to four
// men (and, with MATELINE_DTM5 naming a cache that holds them, two of
// five), the compressed file decompresses to exactly the values the
// generator computes.
func TestEveryTableDecompressesToItsBuild(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, Options{BuildMen: 4})
	defer s.Close()
	sigs := tablefile.AllUpTo(4)
	if testing.Short() {
		sigs = sigs[:12]
	}
	for _, m := range sigs {
		if _, err := s.Build(m); err != nil {
			t.Fatal(err)
		}
		got := tableValues(t, s.Path(m), m)
		if want := rawBuild(t, s, m); !bytes.Equal(got, want) {
			t.Errorf("%s: the compressed file differs from the build", m)
		}
	}
	five := os.Getenv("MATELINE_DTM5")
	if five == "" || testing.Short() {
		t.Logf("%d tables compared; MATELINE_DTM5 not set: five-man tables not compared", len(sigs))
		return
	}
	s5 := Open(five, Options{BuildMen: 0})
	defer s5.Close()
	for _, sig := range []string{"KQRvKR", "KRPvKR"} {
		m, _ := tablefile.ParseMaterial(sig)
		if _, err := s5.table(m, 0); err != nil {
			t.Logf("%s: %v: not compared", sig, err)
			continue
		}
		got := tableValues(t, s5.Path(m), m)
		if want := rawBuild(t, s5, m); !bytes.Equal(got, want) {
			t.Errorf("%s: the compressed file differs from the build", m)
		}
	}
}

// TestFillDecided: a free slot takes the byte before it, or with up the
// byte a row back, only where that is no better for the side to move
// than its value (an unused slot takes it always); others stay.
func TestFillDecided(t *testing.T) {
	const n = 192
	base := make([]byte, n)
	for i := range base {
		base[i] = byte(tablefile.WinIn(1 + i%7))
	}
	base[67], base[66] = byte(tablefile.WinIn(1)), byte(tablefile.WinIn(9))                                         // the best: either byte may stand in
	base[73] = byte(tablefile.LossIn(0))                                                                            // the worst: neither may
	base[133], base[132], base[69] = byte(tablefile.LossIn(3)), byte(tablefile.LossIn(1)), byte(tablefile.WinIn(2)) // only the byte before may
	var decided, unused [3]uint64
	decided[1] = 1<<3 | 1<<9
	decided[2] = 1 << 5
	unused[2] = 1 << 40
	for _, c := range []struct {
		up   bool
		want map[int]tablefile.Value
	}{
		{true, map[int]tablefile.Value{67: tablefile.Value(base[3]), 133: tablefile.LossIn(1), 168: tablefile.Value(base[104])}},
		{false, map[int]tablefile.Value{67: tablefile.Value(base[66]), 133: tablefile.LossIn(1), 168: tablefile.Value(base[167])}},
	} {
		b := tablefile.FillDecided(append([]byte(nil), base...), decided[:], unused[:], 0, c.up)
		for i := range b {
			want, ok := c.want[i]
			if !ok {
				want = tablefile.Value(base[i])
			}
			if tablefile.Value(b[i]) != want {
				t.Errorf("up %v: slot %d holds %v, want %v", c.up, i, tablefile.Value(b[i]), want)
			}
		}
	}
}

// TestOneSideEncoder: a pawnless table's stored side is all at "better";
// a table with pawns has bestInCycle of every bestCycle blocks at best.
func TestOneSideEncoder(t *testing.T) {
	for _, c := range []struct {
		sig  string
		best int
	}{{"KQRvKR", 0}, {"KRPvKR", 2 * tablefile.BestInCycle}} {
		m, _ := tablefile.ParseMaterial(c.sig)
		l := tablefile.NewLayout(m)
		n := 0
		for i := int64(0); i < 2*tablefile.BestCycle; i++ {
			switch tablefile.OneSideEncoder(l, i) {
			case tablefile.ZstdBest():
				n++
			case tablefile.ZstdEncoder(l.Size):
			default:
				t.Fatalf("%s block %d: another encoder", c.sig, i)
			}
		}
		if n != c.best {
			t.Errorf("%s: %d of %d blocks at best, want %d", c.sig, n, 2*tablefile.BestCycle, c.best)
		}
	}
}
