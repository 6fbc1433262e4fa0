package cache

import (
	"context"
	"fmt"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// bookmarkStore is a recordingStore that is also a ReflectorBookmarkStore
// and, when transform is set, a TransformingStore.
type bookmarkStore struct {
	*recordingStore
	transform TransformFunc
}

func (s *bookmarkStore) Bookmark(rv string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record("bookmark", nil, rv, 0)
	return nil
}

func (s *bookmarkStore) Transformer() TransformFunc { return s.transform }

// runReflector runs r until the test ends.
func runReflector(t *testing.T, srv *cachetest.Server, r *Reflector) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.RunWithContext(ctx) }()
	t.Cleanup(func() { cancel(); <-done; srv.Wait() })
}

// A custom store under a Reflector gets client-go's calls: Add, Update and
// Delete per event, Bookmark (ReflectorBookmarkStore) per bookmark, and
// UpdateResourceVersion (ResourceVersionUpdater) after each of them.
func TestReflectorCallsACustomStoreLikeClientGo(t *testing.T) {
	srv := newTestServer(t, "a")
	store := &bookmarkStore{recordingStore: newRecordingStore()}
	runReflector(t, srv, NewReflector(srv, &metav1.PartialObjectMetadata{}, store, 0))
	cachetest.Eventually(t, "the list", func() bool { ops, _ := store.snapshot(); return len(ops) > 0 })
	listed, _ := store.snapshot()
	if _, err := srv.Add(modelObject("b")); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Update(modelObject("b")); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Delete("ns", "b"); err != nil {
		t.Fatal(err)
	}
	srv.Bookmark()
	cachetest.Eventually(t, "the bookmark", func() bool {
		ops, _ := store.snapshot()
		return slices.ContainsFunc(ops, func(op storeOp) bool { return op.kind == "bookmark" })
	})
	ops, _ := store.snapshot()
	var got []string
	for _, op := range ops[len(listed):] {
		got = append(got, op.kind+" "+op.key+" "+op.rv)
	}
	want := []string{"add ns/b 3", "rv  3", "update ns/b 4", "rv  4", "delete ns/b 5", "rv  5", "bookmark  5", "rv  5"}
	if listed[0].kind != "replace" || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("store calls after %v:\n%q\nwant\n%q", listed, got, want)
	}
}

// A TransformingStore's transform applies to the objects of a watch list
// before the store's Replace receives them, as in client-go.
func TestReflectorTransformsAWatchListForATransformingStore(t *testing.T) {
	srv := newTestServer(t, "a", "b")
	store := &bookmarkStore{recordingStore: newRecordingStore(), transform: func(obj any) (any, error) {
		m := obj.(*metav1.PartialObjectMetadata).DeepCopy()
		m.Labels = map[string]string{"transformed": "yes"}
		return m, nil
	}}
	r := NewReflectorWithOptions(srv, &metav1.PartialObjectMetadata{}, store, ReflectorOptions{UseWatchList: true})
	runReflector(t, srv, r)
	cachetest.Eventually(t, "the watch list", func() bool { return len(store.content.ListKeys()) == 2 })
	for _, obj := range store.content.List() {
		if obj.(*metav1.PartialObjectMetadata).Labels["transformed"] != "yes" {
			t.Errorf("%s reached Replace untransformed", obj.(*metav1.PartialObjectMetadata).Name)
		}
	}
	if lists, _ := srv.Calls(); lists != 0 {
		t.Fatalf("the reflector listed %d times instead of watch-listing", lists)
	}
}
