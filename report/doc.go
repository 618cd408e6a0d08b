// Package report writes what mateline found about puzzle records: readable
// text, annotated EPD, JSON Lines, CSV, and an HTML report for the people
// who fix puzzles, each with the run's summary. It also reads back the
// formats that hold one record per line (the ids already done, the shard
// marker), for resume and merge: what a format writes and how it reads
// back live side by side. docs/formats.md is the contract.
package report
