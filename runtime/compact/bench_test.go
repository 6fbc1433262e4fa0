package compact

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// BenchmarkCompactPartialObjectMetadata is the reflective fallback of a
// metadata-only object (its ObjectMeta through the hand-written walk):
// one op compacts one fresh object.
func BenchmarkCompactPartialObjectMetadata(b *testing.B) {
	const batch = 1000
	fresh := func(i int) *metav1.PartialObjectMetadata {
		rs := i / 3
		return &metav1.PartialObjectMetadata{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: metav1.ObjectMeta{
				Namespace: fmt.Sprintf("team-%d", rs%20), Name: fmt.Sprintf("app-%d-%d", rs, i), UID: types.UID(fmt.Sprintf("uid-%d", i)),
				ResourceVersion: fmt.Sprint(i), Labels: map[string]string{"app": fmt.Sprintf("app-%d", rs), "team": fmt.Sprintf("team-%d", rs%20)},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: fmt.Sprintf("app-%d", rs), UID: types.UID(fmt.Sprint(rs))}},
			},
		}
	}
	tab := NewTable()
	for done := 0; done < b.N; {
		b.StopTimer()
		objs := make([]*metav1.PartialObjectMetadata, batch)
		for i := range objs {
			objs[i] = fresh(done + i)
		}
		b.StartTimer()
		for _, o := range objs[:min(batch, b.N-done)] {
			tab.Object(o)
			done++
		}
	}
}

// BenchmarkCompactUnstructured is the walk of an unstructured Pod
// (decoded through apimachinery's unstructured JSON scheme): one op
// compacts one fresh object, in full or as an update of its compact
// previous version whose status changed.
func BenchmarkCompactUnstructured(b *testing.B) {
	const batch = 500
	for _, bc := range []struct {
		name   string
		update bool
	}{{"full", false}, {"update", true}} {
		b.Run(bc.name, func(b *testing.B) {
			tab := NewTable()
			update := tab.TransformUpdate(&unstructured.Unstructured{})
			for done := 0; done < b.N; {
				b.StopTimer()
				objs, olds := make([]*unstructured.Unstructured, batch), make([]*unstructured.Unstructured, batch)
				for i := range objs {
					objs[i] = decodeUnstructured(b, unstructuredPod(done+i, "Succeeded"))
					if bc.update {
						olds[i] = decodeUnstructured(b, unstructuredPod(done+i, "Running"))
						update(olds[i], nil)
					}
				}
				b.StartTimer()
				for i, o := range objs[:min(batch, b.N-done)] {
					if bc.update {
						update(o, olds[i])
					} else {
						update(o, nil)
					}
					done++
				}
			}
		})
	}
}
