package solver

import "testing"

// TestShortcutNames: one name per shortcut, a test's shortcutsOff is
// taken off what the environment leaves, and MATELINE_SHORTCUTS_OFF names
// the ones it switches off.
func TestShortcutNames(t *testing.T) {
	if shortcuts.Len() != int(shortcutCount) {
		t.Fatalf("%d names for %d shortcuts", shortcuts.Len(), shortcutCount)
	}
	opt := Options{shortcutsOff: 1 << cutMaterial}
	if cuts := shortcutsFor(opt); cuts != enabledShortcuts()&^(1<<cutMaterial) {
		t.Errorf("shortcutsFor: %s", shortcuts.String(cuts))
	}
	// Off reads the variable each time (enabledShortcuts, once).
	t.Setenv("MATELINE_SHORTCUTS_OFF", "forced-reply,table-cut")
	off := shortcuts.Off()
	if !off.Has(int(cutForcedReply)) || !off.Has(int(cutTable)) || off.Has(int(cutMaterial)) {
		t.Errorf("off: %s", shortcuts.String(off))
	}
}
