package popeye_test

import (
	"bufio"
	"fmt"
	"slices"
	"strings"
	"testing"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/popeye"
	"mateline.dev/mateline/record"
)

func readPopeye(t testing.TB, text string) []record.Record {
	t.Helper()
	recs, err := record.ReadAll(popeye.NewReader(strings.NewReader(text), "p.inp"))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// The records of a problem file: ids, stipulations, sides, twins, options.
func TestPopeyeReader(t *testing.T) {
	const file = `BeginProblem
Title    Test h#2
Author   A. Composer
Origin   Example, 2026
Pieces   White Kc1 Qd1
         Black Ke8 Bf8 Pf7
Stip     h#2
Option   NoBoard MaxSolutions 3
NextProblem
remark the next one has abbreviated keywords
tit  a selfmate
piec whit ka1 rh3 blac ka3 pa2b3
stip s#1
opti vari nothreat
next
pieces white kb1 rd1 black ka8 pa7b7
stipulation h#1.5
twin move d1 d2
twin add white pc2 sg1
twin continued remove c2
twin stipulation h#2.5 move a8 a6
next
pieces white ke1 ra1 rh1 pe4 black ke8 pe5
stipulation #2
option NoCastling a1 HalfDuplex
next
forsyth 4k3/8/8/8/8/8/8/R3K2R
stipulation s#3
option duplex
EndProblem
`
	recs := readPopeye(t, file)
	want := []struct {
		line       int
		id, fen    string
		stip, twin string
		mate       int
	}{
		{1, "Test h#2", "4kb2/5p2/8/8/8/8/8/2KQ4 b - - 0 1", "h#2", "", 0},
		{10, "a selfmate", "8/8/8/8/8/kp5R/p7/K7 w - - 0 1", "s#1", "", 0},
		{16, "line:16", "k7/pp6/8/8/8/8/8/1K1R4 w - - 0 1", "h#1.5", "a)", 0},
		{18, "line:18", "k7/pp6/8/8/8/8/3R4/1K6 w - - 0 1", "h#1.5", "b) wRd1-->d2", 0},
		{19, "line:19", "k7/pp6/8/8/8/8/2P5/1K1R2N1 w - - 0 1", "h#1.5", "c) +wPc2 +wSg1", 0},
		{20, "line:20", "k7/pp6/8/8/8/8/8/1K1R2N1 w - - 0 1", "h#1.5", "d) -wPc2", 0},
		{21, "line:21", "8/pp6/k7/8/8/8/8/1K1R4 w - - 0 1", "h#2.5", "e) h#2.5  bKa8-->a6", 0},
		{23, "line:23", "4k3/8/8/4p3/4P3/8/8/R3K2R b K - 0 1", "", "", 2},
		{27, "line:27", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "s#3", "(White's play)", 0},
		{27, "line:27 duplex", "4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1", "s#3", "(Black's play, duplex)", 0},
	}
	if len(recs) != len(want) {
		for _, r := range recs {
			t.Logf("%d %s %v", r.Line, r.ID, r.Err)
		}
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i, w := range want {
		r := recs[i]
		if r.Err != nil {
			t.Errorf("record %d: %v", i, r.Err)
			continue
		}
		stip := ""
		if r.IsProblem() {
			stip = r.Stip.String()
		}
		if r.Line != w.line || r.ID != w.id || r.FEN != w.fen || stip != w.stip || r.Problem.Twin != w.twin || int(r.Claim.Mate) != w.mate {
			t.Errorf("record %d: line %d id %q fen %q stip %q twin %q mate %d\nwant line %d id %q fen %q stip %q twin %q mate %d",
				i, r.Line, r.ID, r.FEN, stip, r.Problem.Twin, r.Claim.Mate, w.line, w.id, w.fen, w.stip, w.twin, w.mate)
		}
	}
	p := recs[0].Problem
	if p.Title != "Test h#2" || p.Author != "A. Composer" || p.Origin != "Example, 2026" || p.MaxSolutions != 3 {
		t.Errorf("problem 1: %+v", p)
	}
	if p := recs[1].Problem; !p.Variation || !p.NoThreat {
		t.Errorf("problem 2 options: %+v", p)
	}
}

// Fairy conditions and pieces, unknown and ambiguous words: an error
// record naming the line and the word, and the next problem is read.
func TestPopeyeErrors(t *testing.T) {
	cases := []struct{ name, problem, want string }{
		{"condition", "pieces white ka1 black kh8\nstipulation #2\ncondition circe", `p.inp:4: condition "circe": fairy conditions are not supported`},
		{"nightrider", "pieces white ka1 nb1 black kh8\nstipulation #2", `p.inp:2: pieces: "nb1": N is Popeye's nightrider, a fairy piece; the knight is S`},
		{"fairy piece", "pieces white ka1 grb1 black kh8\nstipulation #2", `p.inp:2: pieces: "grb1": "gr" is a fairy piece`},
		{"attribute", "pieces white royal ka1 black kh8\nstipulation #2", `p.inp:2: pieces: "royal" is not a man and its squares`},
		{"neutral", "pieces neutral ka1 black kh8\nstipulation #2", `p.inp:2: neutral pieces are not supported`},
		{"ambiguous", "pieces white ka1 black kh8\no NoBoard\nstipulation #2", `p.inp:3: "o" is ambiguous: it may be origin or option`},
		{"unknown", "pieces white ka1 black kh8\nstipulation #2\nfoo", `p.inp:4: unknown word "foo"`},
		{"unsupported stipulation", "pieces white ka1 black kh8\nstipulation pser-r#3", `p.inp:3: stipulation "pser-r#3": parry series other than pser-#N, pser-=N, pser-h#N, pser-h=N, pser-s#N and pser-s=N are not supported yet`},
		{"no stipulation", "pieces white ka1 black kh8", `p.inp:1: the problem has no stipulation`},
		{"sstipulation", "pieces white ka1 black kh8\nsstipulation white 2#", `p.inp:3: sstipulation: structured stipulations are not supported`},
		{"option", "pieces white ka1 black kh8\nstipulation #2\noption NoWk", `p.inp:4: option NoWk: a position without a white king is not supported`},
		{"twin", "pieces white ka1 black kh8\nstipulation #2\nzeroposition move c3 c4", `p.inp:4: twin move: c3 is empty`},
		{"illegal", "pieces white ka1 black kb2\nstipulation #2", `p.inp:1: 8/8/8/8/8/8/1k6/K7 w - - 0 1: invalid FEN`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recs := readPopeye(t, "begin\n"+tc.problem+"\nnext\npieces white kg6 qf1 black kh8\nstip #1\nend\n")
			if len(recs) != 2 {
				t.Fatalf("%d records, want 2", len(recs))
			}
			if recs[0].Err == nil || !strings.HasPrefix(recs[0].Err.Error(), tc.want) {
				t.Errorf("error %v, want it to start %q", recs[0].Err, tc.want)
			}
			if recs[1].Err != nil || recs[1].Claim.Mate != 1 {
				t.Errorf("the next problem: %v, mate %d", recs[1].Err, recs[1].Claim.Mate)
			}
		})
	}
}

// A twin that cannot be set up is an error record after the twins before
// it, and the problem ends there (Popeye solves a) and stops at b)).
func TestPopeyeTwinError(t *testing.T) {
	recs := readPopeye(t, "begin\npieces white kb1 rd1 black ka8 pa7b7\nstip h#2\nzeroposition move d1 d2\ntwin move d2 d3\ntwin cont remove b7\nnext\npieces white kg6 qf1 black kh8\nstip #1\nend\n")
	if len(recs) != 3 || recs[0].Err != nil || recs[0].Problem.Twin != "a) wRd1-->d2" || recs[1].Err == nil ||
		!strings.Contains(recs[1].Err.Error(), "p.inp:5: twin move: d2 is empty") || recs[2].Err != nil {
		for _, r := range recs {
			t.Logf("%s %v", r.ID, r.Err)
		}
		t.Fatalf("%d records", len(recs))
	}
}

// Twinning by rotation, reflection, shift, colour change and substitution.
func TestPopeyeTwinGeometry(t *testing.T) {
	recs := readPopeye(t, `begin
pieces white kb1 rd1 black ka8 pb7
stipulation h#2
twin rotate 90
twin mirror a1<-->h1
twin shift a1 b1
twin PolishType
twin substitute R Q
end`)
	fens := []string{}
	for _, r := range recs {
		if r.Err != nil {
			t.Fatalf("%v", r.Err)
		}
		fens = append(fens, r.FEN)
	}
	exp := []string{
		"k7/1p6/8/8/8/8/8/1K1R4 b - - 0 1",
		"8/8/8/8/7R/8/1p5K/k7 b - - 0 1",
		"7k/6p1/8/8/8/8/8/4R1K1 b - - 0 1",
		"1k6/2p5/8/8/8/8/8/2K1R3 b - - 0 1",
		"K7/1P6/8/8/8/8/8/1k1r4 b - - 0 1",
		"k7/1p6/8/8/8/8/8/1K1Q4 b - - 0 1",
	}
	if len(fens) != len(exp) {
		t.Fatalf("%d records: %v", len(fens), fens)
	}
	for i := range exp {
		if fens[i] != exp[i] {
			t.Errorf("twin %d: %s, want %s", i, fens[i], exp[i])
		}
	}
}

// Popeye lets a stipulation's number stand apart, even on the next line.
func TestPopeyeStipulationApart(t *testing.T) {
	recs := readPopeye(t, "begin\npieces white kc1 qd1 black ke8 bf8 pf7\nstipulation h# 2\ntwin stipulation h#\n 2.5\nnext\npieces white kg6 qf1 black kh8\nstip #\n1\nend\n")
	var got []string
	for _, r := range recs {
		if r.Err != nil {
			t.Fatalf("%v", r.Err)
		}
		got = append(got, fmt.Sprintf("%s/%d", r.Stip, r.Claim.Mate))
	}
	if want := []string{"h#2/0", "h#2.5/0", "#0/1"}; !slices.Equal(got, want) {
		t.Errorf("stipulations %v, want %v", got, want)
	}
}

// WhiteToPlay makes h#N an h#(N-1).5 that White starts, as in Popeye; on
// other stipulations it is ignored with a warning.
func TestPopeyeWhiteToPlay(t *testing.T) {
	recs := readPopeye(t, "begin\npieces white kb1 rd1 black ka8 pa7b7\nstip h#2\noption whitetoplay\nnext\nstip h#1.5\npieces white kb1 rd1 black ka8 pa7b7\noption whitetoplay\nend\n")
	if len(recs) != 2 || recs[0].Err != nil || recs[0].Stip.String() != "h#1.5" || recs[0].Pos.Side() != board.White ||
		recs[1].Err != nil || recs[1].Stip.String() != "h#1.5" || len(recs[1].Warnings) != 1 {
		t.Fatalf("%+v", recs)
	}
}

// A problem file is told from EPD by its first word.
func TestSniffPopeye(t *testing.T) {
	for text, want := range map[string]inputs.Format{
		"BeginProblem\npieces white ka1\n": inputs.FormatPopeye,
		"  begi\n":                         inputs.FormatPopeye,
		"\ufeffbeginproblem":               inputs.FormatPopeye,
		"beg k7/8 w - - dm 1;":             inputs.FormatEPD,
		"8/8/8/8/8/8/8/K6k w - - dm 1;":    inputs.FormatEPD,
	} {
		if got := inputs.Sniff(bufio.NewReader(strings.NewReader(text))); got != want {
			t.Errorf("%q: format %v, want %v", text, got, want)
		}
	}
}

// FuzzPopeyeReader: any input gives records or errors, never a panic.
func FuzzPopeyeReader(f *testing.F) {
	f.Add("begin\npieces white kc1 qd1 black ke8 bf8 pf7\nstip h#2\ntwin move d1 d2\nend\n")
	f.Add("begin\nforsyth 4k3/8/8/8/8/8/8/R3K2R\nstip s#3\noption duplex enpassant e2e3e4\nnext\nstip #2\nend")
	f.Add("begin\npieces white ka1 black kh8\ntwin rotate 90 mirror a1<-->h8 shift a1 h8 add black qb2\n")
	f.Add("anfang\nsteine weiss kf3 sc6 bd4f2 schwarz kf5 dd6 lc2\nforderung h#4\nzwilling hinzu schwarz bc2\nweiteres\nforsyth 8/8/8/8/1b4D1/k7/b7/K7\nforderung exact-r#2\nende")
	f.Add("debut\npieces blanc rf3 cc6 noir rf5 fc2\nenonce ser-s#3\njumeau enplus remplace f t\nfin")
	f.Fuzz(func(t *testing.T, text string) {
		recs, _ := record.ReadAll(popeye.NewReader(strings.NewReader(text), "f.inp"))
		for _, r := range recs {
			if r.Err == nil && r.FEN == "" {
				t.Fatalf("a record without error and without position: %+v", r)
			}
		}
	})
}

// TestPopeyeLanguages reads one problem file in Popeye's three input
// languages (the first word chooses): keywords, options, twinning, colours
// and piece letters give the same records.
func TestPopeyeLanguages(t *testing.T) {
	files := map[string]string{
		"English": `beginproblem
author A. Composer
stipulation h#2
pieces white kf3 sc6 pd4f2 qh1 black kf5 qd6 bc2 rh8
option setplay maxsolutions 2
twin add black pc3
twin continued substitute q r
nextproblem
forsyth 8/8/8/8/1p4Q1/k7/p7/K7
stipulation s#2
option try
endproblem`,
		"German": `AnfangProblem
autor A. Composer
forderung h#2
steine weiss kf3 sc6 bd4f2 dh1 schwarz kf5 dd6 lc2 th8
option satzspiel maxloesungen 2
zwilling hinzu schwarz bc3
zwilling ferner ersetze d t
weiteresproblem
forsyth 8/8/8/8/1b4D1/k7/b7/K7
forderung s#2
option verfuehrung
endeproblem`,
		"French": `DebutProbleme
auteur A. Composer
enonce h#2
pieces blanc rf3 cc6 pd4f2 dh1 noir rf5 dd6 fc2 th8
option apparent maxsolutions 2
jumeau ajoute noir pc3
jumeau enplus remplace d t
asuivre
forsyth 8/8/8/8/1p4D1/r7/p7/R7
enonce s#2
option essais
finprobleme`,
	}
	var want []string
	for _, lang := range []string{"English", "German", "French"} {
		if f := inputs.Sniff(bufio.NewReader(strings.NewReader(files[lang]))); f != inputs.FormatPopeye {
			t.Errorf("%s: sniffed as %v", lang, f)
		}
		var got []string
		for _, rec := range readPopeye(t, files[lang]) {
			if rec.Err != nil {
				t.Fatalf("%s: %v", lang, rec.Err)
			}
			pr := rec.Problem
			got = append(got, fmt.Sprintf("%s %s %s set=%v try=%v max=%d", rec.FEN, rec.Stip, pr.Twin, pr.SetPlay, pr.Try, pr.MaxSolutions))
		}
		if want == nil {
			want = got
			if len(want) != 4 {
				t.Fatalf("English: %d records, want 4: %q", len(want), want)
			}
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n%q\nwant (English)\n%q", lang, got, want)
		}
	}
	t.Logf("%q", want)
	recs := readPopeye(t, "AnfangProblem\nsteine weiss kf3 nc6 schwarz kf5\nforderung h#2\nendeproblem")
	if err := recs[0].Err; err == nil || !strings.Contains(err.Error(), "orthodox men in German: K D T L S B") {
		t.Errorf("a knight as N in German: %v, want the German letters named", err)
	}
}
