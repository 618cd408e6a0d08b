//go:build mutants

package stipulation

// mutant: see mutant_off.go; here tests set it.
var mutant = shortcutCount
