#!/usr/bin/env bash
# Solver gain from Syzygy tables: a sample of matetools' KRvK and KQvKR
# suites (every 50th position, 20 each) solved with the same node budget
# with and without tables. Prints solved counts, node totals and their
# ratio, and fails if any mate length differs.
# Usage: scripts/tb-gain.sh [DATA_DIR] [NODE_BUDGET]
set -euo pipefail
data=${1:-${MATELINE_DATA:?give the shared data folder as DATA, or set MATELINE_DATA}}
budget=${2:-5000000}
cd "$(dirname "$0")/.."
go build -o /tmp/mateline-tb ./cmd/mateline
sum() { # file -> "solved nodes"
  awk '{ if ($0 ~ /"status":"mate"/) s++; match($0, /"nodes":[0-9]+/); n += substr($0, RSTART+8, RLENGTH-8) } END { print s+0, n+0 }' "$1"
}
for suite in KRvK1000pv KQvKR1000pv; do
  awk 'NR % 50 == 1' "$data/suites/matetools/$suite.epd" > "/tmp/tbgain-$suite.epd"
  /tmp/mateline-tb solve --no-progress -j 1 --hash 16 --nodes "$budget" --json -o "/tmp/tbgain-$suite-without.jsonl" "/tmp/tbgain-$suite.epd" 2>/dev/null || true
  /tmp/mateline-tb solve --no-progress -j 1 --hash 16 --nodes "$budget" --syzygy "$data/syzygy" --json -o "/tmp/tbgain-$suite-with.jsonl" "/tmp/tbgain-$suite.epd" 2>/dev/null || true
  read -r s0 n0 < <(sum "/tmp/tbgain-$suite-without.jsonl")
  read -r s1 n1 < <(sum "/tmp/tbgain-$suite-with.jsonl")
  # Every mate proved both ways must have the same length.
  join <(awk '/"status":"mate"/ {match($0, /"id":"[^"]*"/); id=substr($0,RSTART,RLENGTH); match($0, /"mate":-?[0-9]+/); print id, substr($0,RSTART,RLENGTH)}' "/tmp/tbgain-$suite-without.jsonl" | sort) \
       <(awk '/"status":"mate"/ {match($0, /"id":"[^"]*"/); id=substr($0,RSTART,RLENGTH); match($0, /"mate":-?[0-9]+/); print id, substr($0,RSTART,RLENGTH)}' "/tmp/tbgain-$suite-with.jsonl" | sort) \
       | awk '$2 != $3 { print "MATE LENGTH DIFFERS:", $0; bad=1 } END { exit bad }'
  printf '%s: 20 positions, budget %d nodes: without tables %d solved in %d nodes; with tables %d solved in %d nodes (%.1fx fewer)\n' \
    "$suite" "$budget" "$s0" "$n0" "$s1" "$n1" "$(echo "$n0 / $n1" | bc -l)"
done
