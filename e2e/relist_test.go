package e2e

import (
	"sync"
	"testing"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// A relist forced by a compaction on a real server (watch cut, objects
// changed, deleted and created meanwhile, history compacted) reaches the
// cache whole before the first handler notification of it: the handler
// reading the store then finds exactly the server's new state.
func TestInformerRelistAfterCompactionIsAtomicForHandlers(t *testing.T) {
	c := ownCluster(t, cluster.Options{DisableWatchCache: true})
	cfg := c.AdminConfig()
	namespaces := []string{"atomic-a", "atomic-b"}
	createNamespaces(t, cfg, namespaces...)
	cs := clientset(t, cfg)
	wl := workload{cs: cs, namespaces: namespaces, prefix: "atomic", workers: 4}
	ctx := t.Context()
	const n = 1500 // about three of the informer's applied batches
	if err := wl.create(ctx, 0, n, all); err != nil {
		t.Fatal(err)
	}

	proxy := newProxy(t, c)
	inf := newWidgetInformer(t, proxy.Config(cfg))
	var (
		mu       sync.Mutex
		target   versions // the server's state after the changes
		checked  bool
		mismatch string
	)
	check := func() {
		mu.Lock()
		defer mu.Unlock()
		if target == nil || checked {
			return
		}
		checked = true
		mismatch = diff(storeWidgets(t, inf.GetStore()), target)
	}
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { check() },
		UpdateFunc: func(_, _ any) { check() },
		DeleteFunc: func(any) { check() },
	}); err != nil {
		t.Fatal(err)
	}
	runInformer(t, inf)
	waitSynced(t, inf)
	// Let the handler drain the first list before arming the check.
	waitConverged(t, cs, map[string]func() versions{"store": func() versions { return storeWidgets(t, inf.GetStore()) }})

	proxy.Cut()
	if err := wl.update(ctx, 0, n, all, 7); err != nil {
		t.Fatal(err)
	}
	if err := wl.remove(ctx, 0, n, nth(5, 0)); err != nil {
		t.Fatal(err)
	}
	if err := wl.create(ctx, n, n+100, all); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CompactEtcd(ctx); err != nil {
		t.Fatal(err)
	}
	want, err := serverWidgets(ctx, cs)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	target = want
	mu.Unlock()
	proxy.Restore()

	cachetest.Eventually(t, "the first notification of the relist", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return checked
	})
	mu.Lock()
	defer mu.Unlock()
	if mismatch != "" {
		t.Fatalf("the first notification of the relist found the store half-applied: %s", mismatch)
	}
}
