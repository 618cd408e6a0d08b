#!/usr/bin/env bash
# The soundness sweep of help and series play at scale: TestShortcutsSound
# (stipulation/sweep_test.go) over the random positions of seeds FIRST
# to LAST, drawn rich in promotions, en passant, castling, pins,
# self-blocks and crowds, every family of help and series play, each
# shortcut alone and all of them against none. It runs in chunks of
# CHUNK seeds, each chunk one test process over every core; a chunk that
# finished is written to the state file and skipped on a rerun, so a
# killed sweep resumes where it was.
#
#   scripts/sound-sweep.sh [-f FIRST] [-n LAST] [-c CHUNK] [-s STATE] [-N NODES]
#
# -f the first seed (default 1: a chunk's first seed is FIRST plus a
# multiple of CHUNK, so a sweep that goes on past the seeds already on
# record starts after them), -n the last seed (default 1000000), -c the
# chunk (default 20000), -s the state file (default sound-sweep.state:
# one line per chunk, "first count compared solutions skipped seconds",
# and STATE.families, one line per chunk and stipulation, "first
# stipulation compared solutions milliseconds"), -N the reference's node
# limit per case (default 150000). Under a Slurm job array
# (SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT set, as
# scripts/slurm-local.sh sets them) each task takes every COUNT-th chunk,
# with a state file of its own (STATE.TASK). A difference stops the chunk
# and is printed with its seed; the script then exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
from=1 cases=1000000 chunk=20000 state=sound-sweep.state nodes=150000
while getopts f:n:c:s:N: o; do
  case $o in
  f) from=$OPTARG ;;
  n) cases=$OPTARG ;;
  c) chunk=$OPTARG ;;
  s) state=$OPTARG ;;
  N) nodes=$OPTARG ;;
  *) sed -n '2,24p' "$0"; exit 2 ;;
  esac
done
task=${SLURM_ARRAY_TASK_ID:-0} tasks=${SLURM_ARRAY_TASK_COUNT:-1}
[ "$tasks" -gt 1 ] && state=$state.$task
touch "$state" "$state.families"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go test -c -o "$bin/stipulation.test" ./stipulation
i=0
for ((first = from; first <= cases; first += chunk, i++)); do
  [ $((i % tasks)) -eq "$task" ] || continue
  if grep -q "^$first " "$state"; then
    continue
  fi
  n=$((first + chunk - 1 > cases ? cases - first + 1 : chunk))
  start=$(date +%s)
  out=$(MATELINE_SWEEP_FIRST=$first MATELINE_SWEEP_CASES=$n MATELINE_SWEEP_NODES=$nodes \
    "$bin/stipulation.test" -test.run '^TestShortcutsSound$' -test.v -test.timeout 0 2>&1) || {
    echo "$out" | grep -E 'seed [0-9]+|FAIL' | head -20
    exit 1
  }
  line=$(echo "$out" | grep -o 'seeds .*nodes')
  read -r compared solutions skipped < <(echo "$line" | sed -E 's/.*: ([0-9]+) compared \(([0-9]+) solutions\), ([0-9]+) over.*/\1 \2 \3/')
  # the families' lines: stipulation, compared, solutions, milliseconds
  echo "$out" | awk -v f="$first" '$2 ~ /^[a-z=#0-9.-]+$/ && $4 == "compared," {print f, $2, $3, $5, $7}' >> "$state.families"
  echo "$first $n $compared $solutions $skipped $(($(date +%s) - start))" >> "$state"
  echo "seeds $first-$((first + n - 1)): $compared compared, $solutions solutions, $skipped over the node limit, $(($(date +%s) - start)) s"
done
awk '{c += $3; s += $4; k += $5; t += $6} END {printf "in %s: %d cases compared, %d solutions, %d over the node limit, %d s\n", FILENAME, c, s, k, t}' "$state"
[ -f "$state.families" ] && awk '{c[$2] += $3; s[$2] += $4; ms[$2] += $5} END {for (k in c) printf "  %-9s %8d compared, %9d solutions, %.0f s of the cores\n", k, c[k], s[k], ms[k] / 1000}' "$state.families" | sort
