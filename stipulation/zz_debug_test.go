package stipulation

import (
	"context"
	"fmt"
	"os"
	"testing"

	"mateline.dev/mateline/board"
)

func TestZZDebug(t *testing.T) {
	fen := os.Getenv("ZZFEN")
	if fen == "" {
		t.Skip()
	}
	pos, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := Parse(os.Getenv("ZZSTIP"))
	res, err := Lines(context.Background(), pos, st, Limits{Threads: 1})
	fmt.Println(len(res.Solutions), res.Nodes, err)
	for p := range zzVisit {
		if zzVisit[p] > 0 {
			fmt.Printf("plies %2d visited %9d passed %9d\n", p, zzVisit[p], zzPass[p])
		}
	}
}
