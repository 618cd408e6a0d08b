// Package tablebase says what the endgame tables know of a position, one
// answer for every front end: mateline's distance-to-mate tables (package
// dtm) and Syzygy's WDL and DTZ files (package endgame), merged in one
// place. probe prints it, serve turns it into Lichess's categories, and
// the solver's root answer and proof trees read the DTM moves and lines
// through the same package dtmline.
//
// answer.go gives a position's values in both kinds of table, and every
// move's; reason.go says why no table answers. Each move's distance to
// mate and the DTM-optimal line come from package tablebase/dtmline, which
// the solver shares without importing the tables.
package tablebase
