// Package serve is mateline's HTTP server (mateline serve): the Lichess
// tablebase API (GET /standard, GET /standard/mainline) answered from
// mateline's own distance-to-mate tables and Syzygy files, mate proofs
// over HTTP (GET /solve, bounded by a queue), and a page at / to explore
// positions, all of it embedded in the binary. docs/serve.md describes the
// endpoints, their fields and the rules they follow.
package serve
