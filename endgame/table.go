package endgame

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// Magic numbers of the two file kinds.
const (
	wdlMagic = 0x5D23E871
	dtzMagic = 0xA50C66D7
)

// Flags of a section's pairs header.
const (
	flagStoredSideB = 0x01 // DTZ: the file stores table-black to move
	flagMapped      = 0x02 // DTZ: values go through the DTZ map
	flagWinPlies    = 0x04 // DTZ: win values are exact plies
	flagLossPlies   = 0x08 // DTZ: loss values are exact plies
	flagWideMap     = 0x10 // DTZ: 16-bit map entries
	flagSingle      = 0x80 // every position has one value
)

// section is one sub-table: a pawn file and side to move, with its own
// pieces, index factors and compressed data.
type section struct {
	pieces   []uint8 // piece codes in index order
	order    int
	order2   int
	groups   []int    // group sizes, in piece-list order
	factors  []uint64 // per group
	tbSize   uint64
	lead     int // number of leading pawns (pawn tables), else 0
	otherPwn int // pawns of the other colour, in group 1 (pawn tables)
	kk       bool

	flags       uint8
	singleValue uint8
	blockBits   uint
	idxBits     uint
	realBlocks  uint32
	extraBlocks uint32
	minLen      int
	maxLen      int
	firstSym    []uint64 // indexed by L - minLen
	base        []uint64 // indexed by L - minLen, left-aligned
	symLeft     []uint16
	symRight    []uint16
	symLen      []uint8 // values per symbol, minus one
	sparseOff   int
	blockLenOff int
	dataOff     int
	mapOff      [4]int // start of each DTZ map list's values
}

func (s *section) single() bool { return s.flags&flagSingle != 0 }

// table is one parsed file.
type table struct {
	name      string
	path      string
	dtz       bool
	data      []byte
	pawns     bool
	symmetric bool
	pieces    int
	leadBlack bool // pawn tables: table-black's pawns lead
	// sections[file][side]: file is 0 for pawnless tables; side 0 is
	// table-white to move, 1 table-black (WDL only; DTZ has side 0).
	sections [4][2]*section
}

// corrupt reports a malformed file.
type corrupt struct{ msg string }

func (c corrupt) Error() string { return c.msg }

func corruptf(format string, args ...any) error { return corrupt{fmt.Sprintf(format, args...)} }

// parseTable reads the header of a table file held in data.
func parseTable(name, path string, data []byte, dtz bool) (t *table, err error) {
	// A garbled header can send offsets anywhere; every read is checked,
	// and a slip that escapes the checks is turned into an error here.
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, corruptf("malformed header (%v)", r)
		}
	}()
	want := uint32(wdlMagic)
	if dtz {
		want = dtzMagic
	}
	if len(data) < 16 || binary.LittleEndian.Uint32(data) != want {
		return nil, corruptf("bad magic number: not a Syzygy %s file", map[bool]string{false: ".rtbw", true: ".rtbz"}[dtz])
	}
	if len(data)%64 != 16 {
		return nil, corruptf("size %d is not 16 more than a multiple of 64: truncated or damaged", len(data))
	}
	w, b, _ := strings.Cut(name, "v")
	t = &table{name: name, path: path, dtz: dtz, data: data, symmetric: w == b, pieces: len(w) + len(b)}
	info := data[4]
	split := info&1 != 0 && !dtz
	t.pawns = info&2 != 0
	pw, pb := strings.Count(w, "P"), strings.Count(b, "P")
	if t.pawns != (pw+pb > 0) {
		return nil, corruptf("header says pawns=%v, the name says otherwise", t.pawns)
	}
	t.leadBlack = pb > 0 && (pw == 0 || pb < pw)
	lead, other := pw, pb
	if t.leadBlack {
		lead, other = pb, pw
	}
	files := 1
	if t.pawns {
		files = 4
	}
	sides := 1
	if split {
		sides = 2
	}
	r := &reader{data: data, pos: 5}
	n := t.pieces
	codes0 := materialCodes(w, b)
	for f := 0; f < files; f++ {
		ob := r.byte()
		o2 := byte(0xff)
		if pw > 0 && pb > 0 {
			o2 = r.byte()
		}
		codes := r.bytes(n)
		for side := 0; side < sides; side++ {
			s := &section{order: int(ob & 0xf), order2: 15}
			if side == 1 {
				s.order = int(ob >> 4)
			}
			if o2 != 0xff {
				s.order2 = int(o2 & 0xf)
				if side == 1 {
					s.order2 = int(o2 >> 4)
				}
			}
			for _, c := range codes {
				if side == 0 {
					s.pieces = append(s.pieces, c&0xf)
				} else {
					s.pieces = append(s.pieces, c>>4)
				}
			}
			if !sameCodes(s.pieces, codes0) {
				return nil, corruptf("header piece list does not match the material of %s", name)
			}
			if t.pawns {
				s.lead, s.otherPwn = lead, other
			}
			if err := s.setupGroups(f); err != nil {
				return nil, err
			}
			t.sections[f][side] = s
		}
	}
	if r.pos%2 == 1 {
		r.pos++
	}
	var order []*section
	for f := 0; f < files; f++ {
		for side := 0; side < sides; side++ {
			order = append(order, t.sections[f][side])
		}
	}
	for _, s := range order {
		if err := s.readPairs(r); err != nil {
			return nil, err
		}
	}
	if dtz {
		for _, s := range order {
			if s.flags&flagMapped == 0 || s.single() {
				continue
			}
			if s.flags&flagWideMap != 0 {
				if r.pos%2 == 1 {
					r.pos++
				}
				for i := 0; i < 4; i++ {
					cnt := int(r.u16())
					s.mapOff[i] = r.pos
					r.pos += 2 * cnt
				}
			} else {
				for i := 0; i < 4; i++ {
					cnt := int(r.byte())
					s.mapOff[i] = r.pos
					r.pos += cnt
				}
			}
		}
		if r.pos%2 == 1 {
			r.pos++
		}
	}
	for _, s := range order {
		if !s.single() {
			s.sparseOff = r.pos
			entries := (s.tbSize + (1 << s.idxBits) - 1) >> s.idxBits
			r.pos += 6 * int(entries)
		}
	}
	for _, s := range order {
		if !s.single() {
			s.blockLenOff = r.pos
			r.pos += 2 * int(s.realBlocks+s.extraBlocks)
		}
	}
	for _, s := range order {
		if !s.single() {
			r.pos = (r.pos + 63) &^ 63
			s.dataOff = r.pos
			r.pos += int(s.realBlocks) << s.blockBits
		}
	}
	if end := (r.pos+63)&^63 + 16; end != len(data) {
		return nil, corruptf("header describes %d bytes, the file has %d", end, len(data))
	}
	return t, nil
}

// materialCodes lists the piece codes a table's name implies: table-white
// 1..6, table-black 9..14.
func materialCodes(w, b string) []uint8 {
	var out []uint8
	for i, side := range []string{w, b} {
		for _, l := range side {
			out = append(out, uint8(strings.IndexRune(" PNBRQK", l))|uint8(8*i))
		}
	}
	return out
}

// sameCodes reports whether two piece lists hold the same codes.
func sameCodes(a, b []uint8) bool {
	if len(a) != len(b) {
		return false
	}
	var count [16]int
	for i := range a {
		count[a[i]&15]++
		count[b[i]&15]--
	}
	for _, c := range count {
		if c != 0 {
			return false
		}
	}
	return true
}

// reader walks the header, failing cleanly past the end.
type reader struct {
	data []byte
	pos  int
}

var errShort = errors.New("header runs past the end of the file")

func (r *reader) need(n int) {
	if r.pos < 0 || r.pos+n > len(r.data) {
		panic(errShort)
	}
}

func (r *reader) byte() byte { r.need(1); r.pos++; return r.data[r.pos-1] }

func (r *reader) bytes(n int) []byte { r.need(n); r.pos += n; return r.data[r.pos-n : r.pos] }

func (r *reader) u16() uint16 {
	r.need(2)
	r.pos += 2
	return binary.LittleEndian.Uint16(r.data[r.pos-2:])
}

func (r *reader) u32() uint32 {
	r.need(4)
	r.pos += 4
	return binary.LittleEndian.Uint32(r.data[r.pos-4:])
}

// readPairs reads a section's compression header (the "pairs" header).
func (s *section) readPairs(r *reader) error {
	s.flags = r.byte()
	if s.single() {
		s.singleValue = r.byte()
		return nil
	}
	s.blockBits = uint(r.byte())
	s.idxBits = uint(r.byte())
	s.extraBlocks = uint32(r.byte())
	s.realBlocks = r.u32()
	s.maxLen = int(r.byte())
	s.minLen = int(r.byte())
	if s.blockBits > 16 || s.idxBits == 0 || s.idxBits > 40 || s.minLen < 1 || s.maxLen > 64 || s.minLen > s.maxLen {
		return corruptf("implausible compression header (block %d bits, index %d bits, code lengths %d-%d)",
			s.blockBits, s.idxBits, s.minLen, s.maxLen)
	}
	h := s.maxLen - s.minLen + 1
	s.firstSym = make([]uint64, h)
	for i := range s.firstSym {
		s.firstSym[i] = uint64(r.u16())
	}
	numSyms := int(r.u16())
	raw := r.bytes(3 * numSyms)
	if numSyms%2 == 1 {
		r.pos++
	}
	s.symLeft = make([]uint16, numSyms)
	s.symRight = make([]uint16, numSyms)
	for i := 0; i < numSyms; i++ {
		b0, b1, b2 := uint16(raw[3*i]), uint16(raw[3*i+1]), uint16(raw[3*i+2])
		s.symLeft[i] = b0 | (b1&0x0f)<<8
		s.symRight[i] = b1>>4 | b2<<4
	}
	// Lengths, by memoised recursion (children may follow their parent).
	s.symLen = make([]uint8, numSyms)
	state := make([]uint8, numSyms) // 0 unknown, 1 in progress, 2 done
	var length func(i int, depth int) error
	length = func(i int, depth int) error {
		if state[i] == 2 {
			return nil
		}
		if state[i] == 1 || depth > 512 {
			return corruptf("symbol %d is part of a cycle", i)
		}
		if s.symRight[i] == 0xfff {
			state[i] = 2
			return nil
		}
		state[i] = 1
		l, rr := int(s.symLeft[i]), int(s.symRight[i])
		if l >= numSyms || rr >= numSyms {
			return corruptf("symbol %d refers to a symbol past %d", i, numSyms)
		}
		if err := length(l, depth+1); err != nil {
			return err
		}
		if err := length(rr, depth+1); err != nil {
			return err
		}
		n := int(s.symLen[l]) + int(s.symLen[rr]) + 1
		if n > 255 {
			return corruptf("symbol %d expands to %d values", i, n+1)
		}
		s.symLen[i] = uint8(n)
		state[i] = 2
		return nil
	}
	for i := 0; i < numSyms; i++ {
		if err := length(i, 0); err != nil {
			return err
		}
	}
	s.base = make([]uint64, h)
	for L := s.maxLen - 1; L >= s.minLen; L-- {
		i := L - s.minLen
		s.base[i] = (s.base[i+1] + s.firstSym[i] - s.firstSym[i+1]) / 2
	}
	for i := range s.base {
		s.base[i] <<= 64 - uint(s.minLen+i)
	}
	return nil
}
