// Package prune holds the shortcuts of help and series play: the
// mating-net and budget tests (matenet.go, matebudget.go, with
// assignment.go for the holders of flights), the stuck and movers tests
// of stalemates (stuck.go, movers.go, dropmoves.go), the idle test
// (idle.go), and the pruner that makes them where its policy says
// (pruner.go; the names and switches in shortcut.go; docs/problems.md).
// The solvers of package stipulation use it.
package prune
