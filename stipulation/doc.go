// Package stipulation solves the orthodox problem stipulations besides the
// direct mate of package solver: helpmates (h#N, h#N.5) and helpstalemates
// (h=N, h=N.5), selfmates and selfstalemates (s#N, s=N), reflexmates and
// semi-reflexmates (r#N, semi-r#N), direct stalemates (=N), help-selfmates,
// help-reflexmates and reciprocal helpmates (hs#N, hr#N, reci-h#N), the
// parry series (pser-#N, pser-=N, pser-h#N, pser-h=N, pser-s#N,
// pser-s=N), and the
// series-movers ser-#N, ser-=N, ser-h#N and ser-h=N, exactly, with every
// solution.
//
// Roles follow the side to move. In h#N the side to move plays first and
// the other side mates on its N-th move (2N plies); in h#N.5 the side to
// move plays first and mates on its (N+1)-th move (2N+1 plies). In s#N the
// side to move forces the other side to mate it by the other side's N-th
// move; r#N is s#N where either side that can mate in one move must
// (semi-r#N: only the other side). In =N the side to move forces the
// other side to be stalemated by its own N-th move. A problem states its
// stipulation with Black to move first in
// helpmates and White in the others; a reader of problems sets the side to
// move accordingly (Popeye's convention), a FEN's side is used as it is
// (Popeye's HalfDuplex).
//
// The shortcuts of help and series play, and the pruner that makes
// them, are in the internal package prune.
package stipulation
