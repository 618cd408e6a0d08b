#!/usr/bin/env bash
# Checks that a plain `go install` of mateline gives a static binary, even
# on a machine with a C compiler (cgo on): nothing the binary needs pulls
# in net, whose resolver would link the C library. CI runs it.
#
#   scripts/check-static.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
CGO_ENABLED=1 GOBIN="$bin" go install ./cmd/mateline
if out=$(ldd "$bin/mateline" 2>&1); then
  echo "FAIL: mateline is dynamically linked:"
  echo "$out"
  exit 1
fi
echo "ok: $(file -b "$bin/mateline" | cut -d, -f1-5)"
echo "    ldd: $out"
