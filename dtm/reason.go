package dtm

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/dtm/tablefile"
)

// Reason says, in words, why the tables do not answer pos, or "" when
// they do (or would, building what the store may build).
func (s *Store) Reason(pos *board.Position) string {
	if c := pos.Castling(); c != 0 {
		return "it has castling rights (" + c.String() + "): the tables hold positions without them (the rights may be dropped when castling cannot happen in the line)"
	}
	if !Covers(pos) {
		return fmt.Sprintf("it has %d men: the tables hold endings of up to %d", pos.Occupied().Count(), BoundedMen)
	}
	nd, ok := tablefile.NodeOf(pos)
	if !ok {
		return "it is not a position the tables index (a king missing, or more than one of a side)"
	}
	m := nd.Material()
	if m.Bare() {
		return ""
	}
	c, _ := m.Canonical()
	if _, err := s.table(c, s.buildMax); err != nil {
		if errors.Is(err, ErrMissing) {
			return s.BuildHint(c)
		}
		return err.Error()
	}
	return ""
}

// HintOnce warns, once per table, that the table of pos is not built, and
// how to build it: for a record whose search a limit stopped, which the
// table would have answered.
func (s *Store) HintOnce(pos *board.Position) {
	if !Covers(pos) {
		return
	}
	nd, ok := tablefile.NodeOf(pos)
	if !ok || nd.Material().Bare() {
		return
	}
	c, _ := nd.Material().Canonical()
	if _, err := s.table(c, s.buildMax); errors.Is(err, ErrMissing) {
		s.warnOnce("hint "+c.String(), s.BuildHint(c)+"; until then its positions are searched")
	}
}

// BuildHint says that m's table is not built, how to build it, and about
// how long that takes on this kind of machine (two cores) from what the
// cache holds.
func (s *Store) BuildHint(m tablefile.Material) string {
	c, _ := m.Canonical()
	missing := s.missingFor(c, map[string]bool{})
	est := time.Duration(0)
	for _, x := range missing {
		est += estimatedBuild(x)
	}
	what := fmt.Sprintf("the %s table is not built", c)
	if _, err := os.Stat(s.dir); err != nil {
		what += " (the cache " + s.dir + " does not exist yet)"
	}
	more := ""
	if len(missing) > 1 {
		more = fmt.Sprintf(", %d tables with the ones it needs", len(missing))
	}
	return fmt.Sprintf("%s: 'mateline tables build %s' builds it (about %s on two cores%s), or --dtm-build %d builds it on first use",
		what, c, roundEstimate(est), more, c.Men())
}

// missingFor lists the tables not in the cache that m's build needs, m
// included, each once.
func (s *Store) missingFor(m tablefile.Material, seen map[string]bool) []tablefile.Material {
	c, _ := m.Canonical()
	if c.Bare() || seen[c.String()] {
		return nil
	}
	seen[c.String()] = true
	if _, err := os.Stat(s.Path(c)); err == nil {
		return nil
	}
	var out []tablefile.Material
	for _, ch := range c.Children() {
		out = append(out, s.missingFor(ch, seen)...)
	}
	return append(out, c)
}

// estimatedBuild is a rough build time on two cores: the five-man ones
// are the averages of the whole set's build of 2026-11-28 (docs/dtm.md),
// by the number of pawns.
func estimatedBuild(m tablefile.Material) time.Duration {
	if m.Men() > tablefile.MaxMen {
		return estimatedLargeBuild(m, tablefile.NewLayout(m).Size)
	}
	return estimatedSmallBuild(m)
}

// estimatedSmallBuild is estimatedBuild of a table of up to MaxMen men.
func estimatedSmallBuild(m tablefile.Material) time.Duration {
	pawns := strings.Count(m.String(), "P")
	switch {
	case m.Men() <= 3:
		return 50 * time.Millisecond
	case m.Men() == 4 && pawns == 0:
		return 150 * time.Millisecond
	case m.Men() == 4:
		return 400 * time.Millisecond
	case pawns == 0:
		return 10 * time.Second
	case pawns == 1:
		return 27 * time.Second
	}
	return 14 * time.Second
}

func roundEstimate(d time.Duration) string {
	switch {
	case d < 5*time.Second:
		return "a few seconds"
	case d < 90*time.Second:
		return fmt.Sprintf("%d s", int(d.Round(5*time.Second).Seconds()))
	}
	return fmt.Sprintf("%d min", int(d.Round(time.Minute).Minutes()))
}

// MissingError says which table is not built (it is ErrMissing).
type MissingError struct{ Material tablefile.Material }

func (e *MissingError) Error() string { return fmt.Sprintf("%v: %s", ErrMissing, e.Material) }

// Is makes errors.Is(err, ErrMissing) hold.
func (e *MissingError) Is(target error) bool { return target == ErrMissing }
