// Package epd reads Extended Position Description files into records: the
// standard dialect ("opcode operands;"), full six-field FEN before the
// operations, matetrack's "bm #N" claims and the loose dialect without
// semicolons. The claims come from dm, bm, am, pv and stip; the other
// operations are kept on the record (puzzles.Op) for annotated output.
package epd
