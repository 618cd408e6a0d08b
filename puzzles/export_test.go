package puzzles

// VerdictOf is verdict, for the external tests: they read records with
// package epd, which imports puzzles.
var VerdictOf = verdict
