// Package problem holds the values that every part of mateline shares
// about what a position asks and what its answer says: mate lengths
// (Mate), stipulations (Stipulation, Kind, Aim, Parse). It imports board
// alone, so that the readers of inputs, the solvers and the writers all
// use it without importing each other.
package problem
