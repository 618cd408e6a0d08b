#!/usr/bin/env bash
# Writes cmd/mateline/default.pgo, the CPU profile that "go build" uses for
# profile-guided optimisation of the mateline binary (Go inlines the hot
# calls it names, such as the steps of the alpha-beta search). The profile
# comes from a mixed workload, not from the bench set alone: the bench,
# every 40th position of matetrack.epd (1 s each), and a validation of
# every 20th record of mates2000.epd. PGO changes the code the compiler
# emits, never the search: "mateline bench" gives the same node count.
# Usage: scripts/pgo-profile.sh [DATA_DIR]
set -euo pipefail
data=${1:-${MATELINE_DATA:?give the shared data folder as DATA, or set MATELINE_DATA}}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -pgo=off -o "$tmp/mateline" ./cmd/mateline
MATELINE_CPUPROFILE=$tmp/bench.pprof "$tmp/mateline" bench >/dev/null
awk 'NR % 40 == 0' "$data/suites/matetrack/matetrack.epd" >"$tmp/mt.epd"
MATELINE_CPUPROFILE=$tmp/solve.pprof "$tmp/mateline" solve --no-progress -j 1 --timeout 1s --json -o "$tmp/out.jsonl" "$tmp/mt.epd" 2>/dev/null || true
awk 'NR % 20 == 0' "$data/suites/matetrack/mates2000.epd" >"$tmp/m2.epd"
MATELINE_CPUPROFILE=$tmp/validate.pprof "$tmp/mateline" validate --no-progress -j 1 --timeout 1s --json -o "$tmp/out2.jsonl" "$tmp/m2.epd" 2>/dev/null || true
go tool pprof -proto "$tmp"/*.pprof >cmd/mateline/default.pgo
echo "wrote cmd/mateline/default.pgo ($(wc -c <cmd/mateline/default.pgo) bytes)"
