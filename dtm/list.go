package dtm

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"mateline.dev/mateline/dtm/tablefile"
)

// TableInfo is what the cache holds of one table.
type TableInfo struct {
	Material tablefile.Material
	Path     string
	Built    bool  // a file is there
	Bytes    int64 // its size
	Format   int   // the file's format version (2 or 3) when it is read
	Longest  int   // the longest mate in it, in moves
	// Err is what is wrong with the file: a block whose checksum fails,
	// a truncated or foreign file, an old format (ErrOldFormat); it is
	// rebuilt on first use.
	Err error
}

// Inspect reads m's file, checking every block's checksum, without
// building anything.
func (s *Store) Inspect(m tablefile.Material) TableInfo {
	c, _ := m.Canonical()
	info := TableInfo{Material: c, Path: s.Path(c)}
	st, err := os.Stat(info.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return info
	}
	info.Built = true
	if err != nil {
		info.Err = err
		return info
	}
	info.Bytes = st.Size()
	l := tablefile.NewLayout(c)
	z, release, err := tablefile.OpenCompressed(info.Path, l, true)
	if err != nil {
		info.Err = err
		return info
	}
	defer release()
	info.Format, info.Longest = int(z.Header.Version), int(z.Header.Longest)
	return info
}

// Missing lists the tables not in the cache that building ms needs (ms
// and the tables their captures and promotions lead to), each once,
// smaller ones first.
func (s *Store) Missing(ms []tablefile.Material) []tablefile.Material {
	seen := map[string]bool{}
	var out []tablefile.Material
	for _, m := range ms {
		out = append(out, s.missingFor(m, seen)...)
	}
	return out
}

// EstimatedBuild is a rough time to build ms on two cores.
func EstimatedBuild(ms []tablefile.Material) string {
	var d time.Duration
	for _, m := range ms {
		d += estimatedBuild(m)
	}
	return roundEstimate(d)
}
