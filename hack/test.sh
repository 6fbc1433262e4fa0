#!/usr/bin/env bash
# Runs every test of the project: the main module and each nested module
# (examples, end-to-end, conformance, bench, apicompat, and the Kubernetes
# version matrix in versions/), all under the race detector.
# Usage: ./hack/test.sh            (everything)
#        SHORT=1 ./hack/test.sh    (skip the slow end-to-end suites)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# Modules tested, in order. The root module first; nested modules that exist.
modules=(.)
for m in examples/crd e2e conformance bench apicompat versions; do
  [ -f "$m/go.mod" ] && modules+=("$m")
done

short=()
[ -n "${SHORT:-}" ] && short=(-short)

for m in "${modules[@]}"; do
  echo "=== go test -race ($m)"
  (cd "$root/$m" && go vet ./... && go test -race -count=1 -timeout 45m "${short[@]}" ./...)
done
