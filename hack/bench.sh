#!/usr/bin/env bash
# Runs the informer benchmarks side by side with client-go (module bench/)
# and writes docs/benchmarks.md and docs/benchmarks.png. Takes a few
# minutes; not part of CI (hack/test.sh runs only bench/'s smoke tests).
#
# Usage: ./hack/bench.sh                  (5 rounds, 100k objects)
#        ROUNDS=3 ./hack/bench.sh
#        PROFILE=/tmp/prof ./hack/bench.sh (also write CPU profiles of the
#                                           timed phases and heap profiles)
#        GOBENCH=1 ./hack/bench.sh        (also run `go test -bench` once)
#        SKIP_GENERATOR=1 ./hack/bench.sh (skip the generator comparison)
#        GENERATOR_ROUNDS=3 ./hack/bench.sh
#        SCALE=1 ./hack/bench.sh          (also run the real kube-apiserver
#                                           benchmark, e2e/cmd/scalebench)
#        SCALE=1 SKIP_RUNTIME=1 ./hack/bench.sh (only that one, after the
#                                           scale tests)
#        SCALE_PODS=20000 SCALE_ROUNDS=1 SCALE=1 ./hack/bench.sh
#        SCALE_EVENTS=5000 SCALE=1 ./hack/bench.sh (pods changed for the CPU
#                                           per watch event; default 2000)
#        SCALE_VARIANTS=client-go,ours SCALE=1 ./hack/bench.sh (only these
#                                           scalebench variants; default all)
#        SCALE=1 CHAOS_DURATION=5m ./hack/bench.sh (the chaos soak,
#                                           e2e/cmd/chaos, runs 30m by default;
#                                           SKIP_CHAOS=1 skips it)
#        SKIP_RUNTIME=1 ./hack/bench.sh   (only the recovery benchmark)
#        RECOVERY_SEEDS=100 ./hack/bench.sh
#
# The recovery benchmark (conformance/, about 20 s) plays seeded fault
# scripts against client-go's informer and ours and writes the section
# "Recovery after faults" of docs/benchmarks.md (SKIP_RECOVERY=1 skips it).
#
# After the runtime rounds, benchreport compares the generators: upstream
# informer-gen + lister-gen (k8s.io/code-generator, pinned in bench/tools)
# against ours on all of k8s.io/api, downloaded into a scratch module
# through the module proxy (about 20 s per round on 2 cores); each
# generator runs under GNU time (/usr/bin/time) for its peak RSS.
#
# With SCALE=1, the scale tests run first (SKIP_SCALE_TESTS=1 skips them):
# the tests sized with cachetest.Scale(small, large), which run their small
# size in hack/test.sh, run their large one here (every test of each
# package that has one, under the race detector; about 10 minutes on 2
# cores). e2e/cmd/scalebench then starts etcd and kube-apiserver on
# 127.0.0.1 (hack/kube-binaries.sh builds them the first time), creates
# SCALE_PODS pods (default 50000; about 10 minutes on 2 cores) and measures
# the pod informers of client-go and ours in fresh processes, and one
# replica of 2, 3 and 4 sharded ones (ours-shard-N, kube-apiserver with
# ShardedListAndWatch on; every variant runs, as no -variants is passed);
# it writes the section "Real kube-apiserver: memory at scale" of
# docs/benchmarks.md, with its "Scale-out" table, which benchreport keeps
# when it rewrites the file.
set -euo pipefail
cd "$(dirname "$0")/../bench"

# The generator comparison needs GNU time (Debian package "time").
if [ "${SKIP_RUNTIME:-0}" != 1 ] && [ "${SKIP_GENERATOR:-0}" != 1 ] && [ ! -x /usr/bin/time ]; then
  echo "=== installing GNU time (apt-get install time)"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq && $sudo apt-get install -y -qq time
fi

args=(-rounds "${ROUNDS:-5}" -out ../docs/benchmarks.md -chart ../docs/benchmarks.png)
if [ "${SKIP_GENERATOR:-0}" = 1 ]; then
  args+=(-generator=false)
else
  args+=(-generator-rounds "${GENERATOR_ROUNDS:-5}")
fi
if [ -n "${PROFILE:-}" ]; then
  args+=(-profile "$PROFILE")
fi

if [ "${SKIP_RUNTIME:-0}" != 1 ]; then
  echo "=== smoke tests (bench/, small size)"
  go test -count=1 .

  if [ -n "${GOBENCH:-}" ]; then
    echo "=== go test -bench (one iteration each)"
    go test -run '^$' -bench . -benchmem -benchtime 1x .
  fi

  echo "=== benchreport: alternating rounds"
  go run ./cmd/benchreport "${args[@]}"
  echo "=== wrote docs/benchmarks.md and docs/benchmarks.png"
fi

if [ "${SKIP_RECOVERY:-0}" != 1 ]; then
  echo "=== recovery after faults: ${RECOVERY_SEEDS:-40} scripts per fault class (conformance/)"
  (cd ../conformance && go test -count=1 -run '^TestRecoveryAtLeastAsFastAsClientGo$' \
    -recovery-seeds "${RECOVERY_SEEDS:-40}" -recovery-report ../docs/benchmarks.md .)
  echo "=== wrote the recovery section of docs/benchmarks.md"
fi

if [ "${SCALE:-0}" = 1 ] && [ "${SKIP_SCALE_TESTS:-0}" != 1 ]; then
  echo "=== scale tests: the large variants of the tests sized with cachetest.Scale"
  (
    cd ..
    grep -rl --include='*_test.go' 'cachetest\.Scale(' . | xargs -n1 dirname | sort -u | while read -r dir; do
      mod=$dir
      while [ ! -f "$mod/go.mod" ]; do mod=$(dirname "$mod"); done
      pkg=${dir#"$mod"}
      echo "--- $mod: go test -race ./${pkg#/}"
      (cd "$mod" && SCALE=1 go test -race -count=1 -timeout 60m "./${pkg#/}")
    done
  )
fi

if [ "${SCALE:-0}" = 1 ] && [ "${SKIP_CHAOS:-0}" != 1 ]; then
  echo "=== chaos soak: ${CHAOS_DURATION:-30m} of faults on a real control plane (docs/chaos.md)"
  (cd ../e2e && go run ./cmd/chaos -duration "${CHAOS_DURATION:-30m}" -out ../docs/chaos.md)
  echo "=== wrote the figures section of docs/chaos.md"
fi

if [ "${SCALE:-0}" = 1 ] && [ "${SKIP_SCALE:-0}" != 1 ]; then
  echo "=== scalebench: ${SCALE_PODS:-50000} pods on a real kube-apiserver, ${SCALE_ROUNDS:-3} rounds"
  cd ../e2e
  scale_args=(-pods "${SCALE_PODS:-50000}" -rounds "${SCALE_ROUNDS:-3}" -events "${SCALE_EVENTS:-2000}" -out ../docs/benchmarks.md)
  if [ -n "${SCALE_VARIANTS:-}" ]; then
    scale_args+=(-variants "$SCALE_VARIANTS")
  fi
  go run ./cmd/scalebench "${scale_args[@]}"
  echo "=== wrote the scalebench section of docs/benchmarks.md"
fi
