//go:build mutants

package solver_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/solver"
)

// TestDirectMutantsCaught (-tags mutants, MATELINE_MUTANTS=all or names):
// for each shortcut of the direct-mate search, its mutant (a version that
// prunes one case more, see solver's mutant_off.go) is caught by the
// sweep of TestDirectShortcutsSound; the log gives how many cases each
// took.
func TestDirectMutantsCaught(t *testing.T) {
	which := os.Getenv("MATELINE_MUTANTS")
	if which == "" {
		t.Skip("MATELINE_MUTANTS=all (or a list of shortcut names) runs the mutation check (minutes)")
	}
	limit := testpos.EnvCount(t, "MATELINE_MUTANT_CASES", 200_000)
	prober := sweepProber(t)
	defer solver.SetMutant(solver.ShortcutCount)
	for x := 0; x < solver.ShortcutCount; x++ {
		name := solver.ShortcutName(x)
		if which != "all" && which != "1" && !strings.Contains(","+which+",", ","+name+",") {
			continue
		}
		if name == "tablebases" && prober == nil {
			t.Logf("mutant %s: not run without the Syzygy tables", name)
			continue
		}
		solver.SetMutant(x)
		caught := uint64(0)
		var first string
		const chunk = 500
		for start := uint64(1); caught == 0 && start < limit; start += chunk {
			directSweep(start, chunk, prober, true, func(msg string) {
				var seed uint64
				fmt.Sscanf(msg, "seed %d", &seed)
				if caught == 0 || seed < caught {
					caught, first = seed, msg
				}
			})
		}
		if caught == 0 {
			t.Errorf("mutant %s not caught in %d cases", name, limit)
			continue
		}
		t.Logf("mutant %s caught at case %d: %s", name, caught, first)
	}
}
