package dtm

import (
	"bytes"
	"path/filepath"
	"testing"

	"mateline.dev/mateline/dtm/tablefile"
)

// TestRowsMatchPositions builds pawnless tables with both generators and
// compares the files byte for byte.
func TestRowsMatchPositions(t *testing.T) {
	sigs := []string{"KQvK", "KRvK", "KBvK", "KNvK", "KPvK", "KBBvK", "KBNvK", "KNNvK", "KQvKR", "KPvKP", "KPPvK", "KRPvK", "KQvKP", "KNvKP", "KQPvK", "KRRvK", "KBPvK"}
	if testing.Short() {
		sigs = sigs[:10]
	}
	old, rows := t.TempDir(), t.TempDir()
	so := Open(old, Options{BuildMen: 4})
	so.byPositions = true
	defer so.Close()
	sr := Open(rows, Options{BuildMen: 4})
	defer sr.Close()
	for _, sig := range sigs {
		m, err := tablefile.ParseMaterial(sig)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := so.Build(m); err != nil {
			t.Fatal(err)
		}
		if _, err := sr.Build(m); err != nil {
			t.Fatal(err)
		}
		a := tableValues(t, filepath.Join(old, sig+".mldtm"), m)
		b := tableValues(t, filepath.Join(rows, sig+".mldtm"), m)
		if len(a) == 0 || !bytes.Equal(a, b) {
			n := 0
			for i := 0; i < min(len(a), len(b)); i++ {
				if a[i] != b[i] {
					if n < 10 {
						t.Errorf("%s: value %d: rows %d, positions %d", sig, i, b[i], a[i])
					}
					n++
				}
			}
			t.Errorf("%s: %d of %d bytes differ (sizes %d, %d)", sig, n, len(a), len(a), len(b))
		}
	}
}
