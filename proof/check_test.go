package proof_test

// The round trips and tamper tests need certificates, which the solver
// writes: these tests are in the external test package, so the checker
// package itself still imports neither the board nor the solver
// (TestIndependence).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/internal/shareddata"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/proof"
	"mateline.dev/mateline/solver"
)

// TestIndependence: the checker shares no code with what it checks.
func TestIndependence(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "mateline.dev/mateline/proof").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "mateline.dev/mateline/") && dep != "mateline.dev/mateline/proof" {
			t.Errorf("the checker depends on %s", dep)
		}
	}
}

// certify solves pos and writes its certificate.
func certify(t *testing.T, pos board.Position, maxMate int) ([]byte, solver.Result, solver.CertificateStats) {
	t.Helper()
	sv := solver.New(16)
	opt := solver.Options{MaxMate: maxMate}
	res := sv.Solve(context.Background(), pos, opt)
	if res.Status != solver.StatusMate {
		t.Fatalf("%s: %v", pos.FEN(), res.Status)
	}
	var b bytes.Buffer
	st, err := sv.WriteCertificate(context.Background(), pos, res.Mate, res.Mate.Moves()-1, opt, solver.DefaultRefutationLimit, &b)
	if err != nil {
		t.Fatalf("%s: %v", pos.FEN(), err)
	}
	return b.Bytes(), res, st
}

func check(t *testing.T, cert []byte, expect string) (proof.Report, error) {
	t.Helper()
	return proof.Check(bytes.NewReader(cert), "cert", expect)
}

// roundTrip certifies every position and checks the certificate.
func roundTrip(t *testing.T, name string, positions []board.Position, maxMate []int) {
	t.Helper()
	lower := 0
	for i, pos := range positions {
		cert, res, st := certify(t, pos, maxMate[i])
		rep, err := check(t, cert, pos.FEN())
		if err != nil || !rep.OK() {
			t.Fatalf("%s %s: %v %v", name, pos.FEN(), err, rep.Failure)
		}
		if rep.Mate != int(res.Mate) || rep.Nodes != st.Nodes {
			t.Errorf("%s %s: checked mate %d with %d nodes; solved %d, wrote %d", name, pos.FEN(), rep.Mate, rep.Nodes, res.Mate, st.Nodes)
		}
		n := res.Mate.Moves()
		if n > 1 && n <= 4 && rep.LowerBound != "certified" {
			t.Errorf("%s %s: mate %d, lower bound %s (%s)", name, pos.FEN(), res.Mate, rep.LowerBound, st.Reason)
		}
		if rep.LowerBound == "certified" {
			lower++
		}
	}
	t.Logf("%s: %d certificates hold, %d with a certified lower bound", name, len(positions), lower)
}

func readEPD(t *testing.T, path string, every int, keep func(int) bool, atMost int) ([]board.Position, []int) {
	t.Helper()
	r, c, err := inputs.Open(path, inputs.FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var ps []board.Position
	var ms []int
	for i := 0; len(ps) < atMost; i++ {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Err != nil || i%every != 0 || !keep(int(rec.Claim.Mate)) {
			continue
		}
		ps = append(ps, rec.Pos)
		ms = append(ms, max(rec.Claim.Mate.Moves(), 1))
	}
	return ps, ms
}

func TestRoundTripExamples(t *testing.T) {
	ps, ms := readEPD(t, filepath.Join("..", "examples", "mates.epd"), 1, func(int) bool { return true }, 100)
	roundTrip(t, "examples", ps, ms)
}

func TestRoundTripBench(t *testing.T) {
	var ps []board.Position
	var ms []int
	for _, bp := range solver.BenchPositions {
		if bp.Want == 0 {
			continue
		}
		pos, err := board.ParseFEN(bp.FEN)
		if err != nil {
			t.Fatal(err)
		}
		ps, ms = append(ps, pos), append(ms, bp.MaxMate)
	}
	roundTrip(t, "bench", ps, ms)
}

func TestRoundTripMates2000(t *testing.T) {
	path := shareddata.Path(t, "suites", "matetrack", "mates2000.epd")
	ps, ms := readEPD(t, path, 11, func(c int) bool { return c >= -5 && c <= 5 }, 30)
	roundTrip(t, "mates2000", ps, ms)
}

// lines splits a certificate into its records.
func lines(cert []byte) []string {
	return strings.Split(strings.TrimRight(string(cert), "\n"), "\n")
}

func join(ls []string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

// fixTrailer rewrites the trailer's counts after lines were removed.
func fixTrailer(t *testing.T, ls []string) []string {
	t.Helper()
	nodes, refs := 0, 0
	for _, l := range ls[1 : len(ls)-1] {
		switch {
		case strings.HasPrefix(l, `{"node"`):
			nodes++
		case strings.HasPrefix(l, `{"refute"`), strings.HasPrefix(l, `{"hold"`):
			refs++
		}
	}
	var end map[string]map[string]any
	if err := json.Unmarshal([]byte(ls[len(ls)-1]), &end); err != nil {
		t.Fatal(err)
	}
	end["end"]["nodes"], end["end"]["refutations"] = nodes, refs
	b, _ := json.Marshal(end)
	ls[len(ls)-1] = string(b)
	return ls
}

func nodeKey(l string) (key, move string) {
	var n struct{ Node, Move string }
	json.Unmarshal([]byte(l), &n)
	return n.Node, n.Move
}

func fenKey(fen string) string { return strings.Join(strings.Fields(fen)[:4], " ") }

// TestTamper: the checker rejects each kind of tampering and names the
// node where the certificate stops holding.
func TestTamper(t *testing.T) {
	opera := board.MustParseFEN("4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 0 1") // mate in 2: Qb8+ Nxb8 Rd8#
	cert, _, _ := certify(t, opera, 3)
	ls := lines(cert)

	t.Run("a defence removed", func(t *testing.T) {
		// The node after the defence Nxb8 goes: that defence is no longer
		// covered.
		var kept []string
		var removed string
		for _, l := range ls {
			if k, m := nodeKey(l); m == "d1d8" {
				removed = k
				continue
			}
			kept = append(kept, l)
		}
		rep, err := check(t, join(fixTrailer(t, kept)), "")
		if err != nil || rep.OK() || fenKey(rep.Failure.FEN) != removed || !strings.Contains(rep.Failure.Problem, "no node") {
			t.Fatalf("got %v %+v, want no node at %s", err, rep.Failure, removed)
		}
	})
	t.Run("an attacker move swapped for a non-mating one", func(t *testing.T) {
		swapped := strings.Replace(string(cert), `"move":"d1d8"`, `"move":"d1d2"`, 1)
		rep, err := check(t, []byte(swapped), "")
		if err != nil || rep.OK() || rep.Failure.Move != "d1d2" || !strings.Contains(rep.Failure.Problem, "does not mate") {
			t.Fatalf("got %v %+v", err, rep.Failure)
		}
	})
	t.Run("a line one move longer than N", func(t *testing.T) {
		// Claimed mate in 1: the key no longer mates within the claim.
		longer := strings.Replace(string(cert), `"mate":2`, `"mate":1`, 1)
		longer = strings.Replace(longer, `"lower_bound":"certified","lower_bound_plies":1`, `"lower_bound":"none"`, 1)
		rep, err := check(t, []byte(longer), "")
		if err != nil || rep.OK() || fenKey(rep.Failure.FEN) != fenKey(opera.FEN()) || rep.Failure.Move != "b3b8" {
			t.Fatalf("got %v %+v", err, rep.Failure)
		}
	})
	t.Run("the root FEN changed", func(t *testing.T) {
		other := "4kb1r/p2n1ppp/4q3/4p1B1/4P3/2Q5/PPP2PPP/2KR4 w k - 0 1"
		changed := strings.Replace(string(cert), opera.FEN(), other, 1)
		rep, err := check(t, []byte(changed), "")
		if err != nil || rep.OK() || fenKey(rep.Failure.FEN) != fenKey(other) || !strings.Contains(rep.Failure.Problem, "no node") {
			t.Fatalf("got %v %+v", err, rep.Failure)
		}
		rep, err = check(t, cert, other) // the right certificate, asked for another position
		if err != nil || rep.OK() || !strings.Contains(rep.Failure.Problem, "not for") {
			t.Fatalf("expected position: got %v %+v", err, rep.Failure)
		}
	})

	// A refutation replaced by a reply that loses: a mate in 4, whose
	// lower bound (no mate in 3) holds refute records.
	philidor := board.MustParseFEN("r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1")
	pcert, _, st := certify(t, philidor, 5)
	if st.LowerBound != "certified" || st.Refutations == 0 {
		t.Fatalf("philidor: lower bound %s with %d refutations", st.LowerBound, st.Refutations)
	}
	t.Run("a refutation replaced by a move that loses", func(t *testing.T) {
		tampered, at := loseRefutation(t, pcert)
		rep, err := check(t, tampered, "")
		if err != nil || rep.OK() || fenKey(rep.Failure.FEN) != at {
			t.Fatalf("got %v %+v, want a failure at %s", err, rep.Failure, at)
		}
	})
}

// loseRefutation replaces one refuting reply of the root's refute record
// with a reply after which the attacker mates in time, and returns the
// certificate and the key of the position after that reply.
func loseRefutation(t *testing.T, cert []byte) ([]byte, string) {
	t.Helper()
	ls := lines(cert)
	var hdr struct{ FEN string }
	json.Unmarshal([]byte(ls[0]), &hdr)
	root := board.MustParseFEN(hdr.FEN)
	sv := solver.New(8)
	for i, l := range ls {
		var rec struct {
			Refute  string
			Plies   int
			Replies map[string]string
		}
		if json.Unmarshal([]byte(l), &rec) != nil || rec.Refute != fenKey(root.FEN()) {
			continue
		}
		for attack, reply := range rec.Replies {
			a, _ := root.ParseUCI(attack)
			d := root
			d.Play(a)
			var l board.MoveList
			d.LegalMoves(&l)
			for _, r := range l.Slice() {
				if r.UCI() == reply {
					continue
				}
				next := d
				next.Play(r)
				res := sv.Solve(context.Background(), next, solver.Options{MaxMate: (rec.Plies - 1) / 2, Want: solver.WantMate, NoKeys: true})
				if res.Status != solver.StatusMate {
					continue
				}
				rec.Replies[attack] = r.UCI()
				b, _ := json.Marshal(map[string]any{"refute": rec.Refute, "plies": rec.Plies, "replies": rec.Replies})
				ls[i] = string(b)
				return join(ls), fenKey(next.FEN())
			}
		}
	}
	t.Fatal("no refutation could be replaced by a losing reply")
	return nil, ""
}

// TestBadCertificates: truncated, malformed, foreign or made-up files get
// a message naming the file and line, never a panic.
func TestBadCertificates(t *testing.T) {
	cert, _, _ := certify(t, board.MustParseFEN("r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1"), 5)
	ls := lines(cert)
	cases := []struct {
		name string
		text string
		want string // in the FormatError
	}{
		{"truncated", strings.Join(ls[:len(ls)-1], "\n") + "\n", "truncated: no trailer"},
		{"cut mid-line", string(cert[:len(cert)/2]), "cert:"},
		{"a node removed, trailer kept", strings.Join(append(append([]string{}, ls[:1]...), ls[2:]...), "\n") + "\n", "truncated or altered"},
		{"malformed JSON", ls[0] + "\n{\"node\": oops}\n", "cert:2: not a certificate record"},
		{"empty", "", "empty: no header"},
		{"not a certificate", `{"id":"x","status":"mate"}` + "\n", "cert:1: not a certificate record"},
		{"another format", `{"format":"other"}` + "\n", "not a mateline proof certificate"},
		{"bad FEN", `{"format":"mateline-proof","version":1,"fen":"xx","mate":1,"attacker":"w"}` + "\n" + `{"end":{"nodes":0,"refutations":0,"lower_bound":"none"}}` + "\n", "header: FEN"},
		{"non-ASCII FEN", `{"format":"mateline-proof","version":1,"fen":"\u00e9\u00e9","mate":1,"attacker":"w"}` + "\n" + `{"end":{"nodes":0,"refutations":0,"lower_bound":"none"}}` + "\n", "not plain ASCII"},
		{"a line after the trailer", string(cert) + ls[1] + "\n", "a line after the trailer"},
		{"version 2", strings.Replace(string(cert), `"version":1`, `"version":2`, 1), "format version 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := check(t, []byte(tc.text), "")
			var fe *proof.FormatError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "cert") {
				t.Errorf("got %v, want a format error with %q", err, tc.want)
			}
		})
	}
	// Made up: a plausible file with a wrong move.
	madeUp := `{"format":"mateline-proof","version":1,"fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1","mate":1,"attacker":"w"}
{"node":"6k1/5ppp/8/8/8/8/8/R5K1 w - -","move":"a1a7"}
{"end":{"nodes":1,"refutations":0,"lower_bound":"none"}}
`
	rep, err := check(t, []byte(madeUp), "")
	if err != nil || rep.OK() || rep.Failure.Move != "a1a7" {
		t.Errorf("made up: %v %+v", err, rep.Failure)
	}
}

// FuzzCheck: any bytes give a report or a format error, never a panic.
func FuzzCheck(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "philidor.proof.jsonl"))
	if err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"format":"mateline-proof","version":1,"fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1","mate":1,"attacker":"w"}` + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		proof.Check(bytes.NewReader(b), "fuzz", "")
	})
}

// TestCertificateFromTables: in a position the DTM tables hold, the
// tables choose the proof's moves and the checker verifies them all; with
// no refutation tree in the limit, the lower bound is "from tables". Both
// a mate and a mated-in root.
func TestCertificateFromTables(t *testing.T) {
	store := dtm.Open(t.TempDir(), dtm.Options{BuildMen: 3})
	defer store.Close()
	for _, c := range []struct {
		fen  string
		mate problem.Mate
	}{
		{"8/8/8/3k4/8/8/8/K5Q1 w - - 0 1", 9},
		{"8/8/8/3k4/8/8/8/K5Q1 b - - 0 1", -9},
	} {
		pos := board.MustParseFEN(c.fen)
		sv := solver.New(16)
		opt := solver.Options{MaxMate: 20, DTM: store.Prober(3), SearchDTM: store.Prober(3)}
		res := sv.Solve(context.Background(), pos, opt)
		if res.Mate != c.mate || res.Nodes != 0 {
			t.Fatalf("%s: mate %v after %d nodes, want %v from the tables", c.fen, res.Mate, res.Nodes, c.mate)
		}
		var b bytes.Buffer
		st, err := sv.WriteCertificate(context.Background(), pos, res.Mate, res.Mate.Moves()-1, opt, 1000, &b)
		if err != nil {
			t.Fatalf("%s: %v", c.fen, err)
		}
		if st.LowerBound != solver.LowerFromTables || st.Nodes == 0 {
			t.Errorf("%s: lower bound %q (%s), %d nodes; want from tables", c.fen, st.LowerBound, st.Reason, st.Nodes)
		}
		rep, err := check(t, b.Bytes(), c.fen)
		if err != nil || !rep.OK() || rep.Mate != int(c.mate) || rep.LowerBound != "from tables" {
			t.Errorf("%s: check %v %+v, mate %d, lower bound %q", c.fen, err, rep.Failure, rep.Mate, rep.LowerBound)
		}
	}
}

// TestDepthLowerBound: a certificate of a mate whose shortness a limit
// kept from being proved carries the lower bound that was proved (no mate
// in 2 moves or fewer of a mate in 4), which the checker verifies; a
// depth bound as long as a shortest mate needs, or of the wrong parity, or
// one its refutations do not prove, fails.
func TestDepthLowerBound(t *testing.T) {
	pos := board.MustParseFEN("r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1")
	sv := solver.New(16)
	opt := solver.Options{MaxMate: 4}
	if res := sv.Solve(context.Background(), pos, opt); res.Mate != 4 {
		t.Fatalf("mate %d", res.Mate)
	}
	var b bytes.Buffer
	st, err := sv.WriteCertificate(context.Background(), pos, 4, 2, opt, solver.DefaultRefutationLimit, &b)
	if err != nil || st.LowerBound != solver.LowerDepth {
		t.Fatalf("%v: lower bound %q (%s)", err, st.LowerBound, st.Reason)
	}
	rep, err := check(t, b.Bytes(), pos.FEN())
	if err != nil || !rep.OK() || rep.LowerBound != "depth" || rep.LowerPlies != 3 {
		t.Fatalf("%v %+v", err, rep)
	}
	for _, bad := range []string{`"lower_bound_plies":5`, `"lower_bound_plies":2`, `"lower_bound_plies":0`} {
		cert := strings.Replace(b.String(), `"lower_bound_plies":3`, bad, 1)
		if rep, err := check(t, []byte(cert), pos.FEN()); err == nil && rep.OK() {
			t.Errorf("a depth bound with %s passes", bad)
		}
	}
	// Refutations of mates in 1 only do not prove no mate in 2.
	b.Reset()
	if _, err := sv.WriteCertificate(context.Background(), pos, 4, 1, opt, solver.DefaultRefutationLimit, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"lower_bound":"depth","lower_bound_plies":1`) {
		t.Fatalf("no mate in 1: %s", b.String())
	}
	cert := strings.Replace(b.String(), `"lower_bound_plies":1`, `"lower_bound_plies":3`, 1)
	if rep, err := check(t, []byte(cert), pos.FEN()); err == nil && rep.OK() {
		t.Errorf("a depth bound without its refutations passes: %s", cert)
	}
}
