//go:build tools

// Package tools pins k8s.io/code-generator in go.mod, so that
// hack/update-codegen.sh finds kube_codegen.sh in the module cache.
package tools

import _ "k8s.io/code-generator"
