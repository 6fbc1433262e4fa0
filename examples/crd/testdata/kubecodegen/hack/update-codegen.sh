#!/usr/bin/env bash
# Regenerates deepcopy functions, the clientset, informers and listers of
# this module's API: deepcopy and the clientset by code-generator's
# kube_codegen.sh, informers and listers by informer-gen's informer_gen.sh.
# (The example of docs/kube-codegen.md, run by examples/crd's
# TestKubeCodegen.)

set -o errexit
set -o nounset
set -o pipefail

SCRIPT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CODEGEN_PKG="$(cd "${SCRIPT_ROOT}" && go list -m -f '{{.Dir}}' k8s.io/code-generator)"
INFORMER_GEN_PKG="$(cd "${SCRIPT_ROOT}" && go list -m -f '{{.Dir}}' github.com/informer-gen/informer-gen)"
THIS_PKG="example.com/kubecodegen"

# shellcheck source=/dev/null
source "${CODEGEN_PKG}/kube_codegen.sh"
# shellcheck source=/dev/null
source "${INFORMER_GEN_PKG}/informer_gen.sh"

kube::codegen::gen_helpers \
    --boilerplate "${SCRIPT_ROOT}/hack/boilerplate.go.txt" \
    "${SCRIPT_ROOT}/pkg/apis"

kube::codegen::gen_client \
    --output-dir "${SCRIPT_ROOT}/pkg/generated" \
    --output-pkg "${THIS_PKG}/pkg/generated" \
    --boilerplate "${SCRIPT_ROOT}/hack/boilerplate.go.txt" \
    "${SCRIPT_ROOT}/pkg/apis"

informer_gen::gen_informers \
    --output-dir "${SCRIPT_ROOT}/pkg/generated" \
    --output-pkg "${THIS_PKG}/pkg/generated" \
    --boilerplate "${SCRIPT_ROOT}/hack/boilerplate.go.txt" \
    "${SCRIPT_ROOT}/pkg/apis"
