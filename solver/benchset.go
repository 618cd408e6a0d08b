package solver

import "mateline.dev/mateline/problem"

// BenchPosition is one position of the fixed benchmark workload, with the
// longest mate to look for and the answer a correct solver proves.
type BenchPosition struct {
	FEN     string
	MaxMate int
	Want    problem.Mate // 0 for no mate within MaxMate
}

// BenchPositions is the workload of "mateline bench" and BenchmarkSolve:
// mates in 1 to 7, mated-in-N, and positions with no mate within the limit.
// Every answer was checked against Stockfish 15.1.
var BenchPositions = []BenchPosition{
	{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3, 1},
	{"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 3, 1},
	{"rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq g6 0 3", 3, 1},
	{"6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1", 3, 1},
	{"8/8/8/8/8/8/R7/R3K2k w Q - 0 1", 3, 1},
	{"4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 16", 3, 2},
	{"6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 3, 2},
	{"1Q2kb1r/p2n1ppp/4q3/4p1B1/4P3/8/PPP2PPP/2KR4 b k - 2 16", 3, -1},
	{"8/8/8/8/k7/8/2K5/7Q w - - 0 1", 4, 3},
	{"r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 4, 3},
	{"7k/5Q2/8/6K1/8/8/8/8 w - - 0 1", 4, 3},
	{"8/1Q6/8/8/k7/8/2K5/8 b - - 0 1", 4, -2},
	{"r6k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1", 5, 4},
	{"8/5P1k/6pp/8/8/8/8/6RK w - - 0 1", 5, 4},
	{"8/1k1K4/8/8/6R1/8/8/8 w - - 0 1", 5, 4},
	{"8/8/8/8/4Q3/1k6/8/1K6 b - - 0 1", 5, -4},
	{"8/8/8/8/8/1k6/8/1K5Q w - - 0 1", 6, 5},
	{"8/8/8/8/8/8/2k5/K6Q w - - 0 1", 6, 5},
	{"8/8/1k6/8/1K6/8/8/2R5 b - - 0 1", 6, -5},
	{"8/8/1k6/8/1K6/8/8/7R w - - 0 1", 7, 6},
	{"8/8/8/8/8/3k4/8/3K3Q w - - 0 1", 7, 6},
	{"8/8/8/8/8/4k3/8/1K5Q w - - 0 1", 8, 7},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2, 0},
	{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2, 0},
	{"r1b1k2r/ppppqppp/2n2n2/2b5/3NP3/2N5/PPP1BPPP/R1BQK2R b KQkq - 5 6", 2, 0},
	{"6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", 3, 0},
	{"8/8/8/8/8/5K2/7R/6k1 b - - 0 1", 4, 0},
	{"8/8/8/2k5/1pP5/1K1P4/8/8 b - c3 0 1", 5, 0},
	{"7k/5Kp1/6Pp/8/8/8/4p3/8 b - - 0 1", 5, 0},
	{"8/8/8/3k4/8/8/8/R3K3 w - - 0 1", 4, 0},
}
