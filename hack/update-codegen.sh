#!/usr/bin/env bash
# Regenerates everything generated in the repository:
#   1. the golden output of the generator's fixtures
#      (generators/testdata/fixtures/generated), through the golden test's
#      -update flag;
#   1b. the walks-only mode's golden output (generators/testdata/kubebuilder:
#      api/v1/zz_generated.compaction.go and walks/);
#   2. informers, listers and compaction walks of k8s.io/api/core/v1 in
#      internal/corev1gen (a module the benchmarks and e2e share);
#   2a. informers, listers, JSON decoders and compaction walks of the
#      Gateway API's v1 types in e2e/internal/gatewayapigen (scalebench's
#      custom-resource benchmark);
#   2b. the compaction walks of every k8s.io/api group version in
#      controllerruntime/kubeapi (informer-gen --walks-only, go generate
#      ./generate.go);
#   3. the example CRD project (examples/crd): its own hack/update-codegen.sh
#      when it exists (deepcopy-gen, client-gen, then our informer-gen via
#      go generate), otherwise only our informers and listers via
#      go generate;
#   4. the kubebuilder-shaped example (examples/kubebuilder): its own
#      hack/update-codegen.sh (controller-gen's deep copies, CRD and RBAC
#      role, then informer-gen --walks-only via go generate).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

echo "update-codegen: generator fixtures (golden files)" >&2
go test ./generators -run '^TestGoldenOutputMatchesCheckedInFiles$' -count=1 -update >/dev/null
echo "update-codegen: walks-only golden files (generators/testdata/kubebuilder)" >&2
go test ./generators -run '^TestWalksOnlyOutputMatchesCheckedInFiles$' -count=1 -update >/dev/null
echo "update-codegen: sample-controller v0.36.3 (generators/testdata/samplecontroller/generated)" >&2
go test ./generators -run '^TestSampleControllerOutputMatchesCheckedInFiles$' -count=1 -update >/dev/null

if [ -x examples/crd/hack/update-codegen.sh ]; then
  echo "update-codegen: examples/crd (examples/crd/hack/update-codegen.sh)" >&2
  examples/crd/hack/update-codegen.sh
elif [ -f examples/crd/generate.go ]; then
  echo "update-codegen: examples/crd (go generate ./generate.go)" >&2
  (cd examples/crd && go generate ./generate.go)
fi
echo "update-codegen: internal/corev1gen (k8s.io/api/core/v1, go generate ./generate.go)" >&2
(cd internal/corev1gen && go generate ./generate.go)
echo "update-codegen: e2e/internal/gatewayapigen (sigs.k8s.io/gateway-api/apis/v1, go generate ./generate.go)" >&2
(cd e2e/internal/gatewayapigen && go generate ./generate.go)
echo "update-codegen: controllerruntime/kubeapi (k8s.io/api walks, go generate ./generate.go)" >&2
(cd controllerruntime/kubeapi && go generate ./generate.go)
echo "update-codegen: examples/kubebuilder (examples/kubebuilder/hack/update-codegen.sh)" >&2
examples/kubebuilder/hack/update-codegen.sh
echo "update-codegen: done" >&2
