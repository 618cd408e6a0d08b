package endgame

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/internal/shareddata"
)

func openShared(t testing.TB) *Tablebase {
	t.Helper()
	tb, err := Open(shareddata.Path(t, "syzygy"))
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// readTSV returns the rows of a tab-separated file as maps by header name.
func readTSV(t testing.TB, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var header []string
	var rows []map[string]string
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if header == nil {
			header = cols
			continue
		}
		row := map[string]string{}
		for i, c := range cols {
			if i < len(header) {
				row[header[i]] = c
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func TestConstantTables(t *testing.T) {
	sq := func(n string) int { return int(n[0]-'a') + 8*int(n[1]-'1') }
	for _, c := range []struct {
		t    int
		s    string
		want int
	}{{0, "d1", 0}, {0, "h8", 57}, {1, "a1", 58}, {6, "c1", 339}, {6, "c3", 441}, {9, "h8", 461}} {
		if got := kkIndex[c.t][sq(c.s)]; got != c.want {
			t.Errorf("KK[%d][%s] = %d, want %d", c.t, c.s, got, c.want)
		}
	}
	for s, want := range map[string]int{"a2": 47, "h2": 46, "d2": 11, "e7": 0, "c3": 21, "g6": 26} {
		if got := twistOf[sq(s)]; got != want {
			t.Errorf("twist(%s) = %d, want %d", s, got, want)
		}
	}
	for f, want := range []uint64{252, 180, 108, 36} {
		if leadSize[2][f] != want || leadSize[1][f] != 6 {
			t.Errorf("lead_size[2][%d] = %d, want %d", f, leadSize[2][f], want)
		}
	}
}

// TestHeaders compares every section header with debug-tables.tsv.
func TestHeaders(t *testing.T) {
	tb := openShared(t)
	rows := readTSV(t, shareddata.Path(t, "syzygy", "debug-tables.tsv"))
	for _, r := range rows {
		name := strings.TrimSuffix(strings.TrimSuffix(r["file"], ".rtbw"), ".rtbz")
		tab, err := tb.load(name, strings.HasSuffix(r["file"], ".rtbz"))
		if err != nil {
			t.Fatalf("%s: %v", r["file"], err)
		}
		file := 0
		if pf := r["pawn_file"]; pf != "-" {
			file = int(pf[0] - 'a')
		}
		side := 0
		if r["side"] == "b" && !tab.dtz {
			side = 1
		}
		s := tab.sections[file][side]
		if s == nil {
			t.Errorf("%s file %s side %s: no section", r["file"], r["pawn_file"], r["side"])
			continue
		}
		var letters []byte
		for _, c := range s.pieces {
			l := " PNBRQK"[c&7]
			if c&8 != 0 {
				l += 'a' - 'A'
			}
			letters = append(letters, l)
		}
		var factors []string
		for _, f := range s.factors {
			factors = append(factors, strconv.FormatUint(f, 10))
		}
		got := map[string]string{
			"pieces":  string(letters),
			"order":   strconv.Itoa(s.order),
			"factors": strings.Join(factors, ","),
			"tb_size": strconv.FormatUint(s.tbSize, 10),
		}
		if !s.single() {
			got["block_bits"] = strconv.Itoa(int(s.blockBits))
			got["idx_bits"] = strconv.Itoa(int(s.idxBits))
			got["real_blocks"] = strconv.Itoa(int(s.realBlocks))
			got["num_syms"] = strconv.Itoa(len(s.symLeft))
			got["sparse_offset"] = strconv.Itoa(s.sparseOff)
			got["blocklen_offset"] = strconv.Itoa(s.blockLenOff)
			got["data_offset"] = strconv.Itoa(s.dataOff)
		}
		for k, v := range got {
			if r[k] != v {
				t.Errorf("%s file %s side %s: %s = %s, want %s", r["file"], r["pawn_file"], r["side"], k, v, r[k])
			}
		}
	}
	t.Logf("%d sections", len(rows))
}

// TestIndexAndRaw compares indices and raw values with debug-vectors.tsv.
func TestIndexAndRaw(t *testing.T) {
	tb := openShared(t)
	rows := readTSV(t, shareddata.Path(t, "syzygy", "debug-vectors.tsv"))
	for _, r := range rows {
		pos, err := board.ParseFEN(r["fen"])
		if err != nil {
			t.Fatal(err)
		}
		if r["wdl_index"] != "-" {
			_, _, idx, err := tb.locate(&pos, false)
			if err != nil {
				t.Errorf("%s: %v", r["fen"], err)
				continue
			}
			if strconv.FormatUint(idx, 10) != r["wdl_index"] {
				t.Errorf("%s: WDL index %d, want %s", r["fen"], idx, r["wdl_index"])
			}
			_, _, raw, err := tb.lookup(&pos, false)
			if err != nil || strconv.Itoa(raw) != r["wdl_raw"] {
				t.Errorf("%s: WDL raw %d (%v), want %s", r["fen"], raw, err, r["wdl_raw"])
			}
		}
		if r["dtz_index"] != "-" && r["dtz_index"] != "" {
			_, _, idx, err := tb.locate(&pos, true)
			if err != nil {
				t.Errorf("%s: DTZ: %v", r["fen"], err)
				continue
			}
			if strconv.FormatUint(idx, 10) != r["dtz_index"] {
				t.Errorf("%s: DTZ index %d, want %s", r["fen"], idx, r["dtz_index"])
			}
			_, _, raw, err := tb.lookup(&pos, true)
			if err != nil || strconv.Itoa(raw) != r["dtz_raw"] {
				t.Errorf("%s: DTZ raw %d (%v), want %s", r["fen"], raw, err, r["dtz_raw"])
			}
		}
	}
	t.Logf("%d rows", len(rows))
}
