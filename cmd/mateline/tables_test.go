package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"mateline.dev/mateline/dtm/tablefile"
)

// TestTablesBuildKilledAndResumed kills a 'tables build --men 5' (one
// shard: KBBBvK, the first five-man signature, and KBBvK and KBvK, which
// it needs) while it builds KBBBvK, then runs the same command again: it
// builds KBBBvK alone, every table ends byte for byte as an uninterrupted
// build's, and no temporary or scratch file is left. The same with
// --bounded, killed in the set-up, whose events are in a scratch file,
// and killed while it writes the file, king pair after king pair.
func TestTablesBuildKilledAndResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	for _, c := range []struct {
		name, killAt string
		extra        []string
	}{
		{"rows", "building KBBBvK: slice 1/1, ply", nil},
		{"bounded", "building KBBBvK: setting up", []string{"--bounded"}},
		{"bounded writing", "building KBBBvK: writing", []string{"--bounded"}},
	} {
		t.Run(c.name, func(t *testing.T) { killAndResume(t, c.killAt, c.extra) })
	}
}

// killAndResume is TestTablesBuildKilledAndResumed for one way of
// building, killed when a line of standard error holds killAt.
func killAndResume(t *testing.T, killAt string, extra []string) {
	all := tablefile.AllUpTo(5)
	shard := -1
	for i, m := range all {
		if m.String() == "KBBBvK" {
			shard = i
		}
	}
	if shard < 0 {
		t.Fatal("KBBBvK not in the list")
	}
	args := func(dir string) []string {
		return append([]string{"tables", "build", "--dtm", dir, "--men", "5", "--shard", strings.Join([]string{itoa(shard), itoa(len(all))}, "/")}, extra...)
	}
	ref, dir := t.TempDir(), t.TempDir()
	if code, _, errOut := runBinary(t, ref, args(ref)...); code != 0 {
		t.Fatalf("uninterrupted build: exit %d: %s", code, errOut)
	}
	// killed once a few tables are written, while others are being built
	cmd := exec.Command(binary(t), args(dir)...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	killed := false
	for sc.Scan() {
		if strings.Contains(sc.Text(), killAt) {
			cmd.Process.Signal(syscall.SIGKILL)
			killed = true
			break
		}
	}
	cmd.Wait()
	if !killed {
		t.Fatal("the build ended before it was killed")
	}
	code, _, errOut := runBinary(t, dir, args(dir)...)
	if code != 0 {
		t.Fatalf("resumed build: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "1 table(s) to build") || strings.Count(errOut, "built K") != 1 {
		t.Errorf("the resumed build did not build KBBBvK alone:\n%s", errOut)
	}
	want, _ := filepath.Glob(filepath.Join(ref, "*.mldtm"))
	got, _ := filepath.Glob(filepath.Join(dir, "*.mldtm"))
	if len(want) != 3 || len(got) != len(want) {
		t.Fatalf("%d tables resumed, %d uninterrupted, want 3", len(got), len(want))
	}
	for _, w := range want {
		a, b := mustReadFile(t, w), mustReadFile(t, filepath.Join(dir, filepath.Base(w)))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from the uninterrupted build's", filepath.Base(w))
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("scratch files left: %v", left)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestProbeReasons: what a position the tables cannot answer gets, in
// words; 'probe' builds a missing table unless --dtm-build 0.
func TestProbeReasons(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--dtm-build", "0", "8/8/8/4k3/8/8/2RPK3/7r w - - 0 1"}, []string{"the KRPvKR table is not built", "mateline tables build KRPvKR"}},
		{[]string{"r3k3/8/8/8/8/8/8/4K3 b q - 0 1"}, []string{"castling rights (q)"}},
		{[]string{"startpos"}, []string{"castling rights (KQkq)"}},
		{[]string{"--dtm-build", "0", "4k3/8/8/8/8/8/1PPP4/4K3 b - - 0 1"}, []string{"the KPPPvK table is not built", "--dtm-build 5"}},
		// a six-man table with pawns too, with the tables it needs
		{[]string{"4k3/8/8/8/8/8/PPPP4/4K3 b - - 0 1"}, []string{"the KPPPPvK table is not built", "mateline tables build KPPPPvK", "125 tables with the ones it needs", "--dtm-build 6"}},
		{[]string{"4k3/8/8/8/8/8/PPPPP3/4K3 b - - 0 1"}, []string{"it has 7 men: the tables hold endings of up to 6"}},
		// a pawnless six-man table is built only when asked
		{[]string{"4k3/8/8/8/8/8/QRBN4/4K3 b - - 0 1"}, []string{"the KQRBNvK table is not built", "mateline tables build KQRBNvK", "--dtm-build 6"}},
	} {
		code, out := runCLI(t, append([]string{"probe", "--dtm", dir}, c.args...)...)
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("probe %v: exit %d, output lacks %q:\n%s", c.args, code, w, out)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "KRPvKR.mldtm")); err == nil {
		t.Errorf("--dtm-build 0 built KRPvKR")
	}
}

// TestTablesListAndVerify: 'tables list' says what is built, its longest
// mate, whether its checksums hold and what is missing; a damaged block
// is named; 'tables verify' of a table not built is an error.
func TestTablesListAndVerify(t *testing.T) {
	dir := t.TempDir()
	if code, out := runCLI(t, "tables", "build", "--dtm", dir, "KQvK", "KRvK"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, out)
	}
	code, out := runCLI(t, "tables", "list", "--dtm", dir, "--men", "3")
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, out)
	}
	for _, w := range []string{"KQvK", "KRvK", "16  checksum ok", "10  checksum ok", "KPvK        3           -        -  not built", "2 of 5 built", "missing: KBvK KNvK KPvK", "mateline tables build --men 3"} {
		if !strings.Contains(out, w) {
			t.Errorf("list lacks %q:\n%s", w, out)
		}
	}
	// a flipped byte in KRvK's last block
	path := filepath.Join(dir, "KRvK.mldtm")
	b := mustReadFile(t, path)
	b[len(b)-10] ^= 1
	os.WriteFile(path, b, 0o644)
	code, out = runCLI(t, "tables", "list", "--dtm", dir, "KRvK", "KQvK")
	if code != exitFailures || !strings.Contains(out, "DAMAGED") || !strings.Contains(out, "block") {
		t.Errorf("list of a damaged table: exit %d:\n%s", code, out)
	}
	code, out = runCLI(t, "tables", "verify", "--dtm", dir, "KPvK")
	if code == 0 {
		t.Errorf("verify of a table not built: exit %d:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "KPvK.mldtm")); err == nil {
		t.Errorf("verify built the table")
	}
}

// TestTablesPlan: 'tables plan' lists every table a build needs, the
// ones it reads first, with their sizes and states, builds nothing, and
// sees a table built since.
func TestTablesPlan(t *testing.T) {
	dir := t.TempDir()
	plan := func() planJSON {
		t.Helper()
		code, out, errOut := runBinary(t, dir, "tables", "plan", "--dtm", dir, "--json", "KRvKN")
		if code != 0 {
			t.Fatalf("plan: exit %d: %s", code, errOut)
		}
		var p planJSON
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatalf("plan: %v\n%s", err, out)
		}
		return p
	}
	p := plan()
	var order []string
	for _, tb := range p.Tables {
		order = append(order, tb.Table)
	}
	if got := strings.Join(order, " "); got != "KNvK KRvK KRvKN" {
		t.Fatalf("plan order %q, want KNvK KRvK KRvKN", got)
	}
	last := p.Tables[2]
	if last.Positions != 1892352 || strings.Join(last.Reads, " ") != "KNvK KRvK" || last.Built || last.Bytes <= 0 || last.Memory <= 0 {
		t.Errorf("KRvKN: %+v", last)
	}
	if p.Total.ToBuild != 3 || p.Total.Built != 0 || p.Total.Seconds <= 0 {
		t.Errorf("totals %+v", p.Total)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("plan wrote %d files", len(entries))
	}
	if code, _, errOut := runBinary(t, dir, "tables", "build", "--dtm", dir, "KRvK"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, errOut)
	}
	p = plan()
	st, err := os.Stat(filepath.Join(dir, "KRvK.mldtm"))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Tables[1].Built || p.Tables[1].Bytes != st.Size() || p.Total.ToBuild != 2 || p.Total.BuiltBytes != st.Size() {
		t.Errorf("after KRvK's build: %+v, totals %+v", p.Tables[1], p.Total)
	}
	code, out, _ := runBinary(t, dir, "tables", "plan", "--dtm", dir, "KRvKN")
	if code != 0 || !strings.Contains(out, "3 table(s) in "+dir+": 1 built") || !strings.Contains(out, "2 to build: about") {
		t.Errorf("plan: exit %d:\n%s", code, out)
	}
}

// TestTablesPlanSixMen: 'tables plan --men 6' lays out and costs the
// whole six-man set (365 tables besides the 145 of up to five men, as
// Syzygy's set has), each within the 16 GiB bound: the pawnless ones in
// bounded memory (KRNvKNN too, its values two bytes), the 195 with pawns
// by slices, a one-pawn table's values on disk; 'tables build' of seven
// men is refused.
func TestTablesPlanSixMen(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runBinary(t, dir, "tables", "plan", "--dtm", dir, "--json", "--men", "6")
	if code != 0 {
		t.Fatalf("plan: exit %d: %s", code, errOut)
	}
	var p planJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("plan: %v", err)
	}
	if p.Total.Tables != 510 || p.Total.NotBuildable != 0 || p.Total.ToBuild != 510 {
		t.Fatalf("totals %+v, want 510 tables, all buildable", p.Total)
	}
	six := map[string]plannedJSON{}
	for _, tb := range p.Tables {
		if tb.Blocked != "" || tb.Memory+1<<30 > 16<<30 {
			t.Errorf("%s (%d men): %.1f GiB, not built because %q", tb.Table, tb.Men, float64(tb.Memory)/(1<<30), tb.Blocked)
		}
		if tb.Men == 6 {
			six[tb.Table] = tb
		}
	}
	// a pawnless table: 462 king pairs, 64 squares for each other man
	// (identical men not folded); its captures lead to five men only; a
	// bounded build's five bits a position and side of 10 × 64^5 rows,
	// and a gigabyte for the tables it reads
	krnknn := six["KRNvKNN"]
	if krnknn.Positions != 462*64*64*64*64 || strings.Join(krnknn.Reads, " ") != "KNNvKN KNNvKR KRNvKN" ||
		krnknn.Memory != 2*10*(1<<30)*5/8+1<<30 || krnknn.Memory > 16<<30 || krnknn.Blocked != "" {
		t.Errorf("KRNvKNN: %+v", krnknn)
	}
	// a one-pawn table: 24 slices of 64^5; its values on disk (two bytes
	// a position and two bits of each side), its largest group, a slice,
	// in memory at 9.5 bytes a position
	if p := six["KBNvKBP"]; !p.ValuesOnDisk || p.Scratch != 2*p.Positions+p.Positions/2 ||
		p.Memory != int64(9.5*float64(1<<30)) {
		t.Errorf("KBNvKBP: %+v", p)
	}
	// four identical pawns: the 4-sets of 48 squares, a set and its
	// mirror image stored once ((C(48,4) + C(24,2)) / 2 = 97,428: the
	// symmetric sets are two pairs of mirrored squares), times the kings
	if p := six["KPPPPvK"]; p.Positions != 97428*64*64 {
		t.Errorf("KPPPPvK: %d positions, want %d", p.Positions, 97428*64*64)
	}
	// a table with pawns reads its promotions, six-man tables too
	if kppkpp := six["KPPvKPP"]; !slices.Contains(kppkpp.Reads, "KQPvKPP") || kppkpp.Positions <= 0 {
		t.Errorf("KPPvKPP: %+v", kppkpp)
	}
	for _, args := range [][]string{{"--men", "7"}, {"KPPPvKPP"}} {
		code, _, errOut := runBinary(t, dir, append([]string{"tables", "build", "--dtm", dir}, args...)...)
		if code == 0 || !strings.Contains(errOut, "6") {
			t.Errorf("build %v: exit %d: %s", args, code, errOut)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("plan and the refused builds wrote %d files", len(entries))
	}
}

// TestTablesMemory: --memory below what a six-man build holds in memory
// plans it with two of its bit sets on disk, further below refuses it
// with the memory it needs; a size that does not parse is a usage error.
func TestTablesMemory(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		memory         string
		gib            float64
		onDisk, refuse bool
	}{
		{"16G", 13.5, false, false},
		{"12GiB", 8.5, true, false},
		{"9728M", 8.5, true, false},
		{"9G", 8.5, true, true},
	} {
		code, out, errOut := runBinary(t, dir, "tables", "plan", "--dtm", dir, "--json", "--memory", c.memory, "KRNvKNN")
		if code != 0 {
			t.Fatalf("--memory %s: exit %d: %s", c.memory, code, errOut)
		}
		var p planJSON
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatal(err)
		}
		k := p.Tables[len(p.Tables)-1]
		if k.Table != "KRNvKNN" || float64(k.Memory) != c.gib*(1<<30) || k.OnDisk != c.onDisk || k.OverBound != c.refuse ||
			c.refuse != strings.Contains(k.Blocked, "needs at least 9.5 GiB") {
			t.Errorf("--memory %s: %+v", c.memory, k)
		}
	}
	for _, bad := range []string{"12X", "-3G", "G", "100"} {
		code, _, errOut := runBinary(t, dir, "tables", "build", "--dtm", dir, "--memory", bad, "KQvK")
		if code != 2 || !strings.Contains(errOut, "--memory") {
			t.Errorf("--memory %s: exit %d: %s", bad, code, errOut)
		}
	}
	// how often a bounded build saves its checkpoint: a time above 0
	for _, bad := range []string{"0s", "-5m", "soon"} {
		code, _, errOut := runBinary(t, dir, "tables", "build", "--dtm", dir, "--checkpoint-every", bad, "KQvK")
		if code != 2 || !strings.Contains(errOut, "checkpoint-every") {
			t.Errorf("--checkpoint-every %s: exit %d: %s", bad, code, errOut)
		}
	}
	if code, _, errOut := runBinary(t, dir, "tables", "build", "--dtm", dir, "--checkpoint-every", "5m", "KQvK"); code != 0 {
		t.Errorf("--checkpoint-every 5m: exit %d: %s", code, errOut)
	}
}
