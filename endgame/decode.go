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
	if s.blockLenOff+2*int(nblocks) > len(d) {
		return 0, corruptf("block length table is past the end of the file")
	}
	blens := d[s.blockLenOff : s.blockLenOff+2*int(nblocks)]
	blen := func(b int64) int64 { return int64(binary.LittleEndian.Uint16(blens[2*b:])) }
	for off < 0 {
		block--
		if block < 0 {
			return 0, corruptf("block walk left the table")
		}
		off += blen(block) + 1
	}
	for {
		if block >= nblocks {
			return 0, corruptf("block walk left the table (block %d of %d)", block, nblocks)
		}
		n := blen(block)
		if off <= n {
			break
		}
		off -= n + 1
		block++
	}
	if block >= int64(s.realBlocks) {
		return 0, corruptf("value lies in block %d, past the %d stored blocks", block, s.realBlocks)
	}
	pos := s.dataOff + int(block)<<s.blockBits
	end := pos + 1<<s.blockBits + 8
	var w uint64
	if pos+8 <= len(d) {
		w = binary.BigEndian.Uint64(d[pos:])
	} else {
		for i := 0; i < 8; i++ {
			w <<= 8
			if pos+i < len(d) {
				w |= uint64(d[pos+i])
			}
		}
	}
	pos += 8
	consumed := 0
	base, firstSym, symLen := s.base, s.firstSym, s.symLen
	minLen, maxLen := s.minLen, s.maxLen
	var sym int
	for {
		L := minLen
		for w < base[L-minLen] {
			L++
			if L > maxLen {
				return 0, corruptf("bad code in block %d", block)
			}
		}
		sym = int(firstSym[L-minLen] + (w-base[L-minLen])>>(64-uint(L)))
		if sym >= len(symLen) {
			return 0, corruptf("code names symbol %d of %d", sym, len(symLen))
		}
		if off <= int64(symLen[sym]) {
			break
		}
		off -= int64(symLen[sym]) + 1
		w <<= uint(L)
		consumed += L
		if consumed >= 32 {
			consumed -= 32
			var next uint64
			if pos+4 <= len(d) {
				next = uint64(binary.BigEndian.Uint32(d[pos:]))
			} else {
				for i := 0; i < 4; i++ {
					next <<= 8
					if pos+i < len(d) {
						next |= uint64(d[pos+i])
					}
				}
			}
			pos += 4
			w |= next << uint(consumed)
			if pos > end {
				return 0, corruptf("decoding ran past block %d", block)
			}
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
