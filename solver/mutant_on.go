//go:build mutants

package solver

// mutant: see mutant_off.go; here tests set it.
var mutant = shortcutCount
