// Package protodecoding measures and proves the protobuf decoders
// informer-gen generates (--proto-decoders) for k8s.io/api/core/v1 (the
// shared module internal/corev1gen registers them with
// runtime/protodecode): Pods shaped like a real cluster's and random
// objects of every core/v1 kind with an informer decode through them to
// exactly what go-to-protobuf's Unmarshal decodes (the tests and
// FuzzPodProtoDecoder, whose seeds run with go test), and
// BenchmarkDecodePodProto sets their cost per Pod beside Unmarshal's,
// with and without the compaction walk.
//
//	go test -run '^$' -bench DecodePodProto -benchmem ./protodecoding
//
// The package has only tests.
package protodecoding
