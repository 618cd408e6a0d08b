package generate

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"slices"
	"sync"
	"sync/atomic"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// A mate longer than a byte holds (tablefile.MaxMoves) takes a value of
// two bytes. A build by rows keeps the low byte of every value in its
// byte arrays and the high bytes, rare, apart: highBytes, by row of 64
// positions. A conversion whose value takes two bytes is kept as a draw
// in the group's conv codes (which holds exactly for the plies a byte
// reaches: such a conversion neither mates nor loses by then) and its
// value in wideConversions, which the plies past that read.

// highBytes holds, for the rows of a table built by rows where a value
// takes two bytes, the high bytes of their 64 values (0 for a value of
// one byte): a map of those rows, written under a lock, and a bit per
// row that says it is there, read without one.
type highBytes struct {
	mu   sync.RWMutex
	rows [2]map[int64]*[64]byte
	has  [2][]uint64
	n    atomic.Int64 // rows in the maps
}

// newHighBytes is an empty highBytes for a numbering of rows rows.
func newHighBytes(rows int64) *highBytes {
	h := &highBytes{}
	for s := range 2 {
		h.rows[s] = map[int64]*[64]byte{}
		h.has[s] = make([]uint64, (rows+63)/64)
	}
	return h
}

// any reports whether some value takes two bytes.
func (h *highBytes) any() bool { return h.n.Load() > 0 }

// hasRow reports whether row r of side s has a value of two bytes.
func (h *highBytes) hasRow(s board.Color, r int64) bool {
	return atomic.LoadUint64(&h.has[s][r>>6])>>(r&63)&1 != 0
}

// set writes the high byte hi of square f's value in row r, side s to
// move (0: the value takes one byte).
func (h *highBytes) set(s board.Color, r int64, f int, hi byte) {
	if hi == 0 && !h.hasRow(s, r) {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	row := h.rowToWrite(s, r)
	row[f] = hi
	if hi == 0 && *row == ([64]byte{}) {
		h.dropRow(s, r)
	}
}

// setAll writes hi (not 0) as the high byte of the positions x of row
// r, side s to move: the positions a ply of two-byte values found.
func (h *highBytes) setAll(s board.Color, r int64, x uint64, hi byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	row := h.rowToWrite(s, r)
	for y := x; y != 0; y &= y - 1 {
		row[bits.TrailingZeros64(y)] = hi
	}
}

// rowToWrite is row r's high bytes, side s, added (zero) when it has
// none; the caller holds the lock.
func (h *highBytes) rowToWrite(s board.Color, r int64) *[64]byte {
	row := h.rows[s][r]
	if row == nil {
		row = new([64]byte)
		h.rows[s][r] = row
		atomic.OrUint64(&h.has[s][r>>6], 1<<(r&63))
		h.n.Add(1)
	}
	return row
}

// dropRow forgets row r's high bytes, side s; the caller holds the lock.
func (h *highBytes) dropRow(s board.Color, r int64) {
	delete(h.rows[s], r)
	atomic.AndUint64(&h.has[s][r>>6], ^(uint64(1) << (r & 63)))
	h.n.Add(-1)
}

// row copies the high bytes of row r, side s, into dst, and reports
// whether it has any (dst is left alone when not).
func (h *highBytes) row(s board.Color, r int64, dst *[64]byte) bool {
	if !h.hasRow(s, r) {
		return false
	}
	h.mu.RLock()
	*dst = *h.rows[s][r]
	h.mu.RUnlock()
	return true
}

// value is the value of square f in row r, side s, whose low byte is lo.
func (h *highBytes) value(s board.Color, r int64, f int, lo byte) tablefile.Value {
	var hi [64]byte
	if !h.row(s, r, &hi) {
		return tablefile.Value(lo)
	}
	return tablefile.Value(lo) | tablefile.Value(hi[f])<<8
}

// wideBits is the set of row r's positions (side s) whose value takes
// two bytes.
func (h *highBytes) wideBits(s board.Color, r int64) uint64 {
	var hi [64]byte
	if !h.row(s, r, &hi) {
		return 0
	}
	return ^bytesEqual(hi[:], 0)
}

// rowsMatching is, of row r's positions (side s) whose low byte is
// code's, those whose high byte is code's too.
func (h *highBytes) rowsMatching(s board.Color, r int64, code tablefile.Value, lows uint64) uint64 {
	var hi [64]byte
	if !h.row(s, r, &hi) {
		if code.Wide() {
			return 0
		}
		return lows
	}
	return lows & bytesEqual(hi[:], byte(code>>8))
}

// highFileMagic starts a checkpoint's file of high bytes.
const highFileMagic = "mateline high bytes 1\n"

// save writes the high bytes to path through a temporary file, synced
// and renamed: a record per row (side, row number, its 64 high bytes).
func (h *highBytes) save(path string) error {
	return writeAtomicFile(path, func(f io.Writer) error {
		w := bufio.NewWriter(f)
		w.WriteString(highFileMagic)
		h.mu.RLock()
		var rec [9]byte
		for s := range 2 {
			for r, row := range h.rows[s] {
				rec[0] = byte(s)
				binary.LittleEndian.PutUint64(rec[1:], uint64(r))
				w.Write(rec[:])
				w.Write(row[:])
			}
		}
		h.mu.RUnlock()
		return w.Flush()
	})
}

// load reads the high bytes save wrote at path (rows of at most rows).
func (h *highBytes) load(path string, rows int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rd := bufio.NewReader(f)
	magic := make([]byte, len(highFileMagic))
	if _, err := io.ReadFull(rd, magic); err != nil || string(magic) != highFileMagic {
		return fmt.Errorf("%s: not a file of high bytes", path)
	}
	var rec [9 + 64]byte
	for {
		_, err := io.ReadFull(rd, rec[:])
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		s, r := board.Color(rec[0]), int64(binary.LittleEndian.Uint64(rec[1:9]))
		if s > board.Black || r < 0 || r >= rows {
			return fmt.Errorf("%s: a row out of the table", path)
		}
		for f, hi := range rec[9:] {
			if hi != 0 {
				h.set(s, r, f, hi)
			}
		}
	}
}

// clearRows forgets the high bytes of rows [lo, hi): a group of slices
// solved again.
func (h *highBytes) clearRows(lo, hi int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range 2 {
		for r := range h.rows[s] {
			if r >= lo && r < hi {
				h.dropRow(board.Color(s), r)
			}
		}
	}
}

// wideConversions are, for one side to move, the positions of the group
// whose best conversion's value takes two bytes, with quiet moves
// besides: gathered by the set-up (add), then sorted by group index (row
// from lo, times 64, plus the square) with their values, marked a bit a
// position, and listed by the ply of their value (index). A ply's own
// are put in due for its step.
type wideConversions struct {
	found []wideConversion
	rows  []uint64        // a bit per position that has one, a word per row
	byPly map[int][]int64 // group indices by their value's ply
	due   rowSet          // those of the ply being stepped
}

// wideConversion is one such position: its group index and value.
type wideConversion struct {
	at int64
	v  tablefile.Value
}

// add takes in conversions a worker found.
func (wc *wideConversions) add(found []wideConversion) {
	wc.found = append(wc.found, found...)
}

// index sorts what the set-up found and marks it, for a group of rows
// rows.
func (wc *wideConversions) index(rows int64) {
	if len(wc.found) == 0 {
		return
	}
	slices.SortFunc(wc.found, func(a, b wideConversion) int { return cmp.Compare(a.at, b.at) })
	wc.rows = make([]uint64, rows)
	wc.byPly = map[int][]int64{}
	for _, c := range wc.found {
		wc.rows[c.at/64] |= 1 << (c.at % 64)
		wc.byPly[c.v.Plies()] = append(wc.byPly[c.v.Plies()], c.at)
	}
	wc.due = newRowSet(rows)
}

// value is the value of the wide conversion at group index at, if it
// has one.
func (wc *wideConversions) value(at int64) (tablefile.Value, bool) {
	if wc.rows == nil || wc.rows[at/64]>>(at%64)&1 == 0 {
		return tablefile.Draw, false
	}
	i, ok := slices.BinarySearchFunc(wc.found, at, func(c wideConversion, at int64) int { return cmp.Compare(c.at, at) })
	if !ok {
		return tablefile.Draw, false
	}
	return wc.found[i].v, true
}

// dueAt puts in due the positions whose wide conversion's value is at
// ply p (due emptied first), and reports whether there are any.
func (wc *wideConversions) dueAt(p int) bool {
	if wc.rows == nil {
		return false
	}
	wc.due.reset()
	at := wc.byPly[p]
	for _, i := range at {
		wc.due.or(i/64, 1<<(i%64))
	}
	return len(at) > 0
}

// convAt is the value of the best conversion of the position of square
// f in row r (from lo), side s: its conv code, or the value a wide
// conversion keeps apart under the code of a draw.
func (g *rowGen) convAt(s board.Color, r int64, f int) tablefile.Value {
	c := g.conv[s][r*64+int64(f)]
	if c == 1 {
		if v, ok := g.wideConv[s].value(r*64 + int64(f)); ok {
			return v
		}
	}
	return convValue(c)
}

// wideStream is the values of a table built by rows where some take two
// bytes, for its file (tablefile.Stream with Wide): low then high byte.
// drop, when not nil, lets go of the mapped values' resident pages, after
// every dropEvery values read (the values on disk: the pages read would
// stay in the process, as the write of one byte a value lets them go).
func (g *rowGen) wideStream(drop func()) tablefile.ValueSource {
	read := int64(0)
	return func(side int, from int64, dst []byte) error {
		s := board.Color(side)
		n := int64(len(dst)) / 2
		if read += n; drop != nil && read >= dropEvery {
			drop()
			read = 0
		}
		var hi [64]byte
		haveRow := int64(-1)
		for k := int64(0); k < n; k++ {
			idx := from + k
			r, f := idx/64, idx%64
			if r != haveRow {
				if !g.high.row(s, r, &hi) {
					hi = [64]byte{}
				}
				haveRow = r
			}
			dst[2*k], dst[2*k+1] = g.vb[s][idx], hi[f]
		}
		return nil
	}
}

// dropEvery is how many values a wide stream reads between two releases
// of the mapped pages.
const dropEvery = 64 << 20

// flagStream gives the decided and unused bits of a table built by rows
// for its file (tablefile.Stream's Flags).
func (g *rowGen) flagStream() tablefile.FlagSource {
	return func(side int, from int64, decided, unused []uint64) error {
		copy(decided, g.decided[side][from/64:])
		copy(unused, g.unused[side][from/64:])
		return nil
	}
}
