//go:build tools

// Package tools pins the upstream generators the generator benchmark
// compares informer-gen with: k8s.io/code-generator v0.37.2's informer-gen
// and lister-gen. The blank imports keep them in go.mod;
// bench/cmd/benchreport builds them from this module
// (go build k8s.io/code-generator/cmd/informer-gen ...).
package tools

import (
	_ "k8s.io/code-generator/cmd/informer-gen"
	_ "k8s.io/code-generator/cmd/lister-gen"
)
