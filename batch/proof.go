package batch

import (
	"mateline.dev/mateline/puzzles"
	"mateline.dev/mateline/record"

	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mateline.dev/mateline/solver"
)

// certify writes a proof certificate for an outcome whose mate was proved
// (shortest, or an upper bound), to path: through a temporary file in the
// same folder, renamed at the end, so that a crash never leaves half a
// certificate. It records the file and what it certifies in o.
func certify(ctx context.Context, sv *solver.Solver, rec *record.Record, o *puzzles.Answer, opt solver.Options, path string, limit int, lim *puzzles.Limits) error {
	// The lower bound: no mate in depth moves or fewer (with a mate
	// proved shortest, depth is the mate's length: none is shorter).
	mate, lower := o.Mate, o.Depth
	if o.Status == puzzles.StatusMate {
		lower = o.Mate.Moves() - 1
	}
	if mate == 0 {
		mate = o.MateWithin
	}
	if mate == 0 || rec.Err != nil {
		return nil
	}
	opt, ok := lim.For(opt)
	if !ok {
		o.Warnings = append(o.Warnings, "no proof certificate: the limit (--timeout, --nodes) came before it was written")
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".proof-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing to remove
	stats, err := sv.WriteCertificate(ctx, rec.Pos, mate, lower, opt, limit, tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		o.Warnings = append(o.Warnings, fmt.Sprintf("no proof certificate: %v", err))
		return nil
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	o.Proof = &puzzles.ProofInfo{File: path, Nodes: stats.Nodes, LowerBound: stats.LowerBound, Refutations: stats.Refutations, Reason: stats.Reason}
	return nil
}

// proofFileName is the certificate file name of a record id in a
// --proof-dir folder: the id with every character outside letters, digits,
// '.', '-' and '_' replaced by '_', and ".proof.jsonl".
func proofFileName(id string) string {
	var b strings.Builder
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	name := strings.TrimLeft(b.String(), ".")
	if name == "" {
		name = "record"
	}
	return name + ".proof.jsonl"
}
