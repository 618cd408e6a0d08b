package main

import (
	"slices"
	"strings"
	"testing"

	"mateline.dev/mateline/inputs"
)

// Popeye 4.104's output for examples/problems.inp with NoBoard (trimmed):
// three problems, the last with three twins.
const popeyeOutput = `Popeye Linux-6.18.44-fc-v669-unknown-64Bit v4.104 (1024 MB)

  1.Bf8-e7 Qd1-h5   2.Ke8-f8 Qh5-h8 #
  1.Bf8-g7 Qd1-d7 +   2.Ke8-f8 Qd7-d8 #

solution finished. Time = 0.010 s

   1.Qg4-d1 ! zugzwang.
      1...b4-b3
          2.Qd1-g4
              2...b3-b2 #

solution finished. Time = 0.006 s

a) 

  1.Ka8-b8 Kb1-c2   2.Kb8-a8 Rd1-d8 #

b) wRd1-->d2  

  1.Ka8-b8 Kb1-c2   2.Kb8-a8 Rd2-d8 #

c) h#1.5  

  1...Rd1-d8 #

solution finished. Time = 0.015 s
`

func TestReadPopeyeOutput(t *testing.T) {
	recs, err := inputs.ReadFile("../../examples/problems.inp")
	if err != nil {
		t.Fatal(err)
	}
	blocks, times := splitBlocks(popeyeOutput)
	if len(blocks) != len(recs) || len(times) != len(recs) {
		t.Fatalf("%d blocks and %d times, %d records", len(blocks), len(times), len(recs))
	}
	if times[0] != "0.010 s" || times[1] != "0.006 s" {
		t.Errorf("Popeye's times %q, want 0.010 s and 0.006 s first", times)
	}
	want := []answer{
		{solutions: []string{"f8e7 d1h5 e8f8 h5h8", "f8g7 d1d7 e8f8 d7d8"}},
		{keys: []string{"g4d1"}},
		{solutions: []string{"a8b8 b1c2 b8a8 d1d8"}},
		{solutions: []string{"a8b8 b1c2 b8a8 d2d8"}},
		{short: true},
	}
	for i := range recs {
		got, err := readPopeye(&recs[i], blocks[i])
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if !slices.Equal(got.solutions, want[i].solutions) || !slices.Equal(got.keys, want[i].keys) || got.short != want[i].short {
			t.Errorf("record %d: %+v, want %+v", i, got, want[i])
		}
	}
	if d := compare(answer{solutions: []string{"a b"}}, answer{solutions: []string{"a c"}}); !strings.Contains(d, "solutions") {
		t.Errorf("compare: %q", d)
	}
}
