package protodecoding

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
	"github.com/informer-gen/informer-gen/runtime/protodecode/protodecodetest"
)

// keyOf is an object's cache key (namespace/name).
func keyOf[T any](p *T) string {
	m := any(p).(metav1.Object)
	return m.GetNamespace() + "/" + m.GetName()
}

// podVersions are the real-cluster-shaped Pods as a watch brings them,
// marshalled to protobuf: each added, then versions rounds of updates of
// every one (a new resourceVersion and condition time; every third
// relabelled, every fifth's first container's image changed).
func podVersions(tb testing.TB, n, versions int) [][]byte {
	tb.Helper()
	docs, err := dataset.PodJSON(n)
	if err != nil {
		tb.Fatal(err)
	}
	var out [][]byte
	for v := 0; v <= versions; v++ {
		for i, doc := range docs {
			var p corev1.Pod
			if err := json.Unmarshal(doc, &p); err != nil {
				tb.Fatal(err)
			}
			if v > 0 {
				updated(&p, i, v)
			}
			b, err := p.Marshal()
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}

// updated makes p, the i-th Pod, its version v.
func updated(p *corev1.Pod, i, v int) {
	p.ResourceVersion = fmt.Sprint(v, p.ResourceVersion)
	for c := range p.Status.Conditions {
		p.Status.Conditions[c].LastTransitionTime = metav1.NewTime(p.Status.Conditions[c].LastTransitionTime.Add(time.Duration(v) * time.Minute))
	}
	if i%3 == 0 {
		p.Labels = map[string]string{"rollout": fmt.Sprint("canary-", v)}
	}
	if i%5 == 0 && len(p.Spec.Containers) > 0 {
		p.Spec.Containers[0].Image += fmt.Sprint("-patch", v)
	}
}

// Real-cluster-shaped Pods decoded into the compact object equal
// Unmarshal's and share what Unmarshal then the compaction walk shares,
// on their first sighting and on their updates.
func TestDecodingIntoTheCompactObjectSharesWhatTheWalkShares(t *testing.T) {
	fn := protodecodetest.Registered[corev1.Pod](t)
	for _, c := range []struct {
		name        string
		n, versions int
	}{
		{"added", 120, 0},
		{"updated", 60, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			if shared := protodecodetest.SharesAsTheWalk(t, fn, podVersions(t, c.n, c.versions), keyOf[corev1.Pod]); shared == 0 {
				t.Fatal("no part shared: the Pods test nothing")
			}
		})
	}
}

// Random objects of every core/v1 kind with an informer decode into the
// compact object as Unmarshal then the walk leave them: each added, then
// again unchanged (an update whose every part is the old version's), then
// replaced by another random object under the same key (an update whose
// parts changed).
func TestDecodingRandomObjectsIntoTheCompactObjectSharesWhatTheWalkShares(t *testing.T) {
	checks := map[string]func(t *testing.T){
		"Pod":       func(t *testing.T) { randomShares[corev1.Pod](t) },
		"Node":      func(t *testing.T) { randomShares[corev1.Node](t) },
		"Service":   func(t *testing.T) { randomShares[corev1.Service](t) },
		"ConfigMap": func(t *testing.T) { randomShares[corev1.ConfigMap](t) },
		"Secret":    func(t *testing.T) { randomShares[corev1.Secret](t) },
		//lint:ignore SA1019 core/v1 Endpoints still has an informer
		"Endpoints":             func(t *testing.T) { randomShares[corev1.Endpoints](t) },
		"Event":                 func(t *testing.T) { randomShares[corev1.Event](t) },
		"Namespace":             func(t *testing.T) { randomShares[corev1.Namespace](t) },
		"PersistentVolume":      func(t *testing.T) { randomShares[corev1.PersistentVolume](t) },
		"PersistentVolumeClaim": func(t *testing.T) { randomShares[corev1.PersistentVolumeClaim](t) },
		"ReplicationController": func(t *testing.T) { randomShares[corev1.ReplicationController](t) },
		"ServiceAccount":        func(t *testing.T) { randomShares[corev1.ServiceAccount](t) },
		"LimitRange":            func(t *testing.T) { randomShares[corev1.LimitRange](t) },
		"ResourceQuota":         func(t *testing.T) { randomShares[corev1.ResourceQuota](t) },
		"PodTemplate":           func(t *testing.T) { randomShares[corev1.PodTemplate](t) },
		"ComponentStatus":       func(t *testing.T) { randomShares[corev1.ComponentStatus](t) },
	}
	for name, check := range checks {
		t.Run(name, check)
	}
}

// randomShares runs SharesAsTheWalk on n random objects of T, the same
// again, then n others under the first ones' keys.
func randomShares[T any, PT protodecodetest.Message[T]](t *testing.T) {
	t.Helper()
	const n = 30
	var first, again, replaced [][]byte
	for seed := range n {
		v, w := new(T), new(T)
		protodecodetest.Filler(int64(seed)).Fill(v)
		protodecodetest.Filler(int64(seed + n)).Fill(w)
		mv, mw := any(v).(metav1.Object), any(w).(metav1.Object)
		mw.SetNamespace(mv.GetNamespace())
		mw.SetName(mv.GetName())
		a, err := PT(v).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		b, err := PT(w).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		first, again, replaced = append(first, a), append(again, a), append(replaced, b)
	}
	protodecodetest.SharesAsTheWalk[T, PT](t, protodecodetest.Registered[T](t), append(append(first, again...), replaced...), keyOf[T])
}
