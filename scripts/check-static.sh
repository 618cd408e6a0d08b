#!/usr/bin/env bash
# Checks that mateline builds as a static binary the way README's install
# command builds it (CGO_ENABLED=0: Go's own DNS resolver, which serve's
# net/http would otherwise take from the C library): nothing the binary
# needs may require cgo. CI runs it.
#
#   scripts/check-static.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
CGO_ENABLED=0 GOBIN="$bin" go install ./cmd/mateline
if out=$(ldd "$bin/mateline" 2>&1); then
  echo "FAIL: mateline is dynamically linked:"
  echo "$out"
  exit 1
fi
echo "ok: $(file -b "$bin/mateline" | cut -d, -f1-5)"
echo "    ldd: $out"
