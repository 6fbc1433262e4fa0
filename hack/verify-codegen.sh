#!/usr/bin/env bash
# Fails when any generated file of the repository is not what
# hack/update-codegen.sh would produce. Writes nothing in the work tree.
# Fast (a few seconds with a warm build cache): informer-gen loads syntax
# only and compares in memory.
#
#   1. generator fixtures: the golden test compares a fresh in-memory run
#      with generators/testdata/fixtures/generated;
#   1b. the walks-only mode's golden output (generators/testdata/kubebuilder);
#   2. internal/corev1gen (k8s.io/api core/v1, shared by bench and e2e)
#      with informer-gen --verify-only;
#   2a. e2e/internal/gatewayapigen (the Gateway API's v1 types, for
#      scalebench's custom-resource benchmark) with informer-gen --verify-only;
#   2b. controllerruntime/kubeapi (the walks of every k8s.io/api group
#      version) with informer-gen --walks-only --verify-only;
#   3. examples/crd: our informers and listers with informer-gen
#      --verify-only (through the module's go:generate line); then, when
#      VERIFY_ALL=1, the example's own hack/verify-codegen.sh, which also
#      reruns the upstream deepcopy-gen and client-gen in a scratch copy;
#   4. examples/kubebuilder: its own hack/verify-codegen.sh (informer-gen's
#      walks with --verify-only; controller-gen's deep copies, CRD and RBAC
#      role generated into a scratch folder and compared; controller-gen is
#      built by `go run` once, then cached).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
status=0

# The three golden tests of ./generators (fixtures, walks-only files,
# sample-controller output) run in one go test; only when that fails does
# each run alone, to say which files are out of date.
golden=(
  "TestGoldenOutputMatchesCheckedInFiles:fixture golden files"
  "TestWalksOnlyOutputMatchesCheckedInFiles:walks-only golden files"
  "TestSampleControllerOutputMatchesCheckedInFiles:sample-controller output"
)
echo "verify-codegen: generator fixtures, walks-only golden files (generators/testdata/kubebuilder), sample-controller v0.36.3 (generators/testdata/samplecontroller/generated)" >&2
names=$(printf '%s|' "${golden[@]%%:*}")
if ! go test ./generators -run "^(${names%|})\$" -count=1 >/dev/null; then
  for g in "${golden[@]}"; do
    if ! go test ./generators -run "^${g%%:*}\$" -count=1 >/dev/null; then
      go test ./generators -run "^${g%%:*}\$" -count=1 2>&1 | grep -v '^\(FAIL\|ok\)' >&2 || true
      echo "verify-codegen: ${g#*:}: out of date; run hack/update-codegen.sh" >&2
      status=1
    fi
  done
fi

if [ -f examples/crd/generate.go ]; then
  echo "verify-codegen: examples/crd informers and listers" >&2
  if ! (cd examples/crd && INFORMER_GEN_VERIFY=--verify-only go generate ./generate.go); then
    echo "verify-codegen: examples/crd is out of date; run hack/update-codegen.sh" >&2
    status=1
  fi
fi
echo "verify-codegen: internal/corev1gen" >&2
if ! (cd internal/corev1gen && INFORMER_GEN_VERIFY=--verify-only go generate ./generate.go); then
  echo "verify-codegen: internal/corev1gen is out of date; run hack/update-codegen.sh" >&2
  status=1
fi
echo "verify-codegen: e2e/internal/gatewayapigen" >&2
if ! (cd e2e/internal/gatewayapigen && INFORMER_GEN_VERIFY=--verify-only go generate ./generate.go); then
  echo "verify-codegen: e2e/internal/gatewayapigen is out of date; run hack/update-codegen.sh" >&2
  status=1
fi
echo "verify-codegen: controllerruntime/kubeapi" >&2
if ! (cd controllerruntime/kubeapi && INFORMER_GEN_VERIFY=--verify-only go generate ./generate.go); then
  echo "verify-codegen: controllerruntime/kubeapi is out of date; run hack/update-codegen.sh" >&2
  status=1
fi
echo "verify-codegen: examples/kubebuilder (examples/kubebuilder/hack/verify-codegen.sh)" >&2
if ! examples/kubebuilder/hack/verify-codegen.sh; then
  echo "verify-codegen: examples/kubebuilder is out of date; run hack/update-codegen.sh" >&2
  status=1
fi
if [ "${VERIFY_ALL:-0}" = 1 ] && [ -x examples/crd/hack/verify-codegen.sh ]; then
  echo "verify-codegen: examples/crd (examples/crd/hack/verify-codegen.sh)" >&2
  examples/crd/hack/verify-codegen.sh || status=1
fi

[ "$status" = 0 ] && echo "verify-codegen: everything generated is up to date" >&2
exit "$status"
