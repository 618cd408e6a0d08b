// Package generate computes the values of a distance-to-mate table from
// its layout by retrograde analysis. Tables are built by rows of 64
// positions that differ in one man's square (rows.go, rowsolve.go and
// the row readers of captures and pushes); build.go holds the builder
// both generators share and the generator position by position, the
// tests' reference and a big-endian machine's generator.
//
// The tables a build's conversions lead into are read through Source: the
// store (package dtm) hands them over, held whole.
package generate
