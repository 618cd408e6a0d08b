#!/usr/bin/env bash
# Times the build of each table given with this checkout's mateline and
# with the raw-format binary of 2026-11-26 (9f9b4e2^), in pairs, one
# right after the other, so that both meet the same speed of the machine
# (it drifts by a third from one minute to the next). Each build is
# timed as the "built X in" line it prints:
#
#   - this checkout's from an empty cache each time, as in a whole-set
#     build (the tables a build reads are then its raw scratch copies);
#   - the raw binary into one cache kept between runs, the table itself
#     removed first: its smaller tables are raw files, as in its own
#     whole-set build.
#
#   scripts/dtm-pairs.sh [-n REPEATS] SIG...    e.g. KRBvKP KBNvKP
#
# It prints one line per pair: repeat, signature, both times and their
# ratio. Each pair of five-man tables with pawns takes about two minutes
# on two cores. Nothing else should run meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=1
if [ "${1:-}" = -n ]; then
  repeats=$2
  shift 2
fi
if [ $# -eq 0 ]; then
  echo "usage: scripts/dtm-pairs.sh [-n REPEATS] SIG..." >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/new" ./cmd/mateline
git worktree add -q --detach "$work/src" 9f9b4e2^
(cd "$work/src" && go build -o "$work/raw" ./cmd/mateline)
git worktree remove --force "$work/src"
mkdir "$work/rawcache"
# seconds in a build's "built SIG in T s" line
took() {
  tr '\r' '\n' | sed -n "s/.*built $1 in \([0-9.]*\) \(m\?s\).*/\1 \2/p" | head -1 |
    awk '{ print ($2 == "ms") ? $1 / 1000 : $1 }'
}
for ((rep = 1; rep <= repeats; rep++)); do
  for sig in "$@"; do
    rm -rf "$work/new-cache" && mkdir "$work/new-cache"
    new=$("$work/new" tables build --dtm "$work/new-cache" "$sig" 2>&1 | took "$sig")
    rm -f "$work/rawcache/$sig.mldtm"
    raw=$("$work/raw" tables build --dtm "$work/rawcache" "$sig" 2>&1 | took "$sig")
    awk -v r="$rep" -v s="$sig" -v a="$raw" -v b="$new" \
      'BEGIN { printf "%d %-8s raw %6.1f s  this %6.1f s  %.2f times\n", r, s, a, b, b / a }'
  done
done
