// Package puzzles reads puzzle files (EPD collections, Lichess puzzle CSV)
// into records with their claims, and judges them: Solve describes what
// the solver proved about a record (its Outcome, the JSON record of
// docs/formats.md), Validate checks a record's claim and gives one Verdict.
// Writing outcomes out is package report's; running a batch of records is
// package batch's.
package puzzles
