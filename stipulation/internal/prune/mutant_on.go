//go:build mutants

package prune

// Mutant: see mutant_off.go; here tests set it.
var Mutant = Count
