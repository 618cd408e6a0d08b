package problem

import "fmt"

// NoMateIn says that no mate exists in n moves or fewer, as every report
// writes it: "no mate in 3 moves or fewer", "no mate in 1 move".
func NoMateIn(n int) string {
	if n == 1 {
		return "no mate in 1 move"
	}
	return fmt.Sprintf("no mate in %d moves or fewer", n)
}
