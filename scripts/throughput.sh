#!/usr/bin/env bash
# Positions per second of "mateline solve" over matetools' mate-in-2.epd
# (6,331 positions) with -j 1 and -j 2: median of 7 runs each, and the
# scaling. Usage: scripts/throughput.sh [DATA_DIR]
set -euo pipefail
data=${1:-${MATELINE_DATA:?give the shared data folder as DATA, or set MATELINE_DATA}}
file=$data/suites/matetools/mate-in-2.epd
cd "$(dirname "$0")/.."
go build -o /tmp/mateline-tp ./cmd/mateline
rate() {
  for i in 1 2 3 4 5 6 7; do
    /tmp/mateline-tp solve --no-progress -j "$1" --json -o /dev/null "$file" 2>&1 | awk '/positions\/s/ {print $2}'
  done | sort -n | sed -n 4p
}
r1=$(rate 1); r2=$(rate 2)
printf 'mate-in-2.epd: -j 1 %.0f positions/s, -j 2 %.0f positions/s, scaling %.2fx\n' "$r1" "$r2" "$(echo "$r2 / $r1" | bc -l)"
