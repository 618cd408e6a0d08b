// Command popeyecheck solves a Popeye problem file with mateline and with
// Popeye, and compares them problem by problem: a helpmate's full-length
// solutions as a set, whether it has shorter ones, and the keys of direct
// mates and selfmates. It also times both on one thread (mateline in this
// process, Popeye as its own process on the whole file) and prints the
// ratio.
//
// Popeye is not packaged: build it from its public source in a scratch
// folder (make -f makefile.unx) and pass its binary with -py. The file's
// problems must all be orthodox (mateline's reader says which are not);
// options are passed to Popeye as written, plus NoBoard.
//
//	go run ./tools/popeyecheck -py /work/scratch/popeye/py examples/problems.inp
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/inputs"
	"mateline.dev/mateline/popeye"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
)

func main() {
	py := flag.String("py", "py", "the Popeye binary")
	timeout := flag.Duration("timeout", time.Minute, "mateline's time limit per problem")
	flag.BoolVar(&showOrder, "order", false, "a problem whose solutions or keys come in another order than Popeye's differs")
	intelligent := flag.Bool("intelligent", false, "give Popeye the option Intelligent (its fast mode for helpmates) too")
	extract := flag.Bool("extract", false, "write the orthodox problems of the files (with -max-plies) as one clean Popeye file to standard output, and stop")
	maxPlies := flag.Int("max-plies", 6, "with -extract: the longest stipulation kept, in plies")
	flag.Parse()
	if *extract {
		if err := extractOrthodox(flag.Args(), *maxPlies); err != nil {
			fmt.Fprintln(os.Stderr, "popeyecheck:", err)
			os.Exit(1)
		}
		return
	}
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: popeyecheck [-py PATH] FILE.inp")
		os.Exit(2)
	}
	if err := run(*py, flag.Arg(0), *timeout, *intelligent); err != nil {
		fmt.Fprintln(os.Stderr, "popeyecheck:", err)
		os.Exit(1)
	}
}

// answer is what one solver says of one problem.
type answer struct {
	solutions []string // helpmates: full-length lines, UCI moves joined by spaces
	short     bool     // helpmates: a shorter solution exists
	keys      []string // direct mates and selfmates
}

func run(py, path string, timeout time.Duration, intelligent bool) error {
	recs, err := inputs.ReadFile(path)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if r.Err != nil {
			return fmt.Errorf("not for the comparison: %v", r.Err)
		}
	}
	// Popeye on the whole file, one process, with NoBoard.
	input, err := noBoard(path, intelligent)
	if err != nil {
		return err
	}
	start := time.Now()
	cmd := exec.Command(py, input)
	out, err := cmd.Output()
	pyTime := time.Since(start)
	os.Remove(input)
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && len(out) > 0) {
		return fmt.Errorf("%s: %v", py, err)
	}
	// (Popeye 4.104 may exit with status 1 after solving every problem:
	// its output is what counts, and every problem must be in it)
	blocks, pyTimes := splitBlocks(string(out))
	if len(blocks) != len(recs) {
		return fmt.Errorf("Popeye printed %d problems, mateline read %d", len(blocks), len(recs))
	}

	sv := solver.New(64)
	var mlTime time.Duration
	differ := 0
	for i := range recs {
		rec := &recs[i]
		start := time.Now()
		ours := solveOurs(sv, rec, timeout)
		took := time.Since(start)
		mlTime += took
		theirs, err := readPopeye(rec, blocks[i])
		if err != nil {
			return fmt.Errorf("%s line %d: %v", path, rec.Line, err)
		}
		name := fmt.Sprintf("%s:%d %s", path, rec.Line, stipOf(rec))
		if d := compare(ours, theirs); d != "" {
			differ++
			fmt.Printf("DIFFER %s: %s\n", name, d)
		} else {
			fmt.Printf("same   %s: %d solutions, %d keys; %.2f s, Popeye %s\n", name, len(ours.solutions), len(ours.keys), took.Seconds(), pyTimes[i])
		}
	}
	// Popeye's own "Time =" figures add up to more than its wall time:
	// the whole process is timed instead (its start-up is milliseconds).
	fmt.Printf("\n%d problems list their solutions or keys in another order than Popeye\n", orderDiffers)
	fmt.Printf("%d problems, %d differ\nmateline %.3f s, Popeye %.3f s (the whole process), ratio mateline/Popeye %.2f\n",
		len(recs), differ, mlTime.Seconds(), pyTime.Seconds(), mlTime.Seconds()/pyTime.Seconds())
	if differ > 0 {
		return fmt.Errorf("%d problems differ", differ)
	}
	return nil
}

func stipOf(rec *record.Record) string {
	if rec.IsProblem() {
		return rec.Stip.String()
	}
	return fmt.Sprintf("#%d", rec.Claim.Mate)
}

// noBoard copies the file with "option NoBoard" (and Intelligent) after
// each BeginProblem and NextProblem, so that Popeye prints solutions only.
func noBoard(path string, intelligent bool) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	opts := "NoBoard"
	if intelligent {
		opts += " Intelligent"
	}
	re := regexp.MustCompile(`(?im)^\s*(begi\w*|next\w*)\s*$`)
	text := re.ReplaceAllString(string(data), "$1\noption "+opts)
	f, err := os.CreateTemp("", "popeyecheck-*.inp")
	if err != nil {
		return "", err
	}
	defer f.Close()
	_, err = f.WriteString(text)
	return f.Name(), err
}

// solveOurs solves a record as mateline's solve would.
func solveOurs(sv *solver.Solver, rec *record.Record, timeout time.Duration) answer {
	var a answer
	if rec.IsProblem() {
		o := puzzles.SolveProblem(context.Background(), rec, puzzles.ProblemOptions{Timeout: timeout})
		if o.Status == puzzles.StatusLimit {
			a.keys = []string{"(limit)"}
			return a
		}
		for _, s := range o.Solutions {
			a.solutions = append(a.solutions, strings.Join(s, " "))
		}
		a.short = o.Shorter != nil
		a.keys = o.Keys
		if rec.Stip.IsForced() && o.Shorter != nil {
			a.short = false // Popeye lists the shorter keys among the keys
		}
		return a
	}
	opt := solver.Options{MaxMate: rec.Claim.Mate.Moves(), AllKeys: true, Threads: 1, Timeout: timeout}
	res := sv.Solve(context.Background(), rec.Pos, opt)
	for _, k := range res.Keys {
		// keys that mate within the stated length, as Popeye lists them
		a.keys = append(a.keys, k.UCI())
	}
	if res.Status == solver.StatusMate && res.Mate.Moves() < rec.Claim.Mate.Moves() {
		// Popeye lists every move that mates within N, not only the shortest
		a.keys = keysWithin(sv, rec, opt)
	}
	return a
}

// keysWithin lists the moves after which the side to move mates within
// the claim (Popeye's keys of #N).
func keysWithin(sv *solver.Solver, rec *record.Record, opt solver.Options) []string {
	var out []string
	var l board.MoveList
	rec.Pos.LegalMoves(&l)
	n := rec.Claim.Mate.Moves()
	for _, m := range l.Slice() {
		child := rec.Pos
		child.Play(m)
		if child.IsCheckmate() {
			out = append(out, m.UCI())
			continue
		}
		if n == 1 {
			continue
		}
		o := opt
		o.AllKeys, o.MaxMate = false, n-1
		res := sv.Solve(context.Background(), child, o)
		if res.Status == solver.StatusMate && res.Mate < 0 && res.Mate.Moves() <= n-1 {
			out = append(out, m.UCI())
		}
	}
	return out
}

// twinLabel starts a twin's part of Popeye's output ("b) wRd1-->d2").
var twinLabel = regexp.MustCompile(`^[a-z]\) `)

// splitBlocks cuts Popeye's output into one block per position solved:
// each problem ends with "solution finished.", and within it each twin
// starts with its label.
func splitBlocks(out string) (blocks, times []string) {
	var cur strings.Builder
	twins := false // the current problem's twins have begun
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "solution finished.") || strings.HasPrefix(line, "Partial solution"):
			for len(times) < len(blocks) {
				times = append(times, "?") // a twin before the last: Popeye times them together
			}
			t := "?"
			if m := popeyeTime.FindStringSubmatch(line); m != nil {
				t = m[1] + " s"
			}
			times = append(times, t)
			blocks = append(blocks, cur.String())
			cur.Reset()
			twins = false
			continue
		case twinLabel.MatchString(line):
			if twins {
				blocks = append(blocks, cur.String())
				cur.Reset()
			}
			twins = true
		}
		cur.WriteString(line + "\n")
	}
	for len(times) < len(blocks) {
		times = append(times, "?")
	}
	return blocks, times
}

// popeyeTime is the time Popeye gives a problem, on its "solution
// finished." line.
var popeyeTime = regexp.MustCompile(`Time = ([0-9.]+) s`)

var (
	helpLine = regexp.MustCompile(`^\s+1\.`)
	keyLine  = regexp.MustCompile(`^\s+1\.(\S+)(?: [+#])? !`)
	moveText = regexp.MustCompile(`^(?:[KQRBS])?([a-h][1-8])[-*]([a-h][1-8])(?:=([QRBS]))?$|^0-0(-0)?$`)
)

// readPopeye reads Popeye's block for rec.
func readPopeye(rec *record.Record, block string) (answer, error) {
	var a answer
	for _, line := range strings.Split(block, "\n") {
		if rec.IsProblem() && rec.Stip.HasSolutions() {
			if !helpLine.MatchString(line) || strings.HasSuffix(line, "?!?") {
				continue // ("?!?": the reflex rule broken in the diagram, no solution)
			}
			series := 0 // the series' moves, between which the other side passes
			if rec.Stip.IsSeries() {
				series = rec.Stip.Moves
			}
			moves, numbered, err := popeyeLine(rec.Pos, line, series)
			if err != nil {
				return a, fmt.Errorf("%q: %v", line, err)
			}
			// a reciprocal helpmate's line may end in the mate one ply
			// early (its other ending); a parry series' line is as long
			// as its series with the parries besides
			reciMate := rec.Stip.Kind == problem.HelpReciprocal && len(moves) == rec.Stip.Plies()-1
			full := len(moves) == rec.Stip.Plies() || reciMate
			if rec.Stip.Parry {
				full = numbered == rec.Stip.Intro+rec.Stip.Moves
			}
			if full {
				// (Popeye's intelligent mode may print a reciprocal
				// helpmate's mate more than once: a set is compared)
				if sol := strings.Join(moves, " "); !slices.Contains(a.solutions, sol) {
					a.solutions = append(a.solutions, sol)
				}
			} else {
				a.short = true
			}
			continue
		}
		if m := keyLine.FindStringSubmatch(line); m != nil {
			mv, err := popeyeMove(rec.Pos, m[1])
			if err != nil {
				return a, err
			}
			a.keys = append(a.keys, mv.UCI())
		}
	}
	return a, nil
}

// popeyeLine reads a printed helpmate line into UCI moves, and counts
// its numbered moves (a series' and its introductory moves; in help play
// every other move).
func popeyeLine(pos board.Position, line string, series int) ([]string, int, error) {
	type word struct {
		text string
		num  int // "2.Bf8-e7": 2, a move's number (0: none)
	}
	var words []word
	for _, w := range strings.Fields(line) {
		num := 0
		if i := strings.Index(w, "."); i > 0 && i < len(w)-1 && w[0] >= '0' && w[0] <= '9' {
			num, _ = strconv.Atoi(w[:i])
			w = w[strings.LastIndex(w, ".")+1:] // "1.Bf8-e7", "1...Rd1-d8"
		}
		if w == "+" || w == "#" || w == "=" || w == "ep." || w == "" || strings.HasSuffix(w, ".") {
			continue
		}
		words = append(words, word{w, num})
	}
	var out []string
	numbered := 0
	for i, w := range words {
		m, err := popeyeMove(pos, w.text)
		if err != nil {
			return nil, 0, err
		}
		if w.num > 0 {
			numbered++
		}
		out = append(out, m.UCI())
		pos.Play(m)
		// in a series the other side does not move: the next move has
		// the next number (a number back at 1 starts the other side's
		// series, after introductory moves)
		if series > 0 && i+1 < len(words) && w.num > 0 && words[i+1].num > w.num {
			pos.Pass()
		}
	}
	return out, numbered, nil
}

// popeyeMove finds the legal move Popeye wrote as text.
func popeyeMove(pos board.Position, text string) (board.Move, error) {
	m := moveText.FindStringSubmatch(text)
	if m == nil {
		return board.NoMove, fmt.Errorf("move %q: not Popeye's orthodox notation", text)
	}
	var l board.MoveList
	pos.LegalMoves(&l)
	for _, mv := range l.Slice() {
		if strings.HasPrefix(text, "0-0") {
			if mv.IsCastling() && (m[4] != "") == (mv.To().File() == 2) {
				return mv, nil
			}
			continue
		}
		if mv.From().String() != m[1] || mv.To().String() != m[2] {
			continue
		}
		if promo := m[3]; promo != "" {
			if " PSBRQK"[mv.Promotion()] != promo[0] {
				continue
			}
		}
		return mv, nil
	}
	return board.NoMove, fmt.Errorf("move %q: not legal in %s", text, pos.FEN())
}

// compare says how two answers differ ("" when they agree).
func compare(ours, theirs answer) string {
	var diffs []string
	a, b := slices.Sorted(slices.Values(ours.solutions)), slices.Sorted(slices.Values(theirs.solutions))
	if !slices.Equal(a, b) {
		diffs = append(diffs, fmt.Sprintf("solutions: mateline %d %v, Popeye %d %v", len(a), only(a, b), len(b), only(b, a)))
	}
	if slices.Equal(a, b) && !slices.Equal(ours.solutions, theirs.solutions) ||
		slices.Equal(slices.Sorted(slices.Values(ours.keys)), slices.Sorted(slices.Values(theirs.keys))) && !slices.Equal(ours.keys, theirs.keys) {
		orderDiffers++
		if showOrder {
			diffs = append(diffs, fmt.Sprintf("order: mateline %v, Popeye %v", ours.solutions, theirs.solutions))
		}
	}
	if ours.short != theirs.short {
		diffs = append(diffs, fmt.Sprintf("shorter solution: mateline %v, Popeye %v", ours.short, theirs.short))
	}
	ka, kb := slices.Sorted(slices.Values(ours.keys)), slices.Sorted(slices.Values(theirs.keys))
	if !slices.Equal(ka, kb) {
		diffs = append(diffs, fmt.Sprintf("keys: mateline %v, Popeye %v", ka, kb))
	}
	return strings.Join(diffs, "; ")
}

// orderDiffers counts the problems whose solutions or keys come in another
// order than Popeye's; with showOrder they count as differing.
var (
	orderDiffers int
	showOrder    bool
)

// only lists what a has and b lacks (at most 3).
func only(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) && len(out) < 3 {
			out = append(out, s)
		}
	}
	return out
}

// extractOrthodox writes every readable record of the files whose
// stipulation has at most maxPlies plies as one Popeye problem file:
// pieces, stipulation, and the options that keep its side to move and
// castling rights.
func extractOrthodox(files []string, maxPlies int) error {
	first := true
	for _, path := range files {
		recs, err := inputs.ReadFile(path)
		if err != nil {
			return err
		}
		for i := range recs {
			rec := &recs[i]
			if rec.Err != nil || rec.Terminal != "" {
				continue
			}
			st := rec.Stip
			if !rec.IsProblem() {
				st = problem.Stipulation{Kind: problem.Direct, Moves: rec.Claim.Mate.Moves()}
			}
			if st.Moves == 0 || st.Plies() > maxPlies || rec.Pos.EnPassant() != board.NoSquare {
				continue
			}
			if first {
				fmt.Println("beginproblem")
			} else {
				fmt.Println("nextproblem")
			}
			first = false
			fmt.Printf("title %s:%d\n%s\nstipulation %s\n", path, rec.Line, popeye.Pieces(rec.Pos), st)
			var opts []string
			convention := st.FirstSide()
			if rec.Pos.Side() != convention {
				opts = append(opts, "HalfDuplex")
			}
			if nc := noCastling(rec); nc != "" {
				opts = append(opts, "NoCastling "+nc)
			}
			if len(opts) > 0 {
				fmt.Printf("option %s\n", strings.Join(opts, " "))
			}
		}
	}
	if !first {
		fmt.Println("endproblem")
	}
	return nil
}

// noCastling names the rook squares where Popeye would assume a castling
// right the position does not have.
func noCastling(rec *record.Record) string {
	rights := rec.Pos.Castling().String()
	var out []string
	for _, c := range []struct{ right, king, rook string }{{"K", "e1", "h1"}, {"Q", "e1", "a1"}, {"k", "e8", "h8"}, {"q", "e8", "a8"}} {
		k, _ := board.ParseSquare(c.king)
		r, _ := board.ParseSquare(c.rook)
		kp, rp := rec.Pos.PieceAt(k), rec.Pos.PieceAt(r)
		if kp.Type() == board.King && rp.Type() == board.Rook && kp.Color() == rp.Color() &&
			(kp.Color() == board.White) == (c.king == "e1") && !strings.Contains(rights, c.right) {
			out = append(out, c.rook)
		}
	}
	return strings.Join(out, " ")
}
