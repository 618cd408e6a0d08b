#!/usr/bin/env bash
# An xboard session with mateline through Polyglot, a UCI-to-xboard adapter
# (Debian: apt-get install polyglot): a second real client, written by
# others, speaking UCI to `mateline uci`. It loads the Opera Game's mate in
# 2, lets the engine think for 2 seconds, checks that it plays the key
# Qb8+ (b3b8), and quits. The tests do not need it.
#
#   scripts/polyglot-xboard.sh
set -euo pipefail
cd "$(dirname "$0")/.."
polyglot=$(command -v polyglot || echo /usr/games/polyglot)
if [ ! -x "$polyglot" ]; then
  echo "polyglot not found: apt-get install polyglot" >&2
  exit 1
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/mateline" ./cmd/mateline
cat > "$dir/mateline.ini" <<INI
[PolyGlot]
EngineCommand = $dir/mateline uci
EngineDir = $dir
Log = false
[Engine]
Hash = 16
INI
fen='4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 0 1'
{
  printf 'xboard\nprotover 2\n'
  sleep 1
  printf 'new\nforce\nsetboard %s\npost\nst 2\ngo\n' "$fen"
  sleep 4
  printf 'quit\n'
} | timeout 30 "$polyglot" "$dir/mateline.ini" > "$dir/session.txt" 2>&1
status=$?
grep -v '^feature' "$dir/session.txt"
if ! grep -q '^move b3b8' "$dir/session.txt"; then
  echo "FAIL: no 'move b3b8' in the session" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "FAIL: polyglot exited with $status" >&2
  exit 1
fi
echo "ok: through Polyglot, mateline played the key Qb8+ and the session quit cleanly"
