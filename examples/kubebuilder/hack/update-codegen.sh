#!/usr/bin/env bash
# Regenerates examples/kubebuilder's generated files: what kubebuilder's
# `make generate manifests` makes with controller-gen, then informer-gen's
# compaction walks.
#   controller-gen object        api/v1/zz_generated.deepcopy.go
#   controller-gen rbac crd      config/rbac/role.yaml, config/crd/bases/
#   go generate ./api/...        api/v1/zz_generated.compaction.go
#                                (informer-gen --walks-only, built from this
#                                repository by the go:generate line)
# CONTROLLER_GEN overrides the controller-gen command (default: go run of
# controller-tools at the version below, through the module proxy).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CONTROLLER_GEN=${CONTROLLER_GEN:-go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0}

$CONTROLLER_GEN object:headerFile=hack/boilerplate.go.txt paths=./...
$CONTROLLER_GEN rbac:roleName=manager-role crd paths=./... output:crd:artifacts:config=config/crd/bases
go generate ./api/...
