// Package puzzles judges records (package record): Solve describes what
// the solver proved about a record (its Answer: the Outcome written, the
// JSON record of docs/formats.md, with its Notation and its input),
// Validate checks a record's claim and gives one Verdict, SolveProblem and
// ValidateProblem do the same for problems of every stipulation. A
// record's limits are shared by every search that answers it (Limits).
// Writing answers out is package report's; running a batch of records is
// package batch's.
package puzzles
