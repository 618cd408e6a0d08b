//go:build mutants

package stipulation

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"mateline.dev/mateline/internal/testpos"
	"mateline.dev/mateline/stipulation/internal/prune"
)

// TestMutantsCaught (-tags mutants, MATELINE_MUTANTS=all or names): for each
// shortcut, its mutant (a version that prunes one case more, see
// prune.Mutant) is caught by the
// sweep; the log gives how many cases each took.
func TestMutantsCaught(t *testing.T) {
	which := os.Getenv("MATELINE_MUTANTS")
	if which == "" {
		t.Skip("MATELINE_MUTANTS=all (or a list of shortcut names) runs the mutation check (minutes)")
	}
	if which == "1" {
		which = "all"
	}
	chosen, err := prune.ParseSet(which)
	if err != nil {
		t.Fatal(err)
	}
	sweepNodes = testpos.EnvCount(t, "MATELINE_SWEEP_NODES", sweepNodes)
	limit := testpos.EnvCount(t, "MATELINE_MUTANT_CASES", 200_000)
	defer func() { prune.Mutant = prune.Count }()
	for x := prune.Shortcut(0); x < prune.Count; x++ {
		if !chosen.Has(x) {
			continue
		}
		prune.Mutant = x
		caught, first := firstCaught(checkHelpCase, limit)
		if caught == 0 {
			t.Errorf("mutant %s not caught in %d cases", x, limit)
			continue
		}
		t.Logf("mutant %s caught at case %d: %s", x, caught, first)
	}
	if chosen.Has(prune.FailMemo) {
		// forced play's one shortcut, in its own sweep
		prune.Mutant = prune.FailMemo
		if seed, diff := firstCaught(checkForcedCase, limit); seed == 0 {
			t.Errorf("mutant fail-memo not caught in %d forced cases", limit)
		} else {
			t.Logf("mutant fail-memo caught at forced case %d: %s", seed, diff)
		}
	}
}

// firstCaught sweeps the cases of check in chunks until one differs, and
// returns the first seed that does (0 for none within limit).
func firstCaught(check caseCheck, limit uint64) (uint64, string) {
	caught := uint64(0)
	var first string
	const chunk = 2000
	for start := uint64(1); caught == 0 && start < limit; start += chunk {
		var mu sync.Mutex
		sweep(start, chunk, check, true, func(diff string) {
			mu.Lock()
			defer mu.Unlock()
			var seed uint64
			fmt.Sscanf(diff, "seed %d", &seed)
			if caught == 0 || seed < caught {
				caught, first = seed, diff
			}
		})
	}
	return caught, first
}
