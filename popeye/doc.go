// Package popeye reads problem files in Popeye's input language (English,
// German or French, as the file's first word chooses) into records: each
// problem, each twin and, with Duplex, each side is one puzzles.Record,
// with its stipulation and what the file says besides (title, author,
// origin, the twin's label, the options mateline acts on). Pieces writes a
// position back as Popeye's pieces command.
package popeye
