// Package decoding measures and proves the JSON decoders informer-gen
// generates (--json-decoders) for k8s.io/api/core/v1 (the shared module
// internal/corev1gen registers them with runtime/jsondecode): Pods shaped
// like a real cluster's and random objects of every core/v1 kind decode
// through them to exactly what sigs.k8s.io/json decodes (the tests and
// FuzzPodDecoder), and BenchmarkDecodePod sets their CPU time per Pod
// beside sigs.k8s.io/json's, with and without the compaction walk, and
// beside a bare scan with the tokenizers considered (docs/decoders.md).
//
//	go test -run '^$' -bench DecodePod -benchmem ./decoding
//
// The package has only tests.
package decoding
