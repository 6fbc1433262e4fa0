package cache

import (
	"errors"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"go.uber.org/goleak"
	"k8s.io/apimachinery/pkg/api/meta"
)

// An object the store refuses (an index function fails on it) reaches no
// handler, so handlers stay consistent with the cache; other objects flow.
func TestInformerObjectRefusedByStoreIsNotNotified(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 3) // o0, o1, o2
	failing := func(obj any) ([]string, error) {
		m, err := meta.Accessor(obj)
		if err != nil {
			return nil, err
		}
		if m.GetName() == "o1" {
			return nil, errors.New("refused")
		}
		return []string{m.GetName()}, nil
	}
	h := newViewHandler()
	inf := startInformer(t, srv, SharedIndexInformerOptions{Indexers: Indexers{"byName": failing}}, func(s *sharedIndexInformer) {
		mustAdd(t, s, h, HandlerOptions{})
	})
	defer inf.stop(t)
	srv.put("o3", false)
	cachetest.Eventually(t, "o3 cached", func() bool { _, ok, _ := inf.GetStore().GetByKey("ns/o3"); return ok })
	cachetest.Eventually(t, "handler saw o3", func() bool { _, ok := h.snapshot()["ns/o3"]; return ok })
	if _, ok, _ := inf.GetStore().GetByKey("ns/o1"); ok {
		t.Fatal("refused object is cached")
	}
	if _, ok := h.snapshot()["ns/o1"]; ok {
		t.Fatal("handler was told of an object the cache refused")
	}
	h.checkViolations(t)
}
