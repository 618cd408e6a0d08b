package dtm

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/testpos"
)

// TestFormat3Probes (MATELINE_DTM=DIR holding tables of format 2,
// MATELINE_DTM_FORMAT3=KQRvKR,...): each five-man table built again in
// format 3, both sides and one side, gives the same value as DIR's file
// for random positions of either side to move; the sizes are logged.
func TestFormat3Probes(t *testing.T) {
	dir, names := os.Getenv("MATELINE_DTM"), os.Getenv("MATELINE_DTM_FORMAT3")
	if dir == "" || names == "" {
		t.Skip("MATELINE_DTM=DIR MATELINE_DTM_FORMAT3=KQRvKR,... compares format 3 with DIR's tables")
	}
	ref := Open(dir, Options{BuildMen: 5})
	defer ref.Close()
	for _, name := range strings.Split(names, ",") {
		m, err := ParseMaterial(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ref.Table(m); err != nil {
			t.Fatal(err)
		}
		refInfo, _ := os.Stat(ref.Path(m))
		men := "K" + m.side(0)[1:] + "k" + strings.ToLower(m.side(1)[1:])
		for mode := 1; mode <= 2; mode++ {
			// the tables it reads are DIR's (format 2): builds do not
			// read format 3 yet
			tmp := t.TempDir()
			files, _ := os.ReadDir(dir)
			for _, f := range files {
				if n := f.Name(); strings.HasSuffix(n, ".mldtm") && n != name+".mldtm" {
					if err := os.Symlink(dir+"/"+n, tmp+"/"+n); err != nil {
						t.Fatal(err)
					}
				}
			}
			s := Open(tmp, Options{BuildMen: 5})
			s.format3 = mode
			if _, err := s.Table(m); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(s.Path(m))
			if err != nil {
				t.Fatal(err)
			}
			tb, _ := s.Table(m)
			t.Logf("%s format 3, mode %d (sides %d): %d bytes, format 2 %d (%.1f %%)", name, mode, tb.z.h.sides, info.Size(), refInfo.Size(), 100*float64(info.Size())/float64(refInfo.Size()))
			rng := rand.New(rand.NewPCG(uint64(mode), 7))
			checked := 0
			for checked < 200000 {
				side := " w "
				if rng.IntN(2) == 1 {
					side = " b "
				}
				pos, err := board.ParseFEN(testpos.Placement(rng, men) + side + "- - 0 1")
				if err != nil || !Covers(&pos) {
					continue
				}
				want, err1 := ref.Probe(&pos)
				got, err2 := s.Probe(&pos)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s: %v %v", pos.FEN(), err1, err2)
				}
				if got != want {
					t.Fatalf("%s mode %d: %s: format 3 says %v, format 2 %v", name, mode, pos.FEN(), got, want)
				}
				checked++
			}
			s.Close()
		}
	}
}
