package controllerruntime

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// benchObjects is how many objects BenchmarkCompactionOfUntypedObjects
// decodes per measurement.
const benchObjects = 5000

// podShaped is a Deployment's Pod as controller-runtime's unstructured
// cache holds it (what the JSON decoder gives).
func podShaped(i int) map[string]any {
	return map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{
			"namespace": "ns", "name": fmt.Sprintf("web-%d", i), "uid": fmt.Sprintf("uid-%d", i),
			"labels":          map[string]any{"app": "web", "tier": "frontend", "pod-template-hash": "5d8f7c9b4"},
			"annotations":     map[string]any{"kubectl.kubernetes.io/restartedAt": "2026-01-01T00:00:00Z"},
			"ownerReferences": []any{map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-5d8f7c9b4", "uid": "rs-uid", "controller": true}},
		},
		"spec": map[string]any{
			"containers": []any{map[string]any{
				"name": "web", "image": "registry.example.com/web:1.2.3",
				"env":       []any{map[string]any{"name": "MODE", "value": "production"}},
				"resources": map[string]any{"requests": map[string]any{"cpu": "100m", "memory": "128Mi"}},
			}},
			"nodeName": fmt.Sprintf("node-%d", i%50), "serviceAccountName": "web",
		},
		"status": map[string]any{"phase": "Running", "podIP": fmt.Sprintf("10.0.%d.%d", i/250, i%250)},
	}
}

// decodeUnstructured decodes the i-th Pod as an *unstructured.Unstructured.
func decodeUnstructured(b *testing.B, i int) any {
	data, err := json.Marshal(podShaped(i))
	if err != nil {
		b.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		b.Fatal(err)
	}
	return u
}

// decodeMetadata decodes the i-th Pod as a *metav1.PartialObjectMetadata
// (a metadata-only watch's object).
func decodeMetadata(b *testing.B, i int) any {
	data, err := json.Marshal(podShaped(i))
	if err != nil {
		b.Fatal(err)
	}
	m := &metav1.PartialObjectMetadata{}
	if err := json.Unmarshal(data, m); err != nil {
		b.Fatal(err)
	}
	return m
}

// liveHeap returns the heap that the objects build returns hold after a
// GC.
func liveHeap(build func() []any) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	objs := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(objs)
	return after.HeapAlloc - before.HeapAlloc
}

// BenchmarkCompactionOfUntypedObjects measures what NewInformer's
// compaction (runtime/compact's walk of Unstructured, the reflective walk
// of PartialObjectMetadata) does to the objects controller-runtime caches for unstructured and
// metadata-only watches: live heap per object as decoded and compacted.
func BenchmarkCompactionOfUntypedObjects(b *testing.B) {
	for _, bc := range []struct {
		name   string
		decode func(*testing.B, int) any
	}{{"unstructured", decodeUnstructured}, {"metadata", decodeMetadata}} {
		b.Run(bc.name, func(b *testing.B) {
			decodeAll := func(compacted bool) []any {
				objs := make([]any, benchObjects)
				for i := range objs {
					objs[i] = bc.decode(b, i)
					if compacted {
						compact.Default().Object(objs[i])
					}
				}
				return objs
			}
			var decoded, compacted uint64
			for b.Loop() {
				decoded = liveHeap(func() []any { return decodeAll(false) })
				compacted = liveHeap(func() []any { return decodeAll(true) })
			}
			b.ReportMetric(float64(decoded)/benchObjects, "decoded-B/object")
			b.ReportMetric(float64(compacted)/benchObjects, "compacted-B/object")
		})
	}
}
