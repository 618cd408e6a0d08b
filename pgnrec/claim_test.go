package pgnrec

import (
	"testing"

	"mateline.dev/mateline/problem"
)

// TestMateInText: the claims read from tags and comments.
func TestMateInText(t *testing.T) {
	for text, want := range map[string]problem.Mate{
		"Mate in two": 2, "White mates in 3": 3, "mate in 12 moves": 12, "Black to play and mate in one": 1,
		"#2": 2, " # 3 ": 3, "Mated in 4": -4, "#12 Chess": 0, "#1 Chess: 5334 Problems": 0, "Simple endgames": 0, "mate in many": 0, "": 0,
	} {
		if got := mateIn(text); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}
