#!/usr/bin/env bash
# Runs every test of the project: first the checks of the tree
# (hack/verify-codegen.sh: generated code is up to date;
# hack/verify-hygiene.sh: gofmt, go mod tidy, staticcheck), then go vet and
# the tests of the main module and each nested module (examples, end-to-end,
# conformance, benchmarks, API compatibility with client-go, the Kubernetes
# version matrix, third-party corpus, the release step), all under the
# race detector.
# Usage: ./hack/test.sh            (everything)
#        SHORT=1 ./hack/test.sh    (skip the slow end-to-end suites)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# Modules tested, in order. The root module first; nested modules that exist.
modules=(.)
for m in examples/crd examples/kubebuilder internal/corev1gen e2e conformance bench apicompat versions corpus listwatch dynamic shard controllerruntime controllerruntime/crtest hack/release; do
  [ -f "$m/go.mod" ] && modules+=("$m")
done

short=()
[ -n "${SHORT:-}" ] && short=(-short)

# A failed check does not hide the test results: it fails the run at the end.
failed_checks=()
# Each step's time is printed after it ("--- 123s"), so a slow step shows
# in CI's log.
for check in hack/verify-codegen.sh hack/verify-hygiene.sh; do
  echo "=== $check"
  SECONDS=0
  "./$check" || failed_checks+=("$check")
  echo "--- ${SECONDS}s $check"
done

for m in "${modules[@]}"; do
  echo "=== go test -race ($m)"
  SECONDS=0
  (cd "$root/$m" && go vet ./... && go test -race -count=1 -timeout 45m "${short[@]}" ./...)
  echo "--- ${SECONDS}s $m"
done

if [ ${#failed_checks[@]} -gt 0 ]; then
  echo "=== FAILED: ${failed_checks[*]} (messages above)" >&2
  exit 1
fi
