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

// sideLetters writes one side's table-name letters into buf.
func sideLetters(pos *board.Position, c board.Color, buf []byte) int {
	n := 0
	for _, t := range [...]board.PieceType{board.King, board.Queen, board.Rook, board.Bishop, board.Knight, board.Pawn} {
		for k := pos.Pieces(c, t).Count(); k > 0 && n < len(buf); k-- {
			buf[n] = letterOf(t)
			n++
		}
	}
	return n
}

// locate finds the table, section and index of pos. It allocates nothing.
func (tb *Tablebase) locate(pos *board.Position, dtz bool) (*table, *section, uint64, error) {
	var wb, bb [8]byte
	nw := sideLetters(pos, board.White, wb[:])
	nb := sideLetters(pos, board.Black, bb[:])
	first, second := wb[:nw], bb[:nb]
	swapped := lessSide(string(second), string(first))
	if swapped {
		first, second = second, first
	}
	var nameBuf [17]byte
	n := copy(nameBuf[:], first)
	nameBuf[n] = 'v'
	n++
	n += copy(nameBuf[n:], second)
	t, err := tb.load(string(nameBuf[:n]), dtz)
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
	var buf [8]int
	p := buf[:0]
	// add appends the squares of table piece code, in table orientation.
	add := func(code uint8) int {
		c := board.Color(code >> 3)
		if swapped {
			c = c.Other()
		}
		k := 0
		for b := pos.Pieces(c, board.PieceType(code&7)); b != 0 && len(p) < len(buf); k++ {
			s := int(b.PopFirst())
			if swapped && t.pawns {
				s ^= 56
			}
			p = append(p, s)
		}
		return k
	}
	file := 0
	if t.pawns {
		leadCode := uint8(board.Pawn)
		if t.leadBlack {
			leadCode |= 8
		}
		add(leadCode)
		best := 0
		for i := range p {
			if flapOf[p[i]] < flapOf[p[best]] {
				best = i
			}
		}
		p[0], p[best] = p[best], p[0]
		file = min(fileOf(p[0]), 7-fileOf(p[0]))
	}
	s := t.sections[file][side]
	if s == nil {
		return nil, nil, 0, &TableError{t.path, corruptf("no section for file %d side %d", file, side)}
	}
	if dtz && !t.symmetric && int(s.flags&flagStoredSideB) != stm {
		return t, s, 0, errOtherSide
	}
	for i := len(p); i < len(s.pieces); {
		k := add(s.pieces[i])
		if k == 0 {
			return nil, nil, 0, &TableError{t.path, corruptf("piece list does not match the material")}
		}
		i += k
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

// WinningLine follows the tables' best moves from a won position until
// mate or the winner's next zeroing move (at most 200 plies).
func (tb *Tablebase) WinningLine(pos board.Position) ([]board.Move, error) {
	var line []board.Move
	winner := pos.Side()
	for len(line) < 200 {
		moves, _, err := tb.ProbeRoot(&pos)
		if err != nil || len(moves) == 0 {
			return line, err
		}
		m := moves[0].Move
		zeroing := pos.PieceAt(m.To()) != board.NoPiece || m.IsEnPassant() || pos.PieceAt(m.From()).Type() == board.Pawn
		mover := pos.Side()
		line = append(line, m)
		pos.Play(m)
		if pos.IsCheckmate() || zeroing && mover == winner || !pos.HasLegalMove() {
			break
		}
	}
	return line, nil
}
