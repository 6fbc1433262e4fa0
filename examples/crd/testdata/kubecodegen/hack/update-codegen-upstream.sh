#!/usr/bin/env bash
# The same generation with upstream's informers and listers, by
# `kube::codegen::gen_client --with-watch`: what hack/update-codegen.sh
# replaces. examples/crd's TestGenInformersReplacesGenClientWithWatch runs
# it first, so that update-codegen.sh is tested as the change a
# kube_codegen.sh user makes.

set -o errexit
set -o nounset
set -o pipefail

SCRIPT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CODEGEN_PKG="$(cd "${SCRIPT_ROOT}" && go list -m -f '{{.Dir}}' k8s.io/code-generator)"
THIS_PKG="example.com/kubecodegen"

# shellcheck source=/dev/null
source "${CODEGEN_PKG}/kube_codegen.sh"

kube::codegen::gen_helpers \
    --boilerplate "${SCRIPT_ROOT}/hack/boilerplate.go.txt" \
    "${SCRIPT_ROOT}/pkg/apis"

# As in update-codegen.sh.
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

kube::codegen::gen_client --with-watch "${codegen_args[@]}" "${SCRIPT_ROOT}/pkg/apis"
