package problem

import (
	"fmt"
	"strconv"
	"strings"

	"mateline.dev/mateline/board"
)

// Kind is who plays how: the direct, help and self play, and the series
// of both.
type Kind uint8

// The stipulations.
const (
	Direct         Kind = iota // #N: the side to move forces the aim
	Help                       // h#N: both sides cooperate; the other side reaches the aim
	Self                       // s#N: the side to move forces the other side to mate it
	SeriesDirect               // ser-#N: the side to move plays N moves in a row, the last reaching the aim
	SeriesHelp                 // ser-h#N: the side to move plays N moves in a row, then the other side reaches the aim in one
	Reflex                     // r#N: a selfmate where either side that can mate in one must
	SemiReflex                 // semi-r#N: a selfmate where the other side, when it can mate in one, must
	SeriesSelf                 // ser-s#N: the side to move plays N moves in a row, then every move of the other side reaches the aim
	SeriesReflex               // ser-r#N: the same, the other side mating as soon as it can (it must), and only after the last
	HelpSelf                   // hs#N: both sides cooperate for 2N-1 plies, the side to move starting; then every move of the other side mates
	HelpReflex                 // hr#N: the same, the other side mating as soon as it can (it must), and the side to move never able to
	HelpReciprocal             // reci-h#N: both sides cooperate for 2N-2 plies, the side to move starting; then the side to move can both mate at once and be mated in a helpmate in one
)

// Aim is what the last move of a solution does.
type Aim uint8

// The aims.
const (
	Checkmate Aim = iota // #: checkmate
	Stalemate            // =: stalemate
)

// Stipulation is a kind, an aim and a length.
type Stipulation struct {
	Kind  Kind
	Aim   Aim
	Moves int  // N
	Half  bool // h#N.5: half a move more, the mating side starting
	// Exact (Popeye's exact- prefix): the aim counts only on the last
	// move. In help and series play no shorter solution is looked for;
	// in =N, #N, s#N, r#N (the forced stipulations) the aim reached before
	// the last move fails: a defence that reaches it early refutes.
	Exact bool
	// Intro (Popeye's "m->", series-movers only): the side to move first
	// plays Intro moves in a row, none giving check but the last, the
	// other side not moving; then the other side plays the series.
	Intro int
	// Parry (Popeye's pser-, series mates, stalemates, helpmates,
	// helpstalemates, selfmates and selfstalemates): a series move may
	// give check before the last; the other side then parries it with a
	// move of its own, which is not counted, and the series goes on. In
	// pser-h#N the parry is chosen with the series side (help play); in
	// pser-#N and pser-s#N the other side chooses, so the series must go
	// on to the aim after each parry.
	Parry bool
}

// MaxMoves bounds N: longer problems are out of the solvers' reach.
const MaxMoves = 30

// supported is what Parse accepts, for its errors.
const supported = "#N, =N, h#N, h#N.5, h=N, h=N.5, s#N, s=N, r#N, semi-r#N, hs#N, hr#N, reci-h#N, ser-#N, ser-=N, ser-h#N, ser-h=N, pser-#N, pser-=N, pser-h#N, pser-h=N, pser-s#N, pser-s=N, ser-s#N, ser-s=N or ser-r#N, each also with exact-, and M->ser-..."

// unsupported names the orthodox stipulations mateline does not solve
// yet, by their prefix, for a clear error.
var unsupported = []struct{ prefix, name string }{
	{"pser-", "parry series other than pser-#N, pser-=N, pser-h#N, pser-h=N, pser-s#N and pser-s=N"},
	{"ser-reci-", "series reciprocal helpmates"},
	{"reci-h=", "reciprocal helpstalemates"},
	{"reci-h(", "reciprocal help-alternatives (reci-h(=)#N, reci-h(#)=N)"},
	{"hs=", "help-selfstalemates"},
	{"hr=", "help-reflexstalemates"},
	{"ser-r=", "series reflexstalemates"},
	{"semi-r=", "semi-reflexstalemates"},
	{"r=", "reflexstalemates"},
}

// parried reports whether a parry series (pser-) of the rest t is one
// mateline solves: a series mate, stalemate, helpmate, helpstalemate,
// selfmate or selfstalemate.
func parried(t string) bool {
	for _, p := range []string{"#", "=", "h#", "h=", "s#", "s="} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// Parse reads a stipulation in Popeye's syntax: "#2", "=3", "h#3",
// "h#2.5", "s#4", "s=2", "r#2", "semi-r#3", "hs#2", "h=2", "ser-#5",
// "ser-h=4", "exact-s#2", "2->ser-h#4" (case and spaces ignored).
func Parse(s string) (Stipulation, error) {
	t := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	var st Stipulation
	if i := strings.Index(t, "->"); i > 0 && strings.Trim(t[:i], "0123456789") == "" {
		m, err := strconv.Atoi(t[:i])
		if err != nil || m < 1 || m > MaxMoves {
			return st, fmt.Errorf("stipulation %q: want 1 to %d introductory moves", s, MaxMoves)
		}
		st.Intro, t = m, t[i+2:]
		if rest := strings.TrimPrefix(t, "exact-"); !strings.HasPrefix(rest, "ser-") && !strings.HasPrefix(rest, "pser-") {
			return st, fmt.Errorf("stipulation %q: introductory moves (N->) come before a series-mover (ser-)", s)
		}
	}
	if rest, ok := strings.CutPrefix(t, "exact-"); ok {
		st.Exact, t = true, rest
	}
	series := false
	if rest, ok := strings.CutPrefix(t, "ser-"); ok {
		series, t = true, rest
	} else if rest, ok := strings.CutPrefix(t, "pser-"); ok && parried(rest) {
		series, st.Parry, t = true, true, rest
	}
	for _, u := range unsupported {
		full := t
		if series {
			full = "ser-" + t
		}
		if strings.HasPrefix(full, u.prefix) && !st.Parry {
			return st, fmt.Errorf("stipulation %q: %s are not supported yet; mateline solves %s", s, u.name, supported)
		}
	}
	switch {
	case strings.HasPrefix(t, "reci-h#") && !series:
		st.Kind, t = HelpReciprocal, t[6:]
	case strings.HasPrefix(t, "h#"), strings.HasPrefix(t, "h="):
		st.Kind, t = Help, t[1:]
	case strings.HasPrefix(t, "hs#") && !series:
		st.Kind, t = HelpSelf, t[2:]
	case strings.HasPrefix(t, "hr#") && !series:
		st.Kind, t = HelpReflex, t[2:]
	case strings.HasPrefix(t, "s#"), strings.HasPrefix(t, "s="):
		st.Kind, t = Self, t[1:]
	case strings.HasPrefix(t, "r#") && series:
		st.Kind, t = SeriesReflex, t[1:]
	case strings.HasPrefix(t, "r#"):
		st.Kind, t = Reflex, t[1:]
	case strings.HasPrefix(t, "semi-r#") && !series:
		st.Kind, t = SemiReflex, t[6:]
	case strings.HasPrefix(t, "#"), strings.HasPrefix(t, "="):
		st.Kind = Direct
	default:
		return st, fmt.Errorf("stipulation %q: want %s", s, supported)
	}
	if t[0] == '=' {
		st.Aim = Stalemate
	}
	t = t[1:]
	if series {
		switch st.Kind {
		case Direct:
			st.Kind = SeriesDirect
		case Help:
			st.Kind = SeriesHelp
		case Self:
			st.Kind = SeriesSelf
		}
	}
	if rest, ok := strings.CutSuffix(t, ".5"); ok {
		if st.Kind != Help {
			return st, fmt.Errorf("stipulation %q: only helpmates take half a move (h#N.5)", s)
		}
		st.Half, t = true, rest
	}
	n, err := strconv.Atoi(t)
	if err != nil || t == "" || t[0] == '+' || t[0] == '-' {
		return st, fmt.Errorf("stipulation %q: the number of moves is not a whole number", s)
	}
	st.Moves = n
	min := 1
	if st.Half {
		min = 0 // h#0.5: the side to move mates at once
	}
	if n < min || n > MaxMoves {
		return st, fmt.Errorf("stipulation %q: want %d to %d moves", s, min, MaxMoves)
	}
	return st, nil
}

// String writes the stipulation as Parse reads it.
func (st Stipulation) String() string {
	prefix := [...]string{Direct: "", Help: "h", Self: "s", SeriesDirect: "ser-", SeriesHelp: "ser-h", Reflex: "r", SemiReflex: "semi-r",
		SeriesSelf: "ser-s", SeriesReflex: "ser-r", HelpSelf: "hs", HelpReflex: "hr", HelpReciprocal: "reci-h"}[st.Kind]
	prefix += st.AimSymbol()
	if st.Parry {
		prefix = "p" + prefix
	}
	if st.Exact {
		prefix = "exact-" + prefix
	}
	if st.Intro > 0 {
		prefix = fmt.Sprintf("%d->", st.Intro) + prefix
	}
	if st.Half {
		return fmt.Sprintf("%s%d.5", prefix, st.Moves)
	}
	return fmt.Sprintf("%s%d", prefix, st.Moves)
}

// AimSymbol is "#" or "=", as Popeye writes it after the last move.
func (st Stipulation) AimSymbol() string {
	if st.Aim == Stalemate {
		return "="
	}
	return "#"
}

// HasSolutions reports whether the stipulation is solved by its lines
// (helpmates and series-movers: every solution), not by keys (direct
// mates and selfmates: every first move that forces the aim).
func (st Stipulation) HasSolutions() bool { return st.IsHelp() || st.IsSeries() }

// IsHelp reports whether both sides cooperate move by move: h#N, h=N,
// hs#N, hr#N and reci-h#N.
func (st Stipulation) IsHelp() bool {
	return st.Kind == Help || st.Kind == HelpSelf || st.Kind == HelpReflex || st.Kind == HelpReciprocal
}

// FirstSide is the side that moves first by the problemists' convention
// (Popeye's): Black in helpmates h#N and series helpmates, White in
// h#N.5 and every other kind; with introductory moves, the other side
// (the one that does not play the series).
func (st Stipulation) FirstSide() board.Color {
	side := board.White
	if st.Kind == Help && !st.Half || st.Kind == SeriesHelp || st.Kind == HelpReciprocal {
		side = board.Black
	}
	if st.Intro > 0 {
		side = side.Other()
	}
	return side
}

// IsDirectMate reports whether the stipulation is a direct mate (#N),
// which package solver proves; the zero Stipulation is one.
func (st Stipulation) IsDirectMate() bool {
	return st.Kind == Direct && st.Aim == Checkmate && !st.Exact
}

// IsForced reports whether one side forces the aim against every defence
// and this package solves it (Selfmates): =N, s#N, s=N, r#N, semi-r#N and
// exact-#N; not #N, which package solver proves.
func (st Stipulation) IsForced() bool {
	return st.Kind == Self || st.Kind == Reflex || st.Kind == SemiReflex || st.Kind == Direct && !st.IsDirectMate()
}

// IsSeries reports whether one side plays a series of moves.
func (st Stipulation) IsSeries() bool {
	return st.Kind == SeriesDirect || st.Kind == SeriesHelp || st.Kind == SeriesSelf || st.Kind == SeriesReflex
}

// Plies is the length of a full solution in half-moves (in a parry
// series, without its parries).
func (st Stipulation) Plies() int {
	if st.Half {
		return 2*st.Moves + 1
	}
	switch st.Kind {
	case Direct:
		return 2*st.Moves - 1
	case SeriesDirect:
		return st.Intro + st.Moves
	case SeriesHelp, SeriesSelf, SeriesReflex:
		return st.Intro + st.Moves + 1
	}
	return 2 * st.Moves
}
