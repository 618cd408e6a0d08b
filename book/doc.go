// Package book reads opening books: Polyglot .bin files (any number, with
// merged weights) through binary search on a ReaderAt, and a built-in
// default made from the ECO opening data that ships with the chess
// library, so that mateline answers even with no book file.
package book
