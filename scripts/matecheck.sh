#!/usr/bin/env bash
# mateline on matetrack's own harness (matecheck.py from vondele/matetrack),
# beside Stockfish in the same run, and matetrack's check_engine.sh tests
# with 2 threads instead of 4.
#
#   scripts/matecheck.sh [options] MATETRACK_DIR
#
# MATETRACK_DIR is a clone of github.com/vondele/matetrack (never vendored
# here). It needs Debian's python3 and python3-tqdm, and python-chess:
# installed, or a clone given with --python-chess DIR (put on PYTHONPATH).
# Stockfish comes from Debian (apt-get install stockfish).
#
# Part 1, the race: every 13th line of matetrack.epd (lines 13, 26, ...),
# less the positions of any --exclude FILE (the team's shared samples, say),
# each engine one thread and 1 s a position (--time), both at once, each on
# one core; the "Found mates", "Best mates" and issues of each, and their
# ratios.
# Part 2 (unless --no-tests): check_engine.sh's tests, 2 threads:
#   standard  mates2000.epd, --nodes 100000: no issues
#   multiPV   mates2000.epd, --nodes 100000 --multiPV 4 (with the
#             *_multipv.epd files when the clone has them): no issues
#   go-mate   the |bm| <= 2 positions advancepvs.py makes, --mate 0 at
#             1e8 nodes: every mate best
#
# Options: --every N (13), --offset K (0: lines K+N, K+2N, ...), --time S
# (1), --exclude FILE (repeatable), --stockfish PATH, --python-chess DIR,
# --no-race, --no-tests, --out DIR (where the outputs go; default a new
# temporary folder). The outputs of matecheck.py are kept there.
set -euo pipefail

every=13 offset=0 time=1 stockfish=$(command -v stockfish || echo /usr/games/stockfish)
pychess="" race=1 tests=1 out="" excludes=()
while [ $# -gt 0 ]; do
  case $1 in
    --every) every=$2; shift ;;
    --offset) offset=$2; shift ;;
    --time) time=$2; shift ;;
    --exclude) excludes+=("$2"); shift ;;
    --stockfish) stockfish=$2; shift ;;
    --python-chess) pychess=$2; shift ;;
    --no-race) race=0 ;;
    --no-tests) tests=0 ;;
    --out) out=$2; shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    -*) echo "matecheck.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
if [ $# -ne 1 ] || [ ! -f "$1/matecheck.py" ]; then
  echo "usage: scripts/matecheck.sh [options] MATETRACK_DIR (a clone of vondele/matetrack)" >&2
  exit 2
fi
mt=$(cd "$1" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${out:-$(mktemp -d /tmp/matecheck.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "$pychess" ]; then
  export PYTHONPATH=$(cd "$pychess" && pwd)${PYTHONPATH:+:$PYTHONPATH}
fi
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" -c 'import chess, tqdm' || { echo "matecheck.sh: python3 needs chess (--python-chess DIR) and tqdm (apt-get install python3-tqdm)" >&2; exit 2; }

echo "building mateline into $out"
(cd "$repo" && go build -buildvcs=true -o "$out/mateline" ./cmd/mateline)
ml=$out/mateline # started by a program, the bare binary speaks UCI

matecheck() { # OUTFILE ARGS...
  local f=$1; shift
  (cd "$mt" && "$py" matecheck.py "$@") >"$f" 2>&1
}
summary() { # OUTFILE
  grep -E '^(Engine ID|Total FENs|Found mates|Best mates)' "$1" | sed 's/^/  /'
  if grep -q "issues were detected" "$1"; then
    sed -n '/issues were detected/,$p' "$1" | sed 's/^/  /'
  else
    echo "  no issues"
  fi
}
count() { grep "^$2" "$1" | awk '{print $NF}'; }

if [ $race = 1 ]; then
  set_file=$out/race.epd
  cat /dev/null ${excludes[@]+"${excludes[@]}"} >"$out/excluded.epd"
  awk -v n="$every" -v k="$offset" -v ex="$out/excluded.epd" '
    BEGIN { while ((getline l < ex) > 0) { split(l, f, " "); fen[f[1]" "f[2]" "f[3]" "f[4]] = 1 } }
    (FNR-k)%n==0 && FNR>k && !(($1" "$2" "$3" "$4) in fen)' "$mt/matetrack.epd" >"$set_file"
  echo "race: $(wc -l <"$set_file") lines of matetrack.epd, ${time}s each, one thread, both engines at once"
  matecheck "$out/race-stockfish.txt" --engine "$stockfish" --epdFile "$set_file" --time "$time" --threads 1 --concurrency 1 &
  matecheck "$out/race-mateline.txt" --engine "$ml" --epdFile "$set_file" --time "$time" --threads 1 --concurrency 1
  wait
  echo "Stockfish:"; summary "$out/race-stockfish.txt"
  echo "mateline:"; summary "$out/race-mateline.txt"
  sf_found=$(count "$out/race-stockfish.txt" "Found mates:"); ml_found=$(count "$out/race-mateline.txt" "Found mates:")
  sf_best=$(count "$out/race-stockfish.txt" "Best mates:"); ml_best=$(count "$out/race-mateline.txt" "Best mates:")
  awk -v a="$ml_found" -v b="$sf_found" -v c="$ml_best" -v d="$sf_best" \
    'BEGIN { printf "ratios: found %.2f, best %.2f of Stockfish'"'"'s\n", a/b, c/d }'
fi

if [ $tests = 1 ]; then
  fails=0
  check() { # NAME OUTFILE
    echo "$1:"; summary "$2"
    if grep -q "issues were detected" "$2"; then fails=$((fails + 1)); fi
  }
  matecheck "$out/standard.txt" --engine "$ml" --epdFile mates2000.epd --nodes 100000 --threads 2 --concurrency 2
  check "standard (mates2000.epd, 1e5 nodes, 2 threads)" "$out/standard.txt"
  mpv=()
  for f in matetrack_multipv.epd matedtrack_multipv.epd; do
    [ -f "$mt/$f" ] && mpv+=("$f")
  done
  if [ ${#mpv[@]} -gt 0 ]; then
    matecheck "$out/multipv.txt" --engine "$ml" --epdFile mates2000.epd --nodes 100000 --multiPV 4 --multipvFile "${mpv[@]}" --threads 2 --concurrency 2
  else
    echo "(no *_multipv.epd in $mt: the MultiPV lines are checked without them)"
    matecheck "$out/multipv.txt" --engine "$ml" --epdFile mates2000.epd --nodes 100000 --multiPV 4 --threads 2 --concurrency 2
  fi
  check "multiPV 4 (mates2000.epd, 1e5 nodes, 2 threads)" "$out/multipv.txt"
  (cd "$mt" && "$py" advancepvs.py --targetMate -2 --outFile "$out/mates2all.epd" >/dev/null)
  head -n 1003 "$out/mates2all.epd" >"$out/mates2head.epd"
  matecheck "$out/gomate.txt" --engine "$ml" --epdFile "$out/mates2head.epd" --bmMax 2 --mate 0 --nodes 100000000 --threads 2 --concurrency 2
  check "go-mate (|bm| <= 2, 1e8 nodes, 2 threads)" "$out/gomate.txt"
  total=$(count "$out/gomate.txt" "Total FENs:"); best=$(count "$out/gomate.txt" "Best mates:")
  if [ "$best" != "$total" ]; then
    echo "  go-mate: $best best mates of $total"; fails=$((fails + 1))
  fi
  echo "tests failed: $fails"
  [ $fails = 0 ]
fi
