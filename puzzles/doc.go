// Package puzzles holds records (puzzles as read) with their claims, and
// judges them: Solve describes what the solver proved about a record (its
// Outcome, the JSON record of docs/formats.md), Validate checks a record's
// claim and gives one Verdict, SolveProblem and ValidateProblem do the
// same for helpmates and selfmates. The input dialects are read by
// packages epd, lichess, popeye and pgnrec, with what they share from
// here (Reader, Raw, LineReader, ParseMoves, ErrorRecord); opening files
// and telling their format is package inputs'. Writing outcomes out is
// package report's; running a batch of records is package batch's.
package puzzles
