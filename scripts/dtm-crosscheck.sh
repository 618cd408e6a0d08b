#!/usr/bin/env bash
# Cross-checks the DTM tables on endgame suites (the matetools *1000pv
# files, classic280, KRvK1000), as issue 19 asks:
#  1. validate every record from the tables (--timeout 2s): counts of
#     status and verdict, time, and every record whose stated bm is not the
#     shortest, with its DTM line;
#  2. a sample of the short mates (at most SAMPLE records with at most
#     MAXMATE moves) solved again WITHOUT tables (--no-dtm --all): where the
#     search proves its answer in time, the mate and the key set must be
#     the same;
#  3. the same sample solved with tables and --proof-dir, every
#     certificate checked by 'mateline check' (independent code).
# Fails when a mate or a key set differs, or a certificate fails.
# The tables come from --dtm DIR (default MATELINE_DTM); five-man tables
# must be built first (mateline tables build SIG).
# Usage: scripts/dtm-crosscheck.sh [--dtm DIR] [--sample N] [--max-mate M] [--timeout T] EPD...
# (defaults: 10 records, mates of at most 7 moves, 30s per search)
set -euo pipefail
dtm=${MATELINE_DTM:-}
sample=10
maxmate=7
timeout=30s
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --dtm) dtm=$2; shift 2 ;;
    --sample) sample=$2; shift 2 ;;
    --max-mate) maxmate=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $# -gt 0 ]] || { echo "usage: $0 [--dtm DIR] [--sample N] [--max-mate M] [--timeout T] EPD..." >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d)/mateline
(cd "$root" && go build -o "$bin" ./cmd/mateline)
dtmflag=()
[[ -n $dtm ]] && dtmflag=(--dtm "$dtm")
work=$(mktemp -d)
bad=0
for epd in "$@"; do
  name=$(basename "$epd" .epd)
  out="$work/$name.jsonl"
  start=$(date +%s.%N)
  "$bin" validate "${dtmflag[@]}" --dtm-build 4 --timeout 2s --no-progress --json -o "$out" "$epd" 2>/dev/null || true
  secs=$(echo "$(date +%s.%N) - $start" | bc -l)
  printf '%s: %d records in %.1f s: %s\n' "$name" "$(wc -l < "$out")" "$secs" \
    "$(jq -r '"\(.status)/\(.verdict // "-")"' "$out" | sort | uniq -c | awk '{printf "%s %s, ", $2, $1}')"
  # stated mates that are not the shortest
  jq -r 'select(.verdict == "shorter") | "  shorter: line \(.line) \(.fen): bm #\(.expected.mate), tables #\(.mate): \(.pv_san | join(" "))"' "$out"
  # the sample: short mates, solved without tables
  jq -c "select(.status == \"mate\" and (.mate | fabs) <= $maxmate)" "$out" | awk -v n="$sample" 'NR <= n' > "$work/$name.sample.jsonl"
  n=$(wc -l < "$work/$name.sample.jsonl")
  [[ $n -gt 0 ]] || { echo "  no mate of at most $maxmate moves to sample"; continue; }
  # (the FEN's spaces become '_' so that join sees one field)
  jq -r '.fen' "$work/$name.sample.jsonl" > "$work/$name.sample.epd"
  "$bin" solve --no-dtm --all --mate "$maxmate" --timeout "$timeout" --no-progress --json -o "$work/$name.search.jsonl" "$work/$name.sample.epd" 2>/dev/null || true
  # compare where the search proved its answer; a limit confirms nothing
  join <(jq -r '"\(.fen | gsub(" "; "_")) \(.mate) \(.keys | sort | join(","))"' "$work/$name.sample.jsonl" | sort) \
       <(jq -r 'select(.status == "mate") | "\(.fen | gsub(" "; "_")) \(.mate) \(.keys | sort | join(","))"' "$work/$name.search.jsonl" | sort) > "$work/$name.joined"
  proved=$(wc -l < "$work/$name.joined")
  if awk '$2 != $4 || $3 != $5 { print "    " $0; bad = 1 } END { exit bad }' "$work/$name.joined"; then
    echo "  $n mates of at most $maxmate moves searched without tables: $proved proved in $timeout each, all with the same mate and keys"
  else
    echo "  TABLES AND SEARCH DIFFER (fen, tables mate, keys, search mate, keys) above"; bad=1
  fi
  mkdir -p "$work/$name.proofs"
  "$bin" solve "${dtmflag[@]}" --dtm-build 4 --mate 60 --no-progress --proof-dir "$work/$name.proofs" -o /dev/null "$work/$name.sample.epd" 2>/dev/null || true
  if "$bin" check "$work/$name.proofs"/*.proof.jsonl > "$work/$name.check" 2>&1; then
    echo "  $(ls "$work/$name.proofs" | wc -l) certificates: all check ($(grep -c 'lower bound certified' "$work/$name.check" || true) with a certified lower bound, $(grep -c 'lower bound from tables' "$work/$name.check" || true) from tables)"
  else
    echo "  CERTIFICATES FAIL:"; grep -v '^ok' "$work/$name.check" | sed 's/^/    /'; bad=1
  fi
done
echo "outputs in $work"
exit $bad
