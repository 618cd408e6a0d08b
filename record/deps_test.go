package record_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestReadersImportNoSolver: the records, the shared values and the input
// readers depend on the board, PGN, problem and record packages alone,
// never on a solver, the puzzles that use them or the writers.
func TestReadersImportNoSolver(t *testing.T) {
	allowed := map[string]bool{"board": true, "pgn": true, "problem": true, "record": true}
	for _, pkg := range []string{"problem", "record", "epd", "lichess", "popeye", "pgnrec"} {
		out, err := exec.Command("go", "list", "-deps", "mateline.dev/mateline/"+pkg).Output()
		if err != nil {
			t.Skipf("go list: %v", err)
		}
		for _, dep := range strings.Fields(string(out)) {
			name, ours := strings.CutPrefix(dep, "mateline.dev/mateline/")
			if ours && name != pkg && !allowed[name] {
				t.Errorf("%s depends on %s", pkg, name)
			}
		}
	}
}
