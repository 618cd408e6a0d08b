package solver

import "mateline.dev/mateline/internal/shortcut"

// ShortcutCount is the number of the search's shortcuts, for the tests of
// package solver_test.
const ShortcutCount = int(shortcutCount)

// ShortcutName is the name of shortcut x.
func ShortcutName(x int) string { return shortcuts.Name(x) }

// WithShortcutsOff is o with the shortcuts of off switched off.
func WithShortcutsOff(o Options, off shortcut.Set) Options {
	o.shortcutsOff = off
	return o
}
