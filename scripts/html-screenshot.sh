#!/usr/bin/env bash
# Renders an HTML report in a real browser and saves a screenshot, to look
# at what an editor sees: mateline validates a set of puzzles (default: the
# bundled examples and a slice of the Lichess sample when the shared data
# is there), writes the report, and headless Chromium (Debian: apt-get
# install chromium) renders it to a PNG. The tests do not need it; the
# report's structure is checked by TestHTMLReportStructure.
#
#   scripts/html-screenshot.sh [OUT.png] [PUZZLES...]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-report.png}
shift || true
chromium=$(command -v chromium || command -v chromium-browser || echo /usr/bin/chromium)
if [ ! -x "$chromium" ]; then
  echo "chromium not found: apt-get install chromium" >&2
  exit 1
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/mateline" ./cmd/mateline
inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then
  inputs=(examples/mates.epd)
  sample=${MATELINE_DATA:?set MATELINE_DATA to the shared data folder}/suites/lichess-sample/lichess_db_puzzle.csv
  if [ -f "$sample" ]; then
    head -200 "$sample" > "$dir/lichess.csv"
    inputs+=("$dir/lichess.csv")
  fi
fi
"$dir/mateline" validate --no-progress --format html -o "$dir/report.html" "${inputs[@]}" || true
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$dir/profile" --hide-scrollbars --window-size=1280,2400 \
  --screenshot="$dir/shot.png" "file://$dir/report.html" 2>/dev/null
cp "$dir/shot.png" "$out"
cp "$dir/report.html" "${out%.png}.html"
echo "report: ${out%.png}.html; screenshot: $out"
