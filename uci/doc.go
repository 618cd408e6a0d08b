// Package uci is mateline's UCI front end: it reads the commands of a GUI
// or a test harness, puts the positions to the solver, and answers in the
// protocol. It holds the protocol only; the chess is done by the board and
// solver packages, and the tables and books are opened by functions the
// caller gives in Config.
package uci
