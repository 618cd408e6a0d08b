//go:build mutants

package solver

// SetMutant makes shortcut x the mutant (ShortcutCount: none).
func SetMutant(x int) { mutant = shortcutID(x) }
