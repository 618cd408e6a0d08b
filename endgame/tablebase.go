package endgame

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"mateline.dev/mateline/board"
)

// ErrNotInTables says a position cannot be probed: it has castling rights
// or more pieces than the tables hold. It is not a failure.
var ErrNotInTables = errors.New("not in tables")

// TableError is a missing, unreadable or corrupt table file.
type TableError struct {
	Path string // the file, or the table name when no file was found
	Err  error
}

func (e *TableError) Error() string { return fmt.Sprintf("syzygy table %s: %v", e.Path, e.Err) }

func (e *TableError) Unwrap() error { return e.Err }

// ErrMissing says a table a probe needs is not in any directory.
var ErrMissing = errors.New("table missing")

// tableFile is a table found on disk, opened on first use.
type tableFile struct {
	path string
	once sync.Once
	t    *table
	err  error
}

// Tablebase is a set of Syzygy tables found in some directories. It is
// safe for concurrent use.
type Tablebase struct {
	wdl, dtz  map[string]*tableFile
	maxPieces int
}

// Open finds the tables in dirs. When two directories hold the same file,
// the first one listed wins (as in Fathom). Files are opened lazily.
func Open(dirs ...string) (*Tablebase, error) {
	tb := &Tablebase{wdl: map[string]*tableFile{}, dtz: map[string]*tableFile{}}
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("syzygy directory: %w", err)
		}
		for _, e := range entries {
			name := e.Name()
			ext := filepath.Ext(name)
			base := strings.TrimSuffix(name, ext)
			if e.IsDir() || (ext != ".rtbw" && ext != ".rtbz") || !isCanonical(base) {
				continue
			}
			m := tb.wdl
			if ext == ".rtbz" {
				m = tb.dtz
			}
			if _, dup := m[base]; !dup {
				m[base] = &tableFile{path: filepath.Join(dir, name)}
				tb.maxPieces = max(tb.maxPieces, len(base)-1)
			}
		}
	}
	return tb, nil
}

// SplitDirs splits a directory list written with the system's list
// separator (':' on Unix).
func SplitDirs(s string) []string { return filepath.SplitList(s) }

// MaxPieces returns the largest piece count of the tables found.
func (tb *Tablebase) MaxPieces() int { return tb.maxPieces }

// Tables returns the number of WDL and DTZ files found.
func (tb *Tablebase) Tables() (wdl, dtz int) { return len(tb.wdl), len(tb.dtz) }

func (tb *Tablebase) load(name string, dtz bool) (*table, error) {
	m, ext := tb.wdl, ".rtbw"
	if dtz {
		m, ext = tb.dtz, ".rtbz"
	}
	f, ok := m[name]
	if !ok {
		return nil, &TableError{name + ext, ErrMissing}
	}
	f.once.Do(func() {
		data, err := mapFile(f.path)
		if err != nil {
			f.err = &TableError{f.path, err}
			return
		}
		t, err := parseTable(name, f.path, data, dtz)
		if err != nil {
			syscall.Munmap(data)
			f.err = &TableError{f.path, err}
			return
		}
		f.t = t
	})
	return f.t, f.err
}

// mapFile maps a file read-only.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		return nil, corruptf("empty file")
	}
	return syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
}

// lookup finds the table, section and index of pos and returns the raw
// value (WDL: 0..4; DTZ: before the map) and the section.
func (tb *Tablebase) lookup(pos *board.Position, dtz bool) (*table, *section, int, error) {
	t, s, idx, err := tb.locate(pos, dtz)
	if err != nil {
		return t, s, 0, err
	}
	v, err := t.value(s, idx)
	if err != nil {
		return nil, nil, 0, &TableError{t.path, err}
	}
	return t, s, v, nil
}

// locate finds the table, section and index of pos.
func (tb *Tablebase) locate(pos *board.Position, dtz bool) (*table, *section, uint64, error) {
	white, black := sideName(pos, board.White), sideName(pos, board.Black)
	name, swapped := canonicalName(white, black)
	t, err := tb.load(name, dtz)
	if err != nil {
		return nil, nil, 0, err
	}
	if t.symmetric {
		swapped = pos.Side() == board.Black
	}
	stm := int(pos.Side())
	if swapped {
		stm ^= 1
	}
	side := stm
	if dtz || t.sections[0][1] == nil {
		side = 0
	}
	// squares of table colour c and type pt, in table orientation
	squares := func(code uint8) []int {
		c := board.Color(code >> 3)
		if swapped {
			c = c.Other()
		}
		var out []int
		for b := pos.Pieces(c, board.PieceType(code&7)); b != 0; {
			s := int(b.PopFirst())
			if swapped && t.pawns {
				s ^= 56
			}
			out = append(out, s)
		}
		return out
	}
	file := 0
	var p []int
	if t.pawns {
		leadCode := uint8(board.Pawn)
		if t.leadBlack {
			leadCode |= 8
		}
		leads := squares(leadCode)
		best := 0
		for i, s := range leads {
			if flapOf[s] < flapOf[leads[best]] {
				best = i
			}
		}
		leads[0], leads[best] = leads[best], leads[0]
		file = min(fileOf(leads[0]), 7-fileOf(leads[0]))
		p = leads
	}
	s := t.sections[file][side]
	if s == nil {
		return nil, nil, 0, &TableError{t.path, corruptf("no section for file %d side %d", file, side)}
	}
	if dtz && !t.symmetric && int(s.flags&flagStoredSideB) != stm {
		return t, s, 0, errOtherSide
	}
	for i := len(p); i < len(s.pieces); {
		sq := squares(s.pieces[i])
		if len(sq) == 0 {
			return nil, nil, 0, &TableError{t.path, corruptf("piece list does not match the material")}
		}
		p = append(p, sq...)
		i += len(sq)
	}
	if len(p) != len(s.pieces) {
		return nil, nil, 0, &TableError{t.path, corruptf("piece list does not match the material")}
	}
	if t.pawns {
		if fileOf(p[0]) >= 4 {
			for i := range p {
				p[i] ^= 7
			}
		}
	} else {
		normalisePawnless(p, s.groups[0])
	}
	return t, s, s.encode(p, file), nil
}

// errOtherSide says the DTZ file stores only the other side to move.
var errOtherSide = errors.New("DTZ file stores the other side to move")

// normalisePawnless moves p[0] into the a1-d1-d4 triangle by the board's
// symmetries (section 4.3 of the format notes).
func normalisePawnless(p []int, group0 int) {
	if fileOf(p[0]) >= 4 {
		for i := range p {
			p[i] ^= 7
		}
	}
	if rankOf(p[0]) >= 4 {
		for i := range p {
			p[i] ^= 56
		}
	}
	for i, s := range p {
		if rankOf(s) == fileOf(s) {
			continue
		}
		if i < group0 && rankOf(s) > fileOf(s) {
			for j := range p {
				p[j] = transpose(p[j])
			}
		}
		break
	}
}
