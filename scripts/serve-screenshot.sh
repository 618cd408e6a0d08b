#!/usr/bin/env bash
# A screenshot of mateline serve's page for a KRPvKR position (FEN=... for
# another, underscores for spaces), taken in headless Chromium
# (apt-get install chromium):
#
#   scripts/serve-screenshot.sh [OUT.png] [SYZYGY_DIR]
#
# It builds mateline, builds the KRPvKR table (and those it needs) in the
# DTM cache unless it is there, starts the server on a free port, shoots
# the page and stops the server. Default OUT: docs/serve.png.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$repo/docs/serve.png}
syzygy=${2:-${MATELINE_SYZYGY:-}}
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$chrome" ] || { echo "serve-screenshot.sh: no Chromium (apt-get install chromium)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
(cd "$repo" && go build -o "$tmp/mateline" ./cmd/mateline)
"$tmp/mateline" tables build KRPvKR >/dev/null
port=$((20000 + RANDOM % 20000))
args=(serve --listen "127.0.0.1:$port")
[ -n "$syzygy" ] && args+=(--syzygy "$syzygy")
"$tmp/mateline" "${args[@]}" 2>"$tmp/serve.log" &
pid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.2; done
fen=${FEN:-1K1k4/1P6/8/8/8/8/r7/2R5_w_-_-_0_1} # the Lucena position: White mates in 21
"$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$tmp/profile" --hide-scrollbars \
  --window-size=1000,760 --virtual-time-budget=5000 --screenshot="$out" "http://127.0.0.1:$port/?fen=$fen" 2>/dev/null
echo "wrote $out"
