package e2e

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	"github.com/informer-gen/informer-gen/runtime/cache"
)

// Two thousand Widgets across namespaces are created, patched (spec and
// status) and partly deleted while one informer watches and after which a
// second one lists (in pages): both stores, the state both handlers rebuild
// from their notifications, and the namespace index all end equal to the
// server.
func TestInformerConvergesWithServerUnderChurn(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	namespaces := []string{"churn-a", "churn-b", "churn-c", "churn-d"}
	createNamespaces(t, cfg, namespaces...)
	cs := clientset(t, cfg)
	const n = 2000
	wl := workload{cs: cs, namespaces: namespaces, prefix: "churn", workers: 8}

	watching := newWidgetInformer(t, cfg)
	watchingView := newHandlerView()
	if _, err := watching.AddEventHandler(watchingView.handler()); err != nil {
		t.Fatal(err)
	}
	runInformer(t, watching)
	waitSynced(t, watching)

	ctx := t.Context()
	if err := wl.create(ctx, 0, n, all); err != nil {
		t.Fatal(err)
	}
	if err := wl.update(ctx, 0, n, nth(3, 0), 7); err != nil {
		t.Fatal(err)
	}
	if err := wl.remove(ctx, 0, n, nth(4, 0)); err != nil {
		t.Fatal(err)
	}

	listing := newWidgetInformer(t, cfg)
	listingView := newHandlerView()
	if _, err := listing.AddEventHandler(listingView.handler()); err != nil {
		t.Fatal(err)
	}
	runInformer(t, listing)
	waitSynced(t, listing)

	// More churn once both run: updates of survivors, deletions, and
	// re-creation of half of the deleted names (new UIDs, same keys).
	if err := wl.update(ctx, 0, n, nth(4, 2), 11); err != nil {
		t.Fatal(err)
	}
	if err := wl.remove(ctx, 0, n/2, nth(4, 1)); err != nil {
		t.Fatal(err)
	}
	if err := wl.create(ctx, 0, n/2, nth(4, 0)); err != nil {
		t.Fatal(err)
	}

	waitConverged(t, cs, map[string]func() versions{
		"watching store":   func() versions { return storeWidgets(t, watching.GetStore()) },
		"watching handler": watchingView.snapshot,
		"listing store":    func() versions { return storeWidgets(t, listing.GetStore()) },
		"listing handler":  listingView.snapshot,
	})
	watchingView.check(t)
	listingView.check(t)

	for _, ns := range namespaces {
		want, err := cs.StableV1().Widgets(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := watching.GetIndexer().ByIndex(cache.NamespaceIndex, ns)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want.Items) {
			t.Errorf("namespace index %s: %d objects, server has %d", ns, len(got), len(want.Items))
		}
	}
}

// The generated factory, informer and lister of the example project run on
// the real server: the lister answers what the server holds.
func TestGeneratedFactoryInformerAndListerServeServerState(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	namespaces := []string{"factory-a", "factory-b"}
	createNamespaces(t, cfg, namespaces...)
	cs := clientset(t, cfg)
	wl := workload{cs: cs, namespaces: namespaces, prefix: "factory", workers: 4}
	ctx := t.Context()
	if err := wl.create(ctx, 0, 100, all); err != nil {
		t.Fatal(err)
	}

	f := externalversions.NewSharedInformerFactory(cs, 0)
	widgets := f.Stable().V1().Widgets()
	inf := widgets.Informer()
	lister := widgets.Lister()
	f.StartWithContext(ctx)
	t.Cleanup(f.Shutdown)
	res := f.WaitForCacheSyncWithContext(ctx)
	if err := res.AsError(); err != nil {
		t.Fatal(err)
	}
	if len(res.Synced) != 1 {
		t.Fatalf("factory started %d informers, want 1 (Widgets): %v", len(res.Synced), res.Synced)
	}

	if err := wl.remove(ctx, 0, 100, nth(2, 0)); err != nil {
		t.Fatal(err)
	}
	waitConverged(t, cs, map[string]func() versions{
		"factory store": func() versions { return storeWidgets(t, inf.GetStore()) },
	})
	for _, ns := range namespaces {
		want, err := cs.StableV1().Widgets(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := lister.Widgets(ns).List(labels.Everything())
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want.Items) {
			t.Errorf("lister in %s: %d widgets, server %d", ns, len(got), len(want.Items))
		}
		for _, w := range want.Items {
			lw, err := lister.Widgets(ns).Get(w.Name)
			if err != nil {
				t.Errorf("lister Get %s/%s: %v", ns, w.Name, err)
				continue
			}
			if lw.ResourceVersion != w.ResourceVersion {
				t.Errorf("lister Get %s/%s: rv %s, server %s", ns, w.Name, lw.ResourceVersion, w.ResourceVersion)
			}
		}
	}
}
