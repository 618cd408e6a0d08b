package report

import (
	"fmt"
	"strings"

	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/puzzles"
)

// describeClaim says in words what the claim validate checked was: the
// mate, and the key when the record names one.
func describeClaim(o *puzzles.Answer) string {
	var parts []string
	if o.Stipulation != "" {
		parts = append(parts, o.Stipulation)
	}
	if x := o.Expected; x != nil && x.Mate != 0 {
		parts = append(parts, x.Mate.Describe())
	}
	if rec := o.Input; rec != nil && len(rec.Claim.Keys) > 0 {
		var keys []string
		for _, k := range rec.Claim.Keys {
			keys = append(keys, rec.Pos.SAN(k))
		}
		parts = append(parts, "key "+strings.Join(keys, " "))
	}
	if rec := o.Input; rec != nil && o.Stipulation != "" && len(rec.Claim.Line) > 0 {
		parts = append(parts, "solution "+rec.Pos.SANLine(rec.Claim.Line))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// describeFinding says in one line what the search proved.
func describeFinding(o *puzzles.Answer) string {
	if o.Stipulation != "" && o.Status != puzzles.StatusError && o.Status != puzzles.StatusSkipped {
		s := problemSummary(o)
		if sh := o.Shorter; sh != nil {
			s += fmt.Sprintf("; shorter: %s (%s)", sh.Stipulation, strings.Join(o.ShorterText, ", "))
		}
		return s
	}
	switch o.Status {
	case puzzles.StatusMate:
		if o.Mate > 0 {
			return fmt.Sprintf("mate in %d, proved shortest", o.Mate)
		}
		return fmt.Sprintf("mated in %d, proved", -o.Mate)
	case puzzles.StatusNoMate:
		if o.Note != "" {
			return "no mate: " + o.Note
		}
		return "no mate at any length: " + noMateReason(o)
	case puzzles.StatusCapped:
		return problem.NoMateIn(o.Depth) + " (proved); longer mates not looked for"
	case puzzles.StatusLimit:
		if o.MateWithin != 0 {
			return "limit reached; " + WithinWords(o.MateWithin, o.Depth)
		}
		return "limit reached; proved " + problem.NoMateIn(o.Depth) + "; longer mates not decided"
	case puzzles.StatusSkipped:
		return "not checked: " + o.Note
	}
	return "not searched"
}

// verdictReason is why a record got its verdict: the error the check
// found, or with timeout what the limit cut.
func verdictReason(o *puzzles.Answer) string {
	if o.Error != "" || o.Verdict != puzzles.VerdictTimeout {
		return o.Error
	}
	switch o.Cut {
	case puzzles.CutLength:
		return "the limit came before the mate's length was proved"
	case puzzles.CutKeys:
		return "the mate's length is proved; the limit came before every key was"
	case puzzles.CutLine:
		return "the key is proved; the limit came before every move of the solution was checked"
	case puzzles.CutAuthorLine:
		return "the key is proved; the limit came before the author's line was checked"
	}
	return ""
}
