package endgame

import "encoding/binary"

// value decompresses the raw value at idx of section s. Reads past the
// end of the file count as zero bytes; a walk that leaves the section's
// blocks means the file is damaged.
func (t *table) value(s *section, idx uint64) (int, error) {
	if s.single() {
		if t.dtz {
			return 0, nil
		}
		return int(s.singleValue), nil
	}
	if idx >= s.tbSize {
		return 0, corruptf("index %d past the section size %d", idx, s.tbSize)
	}
	d := t.data
	span := uint64(1) << s.idxBits
	e := idx >> s.idxBits
	ep := s.sparseOff + 6*int(e)
	if ep+6 > len(d) {
		return 0, corruptf("sparse index entry %d is past the end of the file", e)
	}
	block := int64(binary.LittleEndian.Uint32(d[ep:]))
	off := int64(binary.LittleEndian.Uint16(d[ep+4:])) + int64(idx&(span-1)) - int64(span/2)
	nblocks := int64(s.realBlocks + s.extraBlocks)
	blen := func(b int64) (int64, error) {
		if b < 0 || b >= nblocks {
			return 0, corruptf("block walk left the table (block %d of %d)", b, nblocks)
		}
		p := s.blockLenOff + 2*int(b)
		if p+2 > len(d) {
			return 0, corruptf("block length table is past the end of the file")
		}
		return int64(binary.LittleEndian.Uint16(d[p:])), nil
	}
	for off < 0 {
		block--
		n, err := blen(block)
		if err != nil {
			return 0, err
		}
		off += n + 1
	}
	for {
		n, err := blen(block)
		if err != nil {
			return 0, err
		}
		if off <= n {
			break
		}
		off -= n + 1
		block++
	}
	if block >= int64(s.realBlocks) {
		return 0, corruptf("value lies in block %d, past the %d stored blocks", block, s.realBlocks)
	}
	start := s.dataOff + int(block)<<s.blockBits
	end := start + 1<<s.blockBits
	pos := start
	next32 := func() uint64 { // 4 more bytes, zero past the file's end
		var v uint64
		for i := 0; i < 4; i++ {
			v <<= 8
			if pos < len(d) {
				v |= uint64(d[pos])
			}
			pos++
		}
		return v
	}
	w := next32()<<32 | next32()
	consumed := 0
	var sym int
	for {
		L := s.minLen
		for w < s.base[L-s.minLen] {
			L++
			if L > s.maxLen {
				return 0, corruptf("bad code in block %d", block)
			}
		}
		sym = int(s.firstSym[L-s.minLen] + (w-s.base[L-s.minLen])>>(64-uint(L)))
		if sym >= len(s.symLen) {
			return 0, corruptf("code names symbol %d of %d", sym, len(s.symLen))
		}
		if off <= int64(s.symLen[sym]) {
			break
		}
		off -= int64(s.symLen[sym]) + 1
		w <<= uint(L)
		consumed += L
		if consumed >= 32 {
			consumed -= 32
			w |= next32() << uint(consumed)
		}
		if pos > end+8 {
			return 0, corruptf("decoding ran past block %d", block)
		}
	}
	for s.symRight[sym] != 0xfff {
		l := int(s.symLeft[sym])
		if off <= int64(s.symLen[l]) {
			sym = l
		} else {
			off -= int64(s.symLen[l]) + 1
			sym = int(s.symRight[sym])
		}
	}
	return int(s.symLeft[sym]), nil
}

// mapDTZ applies a DTZ section's map to a raw value, for a position of
// the given WDL (-2..2, not 0).
func (t *table) mapDTZ(s *section, raw, wdl int) (int, error) {
	if s.flags&flagMapped == 0 {
		return raw, nil
	}
	list := map[int]int{2: 0, -2: 1, 1: 2, -1: 3}[wdl]
	if s.flags&flagWideMap != 0 {
		p := s.mapOff[list] + 2*raw
		if p+2 > len(t.data) {
			return 0, corruptf("DTZ map entry past the end of the file")
		}
		return int(binary.LittleEndian.Uint16(t.data[p:])), nil
	}
	p := s.mapOff[list] + raw
	if p >= len(t.data) {
		return 0, corruptf("DTZ map entry past the end of the file")
	}
	return int(t.data[p]), nil
}
