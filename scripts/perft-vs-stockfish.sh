#!/usr/bin/env bash
# Compares mateline's perft speed with Stockfish's "go perft" on the same
# position and depth, in one run. Needs Debian's stockfish package
# (apt-get install stockfish). Usage: scripts/perft-vs-stockfish.sh [DEPTH]
set -euo pipefail
depth=${1:-6}
sf=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$sf" ] || { echo "stockfish not found: apt-get install stockfish" >&2; exit 1; }
cd "$(dirname "$0")/.."
go build -o /tmp/mateline-perft ./cmd/mateline

now() { date +%s.%N; }
# Stockfish runs perft synchronously in its input loop, so "quit" waits for
# it; a run without perft measures start-up, which is subtracted.
t0=$(now); printf 'uci\nisready\nquit\n' | "$sf" >/dev/null; t1=$(now)
startup=$(echo "$t1 - $t0" | bc -l)
t0=$(now)
sfnodes=$(printf 'uci\nisready\nposition startpos\ngo perft %s\nquit\n' "$depth" | "$sf" | awk '/Nodes searched/ {print $3}')
t1=$(now)
sfsec=$(echo "$t1 - $t0 - $startup" | bc -l)
ml=$(/tmp/mateline-perft perft --depth "$depth" --json)
mlnodes=$(echo "$ml" | sed 's/.*"nodes":\([0-9]*\).*/\1/')
mlsec=$(echo "$ml" | sed 's/.*"seconds":\([0-9.e-]*\).*/\1/')
[ "$sfnodes" = "$mlnodes" ] || { echo "node counts differ: stockfish $sfnodes, mateline $mlnodes" >&2; exit 1; }
sfrate=$(echo "$sfnodes / $sfsec" | bc -l)
mlrate=$(echo "$mlnodes / $mlsec" | bc -l)
printf 'perft %s from the start position: %s leaves\n' "$depth" "$mlnodes"
printf '  stockfish  %6.3f s  %6.1f M leaves/s\n' "$sfsec" "$(echo "$sfrate / 1000000" | bc -l)"
printf '  mateline   %6.3f s  %6.1f M leaves/s\n' "$mlsec" "$(echo "$mlrate / 1000000" | bc -l)"
printf '  ratio mateline/stockfish: %.2f\n' "$(echo "$mlrate / $sfrate" | bc -l)"
