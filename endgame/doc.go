// Package endgame probes Syzygy endgame tablebases (.rtbw win/draw/loss
// and .rtbz distance-to-zeroing files, up to 7 pieces) in pure Go, with no
// cgo. It was written from the format notes in docs/syzygy.md.
//
// Files are found in one or more directories, mapped lazily on first use
// and checked (magic, size, header layout) before any lookup. Probes are
// safe from many goroutines at once. A missing or corrupt table is an error
// that names the file, never a panic or a guess.
package endgame
