// Package compaction tests and benchmarks the compaction walks informer-gen
// generates for k8s.io/api/core/v1 (the shared module internal/corev1gen,
// whose informers register them with runtime/compact): Pods and ConfigMaps
// shaped like a real cluster's (generated in the tests, decoded from JSON)
// are compacted as an informer compacts what it caches, and the tests check
// that compacted objects equal their decoding and share what repeats; the
// benchmarks measure the walk's cost per object (a first list, an update
// against the cached version) and the live heap of a cached object.
//
//	go test -run '^$' -bench . ./compaction
//
// The package has only tests: the walks are the generated code's.
package compaction
