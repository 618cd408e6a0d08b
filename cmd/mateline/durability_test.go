package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"mateline.dev/mateline/proof"
	"mateline.dev/mateline/solver"
)

// timingFields matches what differs between two runs of the same command:
// the milliseconds of each JSON record.
var timingFields = regexp.MustCompile(`"ms":[0-9.]+`)

// slowInput is an EPD file of 60 records, each solved under a node limit
// in tens of milliseconds: the bench positions, twice, with ids.
func slowInput() string {
	var b strings.Builder
	for i := 0; i < 60; i++ {
		bp := solver.BenchPositions[i%len(solver.BenchPositions)]
		fields := strings.Fields(bp.FEN)
		fmt.Fprintf(&b, "%s id \"p%02d\";\n", strings.Join(fields[:4], " "), i)
	}
	return b.String()
}

// certificates checks every certificate under its final name in dir with
// the independent checker, and returns their contents by name.
func certificates(t *testing.T, dir string) map[string]string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.proof.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := proof.Check(f, name, "")
		f.Close()
		if err != nil || !rep.OK() {
			t.Fatalf("%s under its final name does not check: %v %v", name, err, rep.Failure)
		}
		out[filepath.Base(name)] = string(mustReadFile(t, name))
	}
	return out
}

// TestKillAndResume is the fault-injection test: the real binary is
// killed with SIGKILL at random moments and once right after a record
// reaches the file, then resumed with the same command; the output, and
// the certificates, end byte for byte as an uninterrupted run's, but for
// the milliseconds. After every kill, each certificate under its final
// name checks.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	// The same command in two folders: one run goes uninterrupted, the
	// other is killed and resumed. No DTM tables: one built on first use
	// takes its seconds from the --timeout of the record that needs it,
	// so a killed run and an uninterrupted one would see different time.
	args := []string{"solve", "--json", "-j", "2", "--threads", "1", "--mate", "7", "--nodes", "400000",
		"--no-progress", "--no-dtm", "--resume", "--proof-dir", "proofs", "-o", "out.jsonl", "in.epd"}
	ref, dir := t.TempDir(), t.TempDir()
	for _, d := range []string{ref, dir} {
		writeFile(t, filepath.Join(d, "in.epd"), slowInput())
		if err := os.Mkdir(filepath.Join(d, "proofs"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errOut := runBinary(t, ref, args...); code != 0 {
		t.Fatalf("uninterrupted run: exit %d: %s", code, errOut)
	}
	want := timingFields.ReplaceAllString(string(mustReadFile(t, filepath.Join(ref, "out.jsonl"))), "")
	wantCerts := certificates(t, filepath.Join(ref, "proofs"))

	partial := filepath.Join(dir, "out.jsonl.partial")
	size := func() int64 {
		st, err := os.Stat(partial)
		if err != nil {
			return 0
		}
		return st.Size()
	}
	rng := rand.New(rand.NewPCG(7, uint64(time.Now().UnixNano())))
	kills := 0
	for attempt := 0; attempt < 20; attempt++ {
		cmd := exec.Command(binary(t), args...)
		cmd.Dir = dir
		start := size()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		var finished bool
		if attempt < 5 {
			wait := time.After(time.Duration(50+rng.IntN(400)) * time.Millisecond)
			if attempt == 2 {
				// Right after a record reaches the file.
				wait = nil
				go func() {
					for size() == start {
						time.Sleep(200 * time.Microsecond)
					}
					cmd.Process.Signal(syscall.SIGKILL)
				}()
			}
			select {
			case <-wait:
				cmd.Process.Signal(syscall.SIGKILL)
				<-exited
				kills++
			case err := <-exited:
				finished = err == nil
				if !finished {
					kills++ // the watcher killed it
				}
			}
		} else {
			finished = <-exited == nil
		}
		certificates(t, filepath.Join(dir, "proofs"))
		if finished {
			break
		}
	}
	if kills < 4 {
		t.Errorf("only %d kills landed before the run ended: the input is too quick to test this", kills)
	}
	got := timingFields.ReplaceAllString(string(mustReadFile(t, filepath.Join(dir, "out.jsonl"))), "")
	if got != want {
		t.Errorf("after %d kills and resumes the output differs from an uninterrupted run:\n%s", kills, lineDiff(got, want))
	}
	gotCerts := certificates(t, filepath.Join(dir, "proofs"))
	if len(gotCerts) != len(wantCerts) {
		t.Errorf("%d certificates after the kills, %d without", len(gotCerts), len(wantCerts))
	}
	for name, c := range wantCerts {
		if gotCerts[name] != c {
			t.Errorf("certificate %s differs after the kills", name)
		}
	}
	t.Logf("%d kills, %d records, %d certificates", kills, strings.Count(want, "\n"), len(wantCerts))
}

// TestPipeSeesFirstRecord: standard output streams record by record: a
// pipe reads the first record while the second is still being solved.
func TestPipeSeesFirstRecord(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "in.epd"), "6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 1; id \"quick\";\n"+
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"slow\";\n")
	for _, format := range []string{"jsonl", "text", "csv", "epd", "pgn"} {
		cmd := exec.Command(binary(t), "solve", "--format", format, "-j", "1", "--threads", "1", "--timeout", "0", "--mate", "20", "in.epd")
		cmd.Dir = dir
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				if strings.Contains(sc.Text(), "quick") || strings.Contains(sc.Text(), "line:1") {
					lines <- sc.Text()
				}
			}
			close(lines)
		}()
		select {
		case _, ok := <-lines:
			if !ok {
				t.Errorf("%s: the output ended without the first record", format)
			}
		case <-time.After(20 * time.Second):
			t.Errorf("%s: no first record after 20 s while the second is solved", format)
		}
		if cmd.ProcessState != nil {
			t.Errorf("%s: the run ended: the second record was not still being solved", format)
		}
		cmd.Process.Kill()
		cmd.Wait()
	}
}

// lineDiff names the first lines where two outputs differ.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	for i := 0; i < max(len(g), len(w)) && b.Len() < 4000; i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			fmt.Fprintf(&b, "line %d:\n  got  %s\n  want %s\n", i+1, gl, wl)
		}
	}
	return b.String()
}
