#!/usr/bin/env bash
# Cross-checks mateline's helpmates, selfmates and direct mates against
# Popeye 4.104, the problemists' reference solver, and times both on one
# thread (tools/popeyecheck). Popeye has no package: give its binary with
# --py, or its source (github.com/thomas-maeder/popeye) with --src, which
# is built in a scratch folder with `make -f makefile.unx` (gcc, make).
#
#   scripts/popeye-crosscheck.sh --src ~/popeye [FILE.inp...]
#   scripts/popeye-crosscheck.sh --py /tmp/popeye/py examples/random-problems.inp
#
# Default files: examples/problems.inp, examples/random-problems.inp,
# examples/random-series.inp (series-movers and stalemate aims),
# examples/random-forced.inp (=N, s=N, r#N, semi-r#N),
# examples/random-sers.inp (ser-s#N, ser-r#N),
# examples/random-help-self.inp (hs#N, hr#N),
# examples/random-reci.inp (reci-h#N),
# examples/random-pser.inp (pser-h#N) and
# examples/random-intro.inp (M->ser-...).
# Each file is solved twice by Popeye: as written, and with its option
# Intelligent (its fast mode for helpmates).
set -euo pipefail
cd "$(dirname "$0")/.."
py="" src=""
while [ $# -gt 0 ]; do
  case "$1" in
    --py) py=$2; shift 2 ;;
    --src) src=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
if [ -z "$py" ]; then
  if [ -z "$src" ]; then
    echo "give --py PATH (a Popeye binary) or --src DIR (its source)" >&2; exit 2
  fi
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  cp -r "$src"/. "$scratch"
  (cd "$scratch" && make -f makefile.unx >/dev/null 2>&1) || { echo "building Popeye in $scratch failed" >&2; exit 1; }
  py=$scratch/py
fi
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(examples/problems.inp examples/random-problems.inp examples/random-series.inp examples/random-forced.inp examples/random-sers.inp examples/random-help-self.inp examples/random-reci.inp examples/random-pser.inp examples/random-intro.inp)
go build -o /tmp/popeyecheck.$$ ./tools/popeyecheck
status=0
for f in "${files[@]}"; do
  echo "== $f"
  /tmp/popeyecheck.$$ -order -py "$py" "$f" | tail -4 || status=1
  echo "== $f, Popeye with option Intelligent"
  /tmp/popeyecheck.$$ -py "$py" -intelligent "$f" | tail -2 || status=1
done
rm -f /tmp/popeyecheck.$$
exit $status
