//go:build tools

// Package tools pins the build-time tools of informer-gen: a real
// kube-apiserver and etcd for the end-to-end tests, and the upstream code
// generators (deepcopy-gen, client-gen) for the example CRD project. The
// blank imports keep them in go.mod; hack/kube-binaries.sh builds them.
package tools

import (
	_ "go.etcd.io/etcd/server/v3"
	_ "k8s.io/code-generator/cmd/client-gen"
	_ "k8s.io/code-generator/cmd/deepcopy-gen"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
)
