#!/usr/bin/env bash
# Runs every test of the project: go vet (every analyzer) and the tests of
# the main module and each nested module (examples, end-to-end,
# conformance, benchmarks, API compatibility with client-go, the Kubernetes
# version matrix, third-party corpus, the release step), all under the race
# detector, one module after the other; meanwhile, in the background at the
# lowest priority, the modules whose tests build scratch modules with the
# go command (a second lane, started once the root module passed) and the
# checks of the tree (hack/verify-codegen.sh: generated code is up to date;
# hack/verify-hygiene.sh: gofmt, go mod tidy, staticcheck), whose output is
# printed after the tests.
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
for m in examples/crd internal/corev1gen conformance listwatch dynamic shard controllerruntime examples/kubebuilder e2e controllerruntime/crtest; do
  [ -f "$m/go.mod" ] && modules+=("$m")
done

# The second lane: modules whose tests are go commands in scratch modules
# (apicompat: the generator on all of k8s.io/api and ported client-go
# code; versions: the Kubernetes version matrix; corpus: third-party API
# modules; hack/release: a released consumer) and the benchmarks' smoke
# tests. No clock in what they assert (at most a bound of a minute or half
# of one on a wait, no ratio of times) and no kube-apiserver: they run one
# after the other in the background at the lowest priority (as the checks,
# below), from the moment the root module's tests passed (their scratch
# modules build the generator and the runtime) to the end, taking the
# cycles the foreground's tests leave idle (round trips to kube-apiserver
# and etcd, envtest, the chaos soak's fault windows, the conformance
# suite's timed recoveries), meant not to slow them (warm runs on 2 cores,
# 2026-11-28: e2e, conformance and crtest kept their times; the
# conformance recovery ratio failed once with a second test command's
# background beside it, a draw of back-off jitter over 6 scripts per
# class, since 12). On a warm build cache, where the foreground's tests
# wait more than they compute, that is most of the lane's time. Their
# output goes to $lane_log, printed after the foreground's; a failure
# fails the run at the end, naming the module.
lane=()
for m in apicompat versions corpus bench hack/release; do
  [ -f "$m/go.mod" ] && lane+=("$m")
done

short=()
[ -n "${SHORT:-}" ] && short=(-short)

# The checks (hack/verify-codegen.sh: generated code; hack/verify-hygiene.sh:
# gofmt, go mod tidy, staticcheck) run in the background at the lowest
# priority while the modules' tests run, rather than before them: on
# 2 cores the tests leave a core idle much of the time (round trips to
# kube-apiserver and etcd, envtest, the chaos soak's faults, go commands
# in scratch modules), and niced, the checks take those cycles rather
# than the tests'. staticcheck checks each module after its tests (the
# loop below writes the module to $ready when they are done): staticcheck
# has the go command compile with -race in GOFLAGS, the very compilations
# go test -race made, so it finds them in the build cache. The checks'
# output goes to $checks_log, printed after the tests; a failed check does
# not hide the test results: it fails the run at the end. The checks run
# in a session of their own (setsid), so that the exit trap stops the go
# commands they started too.
checks_dir=$(mktemp -d)
checks_log="$checks_dir/log"
lane_log="$checks_dir/lane"
ready="$checks_dir/ready"
checks=
lane_pid=
prebuild=
prebuild_log=
# testing is the module whose tests run, until they pass: when they fail,
# the run stops and cleanup names it last, below the checks' output.
testing=
cleanup() {
  if [ -n "$checks" ]; then
    echo "=== stopped the checks still running; their output so far:" >&2
    cat "$checks_log" >&2 || true
    kill -- -"$checks" 2>/dev/null || kill "$checks" 2>/dev/null || true
  fi
  if [ -n "$lane_pid" ]; then
    echo "=== the second lane's output so far (stopped if still running):" >&2
    cat "$lane_log" >&2 || true
    kill -- -"$lane_pid" 2>/dev/null || kill "$lane_pid" 2>/dev/null || true
  fi
  [ -z "$testing" ] || echo "=== FAILED: go test -race -vet=all ($testing) (its output is above the checks' output)" >&2
  [ -z "$prebuild" ] || kill "$prebuild" 2>/dev/null || true
  rm -rf "$checks_dir" ${prebuild_log:+"$prebuild_log"}
}
trap cleanup EXIT

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
if [ -z "${SHORT:-}" ]; then
  prebuild_log=$(mktemp)
  ./hack/kube-binaries.sh client-gen kube-apiserver etcd >/dev/null 2>"$prebuild_log" &
  prebuild=$!
fi

mkfifo "$ready"
session=(setsid -w) # without setsid (macOS), the exit trap stops the checks' shell only
command -v setsid >/dev/null 2>&1 || session=()
# lowest is the first line of the background shells' scripts (the checks,
# the second lane). Linux's default autogroup scheduling shares the CPU
# fairly between sessions and applies nice only within one: the checks, in
# a session of their own (setsid, above), would get as much CPU as the
# tests whatever their nice value.
# The shell that leads its session therefore gives its session's autogroup
# the lowest priority too (/proc/PID/autogroup; raising it needs no
# privilege); elsewhere (no autogroup, no /proc) it does nothing.
lowest='[ "$(cut -d" " -f6 /proc/$$/stat 2>/dev/null)" = "$$" ] && { echo 19 >/proc/$$/autogroup; } 2>/dev/null || true'
# Opened read-write, the FIFO never blocks its opener, and a write to it
# never fails for want of a reader; "END" marks the end of the list.
${session[@]+"${session[@]}"} nice -n 19 bash -c "$lowest"'
  exec 9<>"$1"
  status=0
  for check in hack/verify-codegen.sh hack/verify-hygiene.sh; do
    echo "=== $check"
    SECONDS=0
    if [ "$check" = hack/verify-hygiene.sh ]; then
      "./$check" --ready-on-stdin <&9 9<&- || { status=1; echo "=== FAILED: $check"; }
    else
      "./$check" </dev/null 9<&- || { status=1; echo "=== FAILED: $check"; }
    fi
    echo "--- ${SECONDS}s $check"
  done
  exit "$status"
' checks "$ready" >"$checks_log" 2>&1 &
checks=$!
exec 8<>"$ready"

# cpu_of prints the CPU seconds (user + system) in the output of times
# in file $1: its second line, the children the shell that ran it waited
# for. Each step below runs in a subshell that writes its times when its
# go test ends, so that the figure is the step's own: the main shell's
# counts would also take in the background build whenever the shell
# reaps it, in the middle of some step. Each step's line reports its
# wall time and its CPU time, which on 2 cores is what sets the run's
# length.
cpu_of() {
  awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"
}

# start_lane runs the second lane's modules in the background, at the
# lowest priority, in a session of its own (as the checks), stopping at
# the first that fails. Each module goes to the checks' list (fd 8) when
# its tests passed. Its CPU is the background's, in the last line.
start_lane() {
  [ "${#lane[@]}" -gt 0 ] || return 0
  ${session[@]+"${session[@]}"} nice -n 19 bash -c "$lowest"'
    root=$1; shift
    for m in "$@"; do
      echo "=== go test -race -vet=all ($m) [second lane]"
      SECONDS=0
      (cd "$root/$m" && go test -race -vet=all -count=1 -timeout 45m ${SHORT:+-short} ./... 8>&-) ||
        { echo "=== FAILED: go test -race -vet=all ($m) [second lane] (its output is above)"; exit 1; }
      echo "--- ${SECONDS}s $m [second lane]"
      echo "$m" >&8
    done
  ' lane "$root" "${lane[@]}" >"$lane_log" 2>&1 &
  lane_pid=$!
}

# go vet runs inside go test: -vet=all runs every analyzer go vet ./... runs,
# on every package (those without test files too) with its tests, and fails
# the package's test when one reports. A separate go vet ./... would compile
# every dependency a second time, without -race, for its export data (on an
# empty build cache, 386 more compilations in listwatch, about as many as
# the race build's 395); inside go test, vet reads the race build's.
steps_cpu=0
for m in "${modules[@]}"; do
  echo "=== go test -race -vet=all ($m)"
  SECONDS=0
  testing=$m
  (
    cd "$root/$m"
    status=0
    go test -race -vet=all -count=1 -timeout 45m "${short[@]}" ./... 8>&- || status=$?
    times >"$checks_dir/times"
    exit "$status"
  )
  testing=
  cpu=$(cpu_of "$checks_dir/times")
  steps_cpu=$((steps_cpu + cpu))
  echo "--- ${SECONDS}s $m (CPU ${cpu}s)"
  echo "$m" >&8
  [ "$m" != . ] || start_lane
done

echo "=== waiting for the second lane (${lane[*]})"
SECONDS=0
lane_status=0
[ -z "$lane_pid" ] || wait "$lane_pid" || lane_status=$?
lane_pid=
cat "$lane_log"
echo "--- ${SECONDS}s waiting for the second lane"
echo END >&8

echo "=== waiting for the checks (hack/verify-codegen.sh, hack/verify-hygiene.sh)"
SECONDS=0
checks_status=0
wait "$checks" || checks_status=$?
checks=
cat "$checks_log"
echo "--- ${SECONDS}s waiting for the checks"

if [ -n "$prebuild" ]; then
  if ! wait "$prebuild"; then
    # Not a failure of the run: the steps that needed the tools built them.
    echo "=== note: the background build of kube-apiserver, etcd and client-gen failed:" >&2
    cat "$prebuild_log" >&2
  fi
  prebuild= # reaped: the exit trap must not signal a reused process ID
fi
times >"$checks_dir/times"
echo "--- CPU: the steps ${steps_cpu}s; the second lane, the background checks and build $(($(cpu_of "$checks_dir/times") - steps_cpu))s"
exec 8>&-

[ "$lane_status" = 0 ] || echo "=== FAILED: $(grep '^=== FAILED: ' "$lane_log" | cut -d' ' -f3-)" >&2
[ "$checks_status" = 0 ] || echo "=== FAILED: $(grep '^=== FAILED: ' "$checks_log" | cut -d' ' -f3 | tr '\n' ' ')(messages above)" >&2
[ "$lane_status" = 0 ] && [ "$checks_status" = 0 ] || exit 1
