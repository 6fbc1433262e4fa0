#!/usr/bin/env bash
# Regenerates deepcopy functions, the clientset, informers and listers of
# this module's API: deepcopy and the clientset by code-generator's
# kube_codegen.sh, informers and listers by informer-gen's informer_gen.sh.
# It is the example of docs/kube-codegen.md with gen_client's optional flags
# set, run by examples/crd's TestGenInformersReplacesGenClientWithWatch.

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

# The arguments gen_client and gen_informers share. The folder names, the
# plural exception, the lint rule and --one-input-api are not needed here
# (the defaults do): they show that each is taken the way gen_client takes it.
codegen_args=(
    --output-dir "${SCRIPT_ROOT}/pkg/generated"
    --output-pkg "${THIS_PKG}/pkg/generated"
    --boilerplate "${SCRIPT_ROOT}/hack/boilerplate.go.txt"
    --clientset-name client
    --versioned-name versionedclient
    --informers-name informer
    --listers-name lister
    --plural-exceptions Gadget:Gadgetries
    --lint-rules known-tags-only
    --one-input-api stable
)

kube::codegen::gen_client "${codegen_args[@]}" "${SCRIPT_ROOT}/pkg/apis"

informer_gen::gen_informers "${codegen_args[@]}" "${SCRIPT_ROOT}/pkg/apis"
