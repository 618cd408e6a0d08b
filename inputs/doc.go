// Package inputs opens puzzle files: it tells a file's format by its
// content (Sniff), gives the reader of that format from the dialect
// packages (epd, lichess, popeye, pgnrec), and reads the inputs of a run,
// --fen positions and then files, as one stream of records named so that
// their ids stay unique (List).
package inputs
