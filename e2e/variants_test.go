package e2e

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/runtime/cache"
)

// With UseWatchList the initial state is streamed over a watch
// (sendInitialEvents), which kube-apiserver supports: the informer syncs
// and converges without a single LIST request.
func TestWatchListInformerSyncsWithoutListRequests(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	createNamespaces(t, cfg, "watchlist")
	cs := clientset(t, cfg)
	wl := workload{cs: cs, namespaces: []string{"watchlist"}, prefix: "watchlist", workers: 4}
	ctx := t.Context()
	if err := wl.create(ctx, 0, 300, all); err != nil {
		t.Fatal(err)
	}

	var lists, watches atomic.Int32
	lw := widgetListWatch(cs)
	counted := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			lists.Add(1)
			return lw.ListWithContext(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			watches.Add(1)
			return lw.WatchWithContext(ctx, opts)
		},
	}
	inf := cache.NewSharedIndexInformerWithOptions(counted, &stablev1.Widget{}, cache.SharedIndexInformerOptions{UseWatchList: true})
	view := newHandlerView()
	if _, err := inf.AddEventHandler(view.handler()); err != nil {
		t.Fatal(err)
	}
	runInformer(t, inf)
	waitSynced(t, inf)
	if err := wl.remove(ctx, 0, 300, nth(3, 0)); err != nil {
		t.Fatal(err)
	}
	waitConverged(t, cs, map[string]func() versions{
		"store":   func() versions { return storeWidgets(t, inf.GetStore()) },
		"handler": view.snapshot,
	})
	view.check(t)
	if n := lists.Load(); n != 0 {
		t.Errorf("%d LIST requests with UseWatchList against a server that supports watch lists, want 0", n)
	}
	if watches.Load() == 0 {
		t.Error("no watch request")
	}
}

// Connections are dropped every few hundred milliseconds while another
// client keeps creating, patching and deleting: each drop breaks the watch
// at an arbitrary point, and the resumed watches must neither lose nor
// repeat a change.
func TestInformerConvergesWhileConnectionsDropRepeatedly(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	namespaces := []string{"flaky-a", "flaky-b", "flaky-c"}
	createNamespaces(t, cfg, namespaces...)
	cs := clientset(t, cfg)
	wl := workload{cs: cs, namespaces: namespaces, prefix: "flaky", workers: 4}
	ctx := t.Context()

	proxy := newProxy(t, c)
	inf, view, _ := watchedInformer(t, proxy.Config(cfg))

	dropping, stopDropping := context.WithCancel(ctx)
	dropped := make(chan int)
	go func() {
		n := 0
		defer func() { dropped <- n }()
		tick := time.NewTicker(300 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-dropping.Done():
				return
			case <-tick.C:
				proxy.Reset()
				n++
			}
		}
	}()
	const n = 600
	err := wl.create(ctx, 0, n, all)
	if err == nil {
		err = wl.update(ctx, 0, n, nth(2, 0), 4)
	}
	if err == nil {
		err = wl.remove(ctx, 0, n, nth(3, 0))
	}
	stopDropping()
	t.Logf("connections dropped %d times during the churn", <-dropped)
	if err != nil {
		t.Fatal(err)
	}
	waitConverged(t, cs, map[string]func() versions{
		"store":   func() versions { return storeWidgets(t, inf.GetStore()) },
		"handler": view.snapshot,
	})
	view.check(t)
}

// The cluster-scoped kind: a Gadget informer built on the generated
// clientset converges with the server like the namespaced one.
func TestClusterScopedInformerConverges(t *testing.T) {
	c := sharedCluster(t)
	cs := clientset(t, c.AdminConfig())
	ctx := t.Context()
	gadgets := cs.StableV1().Gadgets()
	inf := cache.NewSharedIndexInformer(&cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return gadgets.List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return gadgets.Watch(ctx, opts)
		},
	}, &stablev1.Gadget{}, 0, cache.Indexers{})
	runInformer(t, inf)
	waitSynced(t, inf)

	for i := range 50 {
		g := &stablev1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("scoped-%02d", i)}, Spec: stablev1.GadgetSpec{Replicas: int32(i)}}
		if _, err := gadgets.Create(ctx, g, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if i%5 == 0 {
			if err := gadgets.Delete(ctx, g.Name, metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	server := func(ctx context.Context) (versions, error) {
		list, err := gadgets.List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		v := versions{}
		for _, g := range list.Items {
			v[g.Name] = g.ResourceVersion
		}
		return v, nil
	}
	store := func() versions {
		v := versions{}
		for _, obj := range inf.GetStore().List() {
			g := obj.(*stablev1.Gadget)
			if g.Namespace != "" {
				t.Errorf("gadget %s has namespace %q", g.Name, g.Namespace)
			}
			v[g.Name] = g.ResourceVersion
		}
		return v
	}
	waitConvergedWith(t, server, map[string]func() versions{"store": store})
}
