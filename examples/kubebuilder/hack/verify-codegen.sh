#!/usr/bin/env bash
# Fails when a generated file of examples/kubebuilder is not what
# hack/update-codegen.sh would write; writes nothing in the work tree.
# informer-gen compares in memory (--verify-only); controller-gen writes
# into a scratch folder that is compared with the checked-in files.
# WALKS_ONLY=1 checks only informer-gen's walks (fast: no controller-gen).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CONTROLLER_GEN=${CONTROLLER_GEN:-go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0}
status=0

if ! INFORMER_GEN_VERIFY=--verify-only go generate ./api/...; then
  echo "examples/kubebuilder: api/v1/zz_generated.compaction.go is out of date; run examples/kubebuilder/hack/update-codegen.sh" >&2
  status=1
fi
[ "${WALKS_ONLY:-0}" = 1 ] && exit "$status"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$CONTROLLER_GEN object:headerFile=hack/boilerplate.go.txt paths=./... output:object:dir="$tmp/object"
$CONTROLLER_GEN rbac:roleName=manager-role crd paths=./... output:crd:dir="$tmp/crd" output:rbac:dir="$tmp/rbac"
for pair in "object/zz_generated.deepcopy.go:api/v1/zz_generated.deepcopy.go" "crd:config/crd/bases" "rbac:config/rbac"; do
  if ! diff -r "$tmp/${pair%%:*}" "${pair#*:}" >&2; then
    echo "examples/kubebuilder: ${pair#*:} is out of date; run examples/kubebuilder/hack/update-codegen.sh" >&2
    status=1
  fi
done
exit "$status"
