package protodecoding

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
	_ "github.com/informer-gen/informer-gen/internal/corev1gen/informers/externalversions/core/v1" // registers the generated decoders
	"github.com/informer-gen/informer-gen/runtime/protodecode/protodecodetest"
)

// podProto returns dataset.PodJSON(n)'s Pods marshalled to protobuf.
func podProto(tb testing.TB, n int) [][]byte {
	tb.Helper()
	pods, err := dataset.PodJSON(n)
	if err != nil {
		tb.Fatal(err)
	}
	out := make([][]byte, len(pods))
	for i, b := range pods {
		var p corev1.Pod
		if err := json.Unmarshal(b, &p); err != nil {
			tb.Fatal(err)
		}
		if out[i], err = p.Marshal(); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

func TestGeneratedProtoDecodersAgreeWithUnmarshalOnRealShapedPods(t *testing.T) {
	fn := protodecodetest.Registered[corev1.Pod](t)
	for i, b := range podProto(t, 200) {
		if !protodecodetest.Same(t, fn, b) {
			t.Fatalf("the fast path rejected real-shaped Pod %d", i)
		}
	}
}

// TestGeneratedProtoDecodersAgreeWithUnmarshalOnRandomObjects covers
// every core/v1 kind with an informer, and through them every core/v1
// type they hold.
func TestGeneratedProtoDecodersAgreeWithUnmarshalOnRandomObjects(t *testing.T) {
	const n = 40
	checks := map[string]func(t *testing.T){
		"Pod":       func(t *testing.T) { protodecodetest.Random(t, protodecodetest.Registered[corev1.Pod](t), n) },
		"Node":      func(t *testing.T) { protodecodetest.Random(t, protodecodetest.Registered[corev1.Node](t), n) },
		"Service":   func(t *testing.T) { protodecodetest.Random(t, protodecodetest.Registered[corev1.Service](t), n) },
		"ConfigMap": func(t *testing.T) { protodecodetest.Random(t, protodecodetest.Registered[corev1.ConfigMap](t), n) },
		"Secret":    func(t *testing.T) { protodecodetest.Random(t, protodecodetest.Registered[corev1.Secret](t), n) },
		//lint:ignore SA1019 core/v1 Endpoints still has an informer
		"Endpoints": func(t *testing.T) { protodecodetest.Random(t, protodecodetest.Registered[corev1.Endpoints](t), n) },
		"Event":     func(t *testing.T) { protodecodetest.Random(t, protodecodetest.Registered[corev1.Event](t), n) },
		"Namespace": func(t *testing.T) { protodecodetest.Random(t, protodecodetest.Registered[corev1.Namespace](t), n) },
		"PersistentVolume": func(t *testing.T) {
			protodecodetest.Random(t, protodecodetest.Registered[corev1.PersistentVolume](t), n)
		},
		"PersistentVolumeClaim": func(t *testing.T) {
			protodecodetest.Random(t, protodecodetest.Registered[corev1.PersistentVolumeClaim](t), n)
		},
		"ReplicationController": func(t *testing.T) {
			protodecodetest.Random(t, protodecodetest.Registered[corev1.ReplicationController](t), n)
		},
		"ServiceAccount": func(t *testing.T) { protodecodetest.Random(t, protodecodetest.Registered[corev1.ServiceAccount](t), n) },
		"LimitRange":     func(t *testing.T) { protodecodetest.Random(t, protodecodetest.Registered[corev1.LimitRange](t), n) },
		"ResourceQuota":  func(t *testing.T) { protodecodetest.Random(t, protodecodetest.Registered[corev1.ResourceQuota](t), n) },
		"PodTemplate":    func(t *testing.T) { protodecodetest.Random(t, protodecodetest.Registered[corev1.PodTemplate](t), n) },
		"ComponentStatus": func(t *testing.T) {
			protodecodetest.Random(t, protodecodetest.Registered[corev1.ComponentStatus](t), n)
		},
	}
	for name, check := range checks {
		t.Run(name, check)
	}
}

// FuzzPodProtoDecoder feeds the generated Pod decoder and Pod.Unmarshal
// the same bytes: the same accept or reject, the same Pod or error. Its
// seeds (random Pods, real-shaped ones, malformed frames, and
// testdata/fuzz/FuzzPodProtoDecoder) run with every go test.
func FuzzPodProtoDecoder(f *testing.F) {
	seeds := append(protodecodetest.Seeds[corev1.Pod](5), podProto(f, 3)...)
	protodecodetest.Fuzz(f, protodecodetest.Registered[corev1.Pod](f), seeds)
}

// TestGeneratedProtoDecodersAgreeWithUnmarshalOnMutatedPods mutates
// real-shaped Pods' bytes (a byte changed, inserted or removed, a tail
// cut), deterministically, and requires the same result from both
// decoders on each: the fuzz target's check, on inputs it would take
// long to reach from the seeds.
func TestGeneratedProtoDecodersAgreeWithUnmarshalOnMutatedPods(t *testing.T) {
	fn := protodecodetest.Registered[corev1.Pod](t)
	pods := podProto(t, 8)
	r := rand.New(rand.NewPCG(3, 4))
	const n = 3000
	accepted := 0
	for i := range n {
		if protodecodetest.Same(t, fn, mutate(r, pods[i%len(pods)])) {
			accepted++
		}
	}
	// A mutation in a string's bytes leaves a valid Pod: the fast path
	// must take those, not fall back on everything.
	if accepted < n/10 {
		t.Fatalf("the fast path accepted %d of %d mutated Pods, want at least %d", accepted, n, n/10)
	}
}

// mutate returns a copy of b with one random mutation.
func mutate(r *rand.Rand, b []byte) []byte {
	out := append([]byte(nil), b...)
	i := r.IntN(len(out))
	switch r.IntN(5) {
	case 0:
		out[i] = byte(r.IntN(256))
	case 1:
		out[i] ^= 1 << r.IntN(8)
	case 2:
		out = append(out[:i], append([]byte{byte(r.IntN(256))}, out[i:]...)...)
	case 3:
		out = append(out[:i], out[i+1:]...)
	default:
		out = out[:i]
	}
	return out
}
