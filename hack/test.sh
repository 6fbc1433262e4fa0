#!/usr/bin/env bash
# Runs every test of the project: first the checks of the tree
# (hack/verify-codegen.sh: generated code is up to date;
# hack/verify-hygiene.sh: gofmt, go mod tidy, staticcheck), then go vet (every
# analyzer) and the tests of the main module and each nested module (examples,
# end-to-end, conformance, benchmarks, API compatibility with client-go, the
# Kubernetes version matrix, third-party corpus, the release step), all under
# the race detector.
# Usage: ./hack/test.sh            (everything)
#        SHORT=1 ./hack/test.sh    (skip the slow end-to-end suites)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# Modules tested, in order. The root module first; nested modules that exist.
# The three that start kube-apiserver and etcd (examples/kubebuilder, e2e,
# controllerruntime/crtest) come last, so that the background build below
# has the time of every other step to finish.
modules=(.)
for m in examples/crd internal/corev1gen conformance bench apicompat versions corpus listwatch dynamic shard controllerruntime hack/release examples/kubebuilder e2e controllerruntime/crtest; do
  [ -f "$m/go.mod" ] && modules+=("$m")
done

short=()
[ -n "${SHORT:-}" ] && short=(-short)

# client-gen (examples/crd's test), kube-apiserver and etcd are built from
# source on a new machine (hack/kube-binaries.sh, several minutes of CPU).
# They are built in the background from the start, so that the build takes
# the cycles the steps before leave idle (module downloads, tests waiting on
# I/O or on one another) rather than adding all its time to the first step
# that needs them. That step's own hack/kube-binaries.sh call waits on the
# script's per-tool lock, then finds the binary built (or builds it itself,
# reporting why, if the background build failed). Not niced: at a lower
# priority the build would starve on a busy machine while a step waits on it.
# Stopped if this script exits first (a go build it started may finish).
prebuild=
if [ -z "${SHORT:-}" ]; then
  prebuild_log=$(mktemp)
  ./hack/kube-binaries.sh client-gen kube-apiserver etcd >/dev/null 2>"$prebuild_log" &
  prebuild=$!
  trap '[ -z "$prebuild" ] || kill "$prebuild" 2>/dev/null || true; rm -f "$prebuild_log"' EXIT
fi

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

# go vet runs inside go test: -vet=all runs every analyzer go vet ./... runs,
# on every package (those without test files too) with its tests, and fails
# the package's test when one reports. A separate go vet ./... would compile
# every dependency a second time, without -race, for its export data (on an
# empty build cache, 386 more compilations in listwatch, about as many as
# the race build's 395); inside go test, vet reads the race build's.
for m in "${modules[@]}"; do
  echo "=== go test -race -vet=all ($m)"
  SECONDS=0
  (cd "$root/$m" && go test -race -vet=all -count=1 -timeout 45m "${short[@]}" ./...)
  echo "--- ${SECONDS}s $m"
done

if [ -n "$prebuild" ]; then
  if ! wait "$prebuild"; then
    # Not a failure of the run: the steps that needed the tools built them.
    echo "=== note: the background build of kube-apiserver, etcd and client-gen failed:" >&2
    cat "$prebuild_log" >&2
  fi
  prebuild= # reaped: the exit trap must not signal a reused process ID
fi

if [ ${#failed_checks[@]} -gt 0 ]; then
  echo "=== FAILED: ${failed_checks[*]} (messages above)" >&2
  exit 1
fi
