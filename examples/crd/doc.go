// Package crd is the example CRD project of informer-gen: the
// stable.example.com/v1 API (apis/stable/v1), its CustomResourceDefinitions
// (config/crd) and the code generated for it under pkg/generated:
//
//   - clientset/versioned: typed clientset, by upstream client-gen;
//   - informers, listers: typed informers and listers, by informer-gen.
//
// hack/update-codegen.sh regenerates everything; hack/verify-codegen.sh
// fails when the checked-in code is stale.
//
// The informer-gen //go:generate directive lives in generate.go; `go
// generate ./...`, run last by hack/update-codegen.sh (after deepcopy-gen
// and client-gen, whose output it builds on), writes pkg/generated/informers
// and pkg/generated/listers from the module root.
package crd
