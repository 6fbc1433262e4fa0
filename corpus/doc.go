// Package corpus tests informer-gen on API packages it was not written
// against: real third-party projects, pinned in this module's go.mod
// (cert-manager, external-snapshotter, Gateway API, kube-aggregator,
// apiextensions-apiserver).
//
// For each project the test runs the informer-gen command over the
// project's API packages with the project's own client-gen clientset,
// builds and vets the output, and compares the informer and lister types,
// their plurals and the group-version-resources of the generic informer's
// ForResource with the informers the project generated with upstream
// k8s.io/code-generator and ships in the same module. The package holds no
// code: everything is in corpus_test.go.
//
// Run it with `go test ./...` in this folder; it downloads the pinned
// modules itself, takes a few minutes on a cold build cache, and is skipped
// with -short.
package corpus
