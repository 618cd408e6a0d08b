package dtm

import (
	"strings"
	"testing"

	"mateline.dev/mateline/dtm/tablefile"
)

// TestWideWithPawns: tables with pawns built by rows and written with
// two-byte values (version 4, both sides; version 5, one side with the
// values captures give left to the probe; from values on disk under a
// checkpoint, which the write removes) give every legal position the
// value a one-byte file gives; and a table whose promotions read such a
// file through its blocks (as a six-man table with pawns reads KRNvKNN)
// is the one a build reading one-byte files makes.
func TestWideWithPawns(t *testing.T) {
	ref := Open(t.TempDir(), Options{BuildMen: 4, Format: 2})
	defer ref.Close()
	kpk, err := tablefile.ParseMaterial("KPvK")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		version uint32
		oneSide bool
		onDisk  bool
	}{
		{"both sides", tablefile.ZFormatWide, false, false},
		{"one side", tablefile.ZFormatDecidedWide, true, false},
		{"values on disk", tablefile.ZFormatWide, false, true},
	} {
		o := Options{BuildMen: 4, Format: 2}
		if c.onDisk {
			o.MemoryBound = boundedMargin + 1
		}
		s := Open(t.TempDir(), o)
		if c.oneSide {
			s.format3, s.format3Men = 2, 3
		}
		s.wide = true
		tb, err := s.Table(kpk)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if h := tb.z.Header; h.Version != c.version || !h.Wide() {
			t.Errorf("%s: KPvK of version %d, want %d", c.name, h.Version, c.version)
		}
		n := sameValues(t, ref, s, tb.l, 1, "KPvK "+c.name)
		t.Logf("%s: version %d, %d positions the same", c.name, tb.z.Header.Version, n)
		// checked by a sample, not whole
		if _, err := s.Verify(kpk, nil); err == nil || !strings.Contains(err.Error(), "--sample") {
			t.Errorf("%s: verify of a wide table: %v", c.name, err)
		}
		if r, err := s.VerifySample(kpk, 2000, 1, nil); err != nil || !r.OK() || r.Positions == 0 {
			t.Errorf("%s: a sample of the wide table: %+v %v", c.name, r, err)
		}
		if files := s.checkpointOf(kpk, tb.l, false, true).Files(); len(files) > 0 {
			t.Errorf("%s: checkpoint files left: %v", c.name, files)
		}
		s.Close()
	}
	s := Open(t.TempDir(), Options{BuildMen: 4, Format: 2})
	defer s.Close()
	s.wide, s.throughFilesMen = true, 3
	for _, sig := range []string{"KRPvK", "KPvKP"} {
		m, err := tablefile.ParseMaterial(sig)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := s.Table(m)
		if err != nil {
			t.Fatalf("%s reading wide files: %v", sig, err)
		}
		n := sameValues(t, ref, s, tb.l, 13, sig+" read through wide files")
		t.Logf("%s: version %d, %d positions the same", sig, tb.z.Header.Version, n)
	}
}
