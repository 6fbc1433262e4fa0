package e2e

import (
	"sync"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// errorLog records what a WatchErrorHandler receives.
type errorLog struct {
	mu   sync.Mutex
	errs []error
}

func (l *errorLog) handler(_ *cache.Reflector, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, err)
}

func (l *errorLog) snapshot() []error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]error(nil), l.errs...)
}

// watchedInformer starts a Widget informer with a handler view and an error
// log, through cfg, and waits for it to sync.
func watchedInformer(t *testing.T, cfg *rest.Config) (cache.SharedIndexInformer, *handlerView, *errorLog) {
	t.Helper()
	inf := newWidgetInformer(t, cfg)
	view := newHandlerView()
	if _, err := inf.AddEventHandler(view.handler()); err != nil {
		t.Fatal(err)
	}
	errs := &errorLog{}
	if err := inf.SetWatchErrorHandler(errs.handler); err != nil {
		t.Fatal(err)
	}
	runInformer(t, inf)
	waitSynced(t, inf)
	return inf, view, errs
}

// The API server is stopped while the informer's watch is open and
// started again (etcd keeps the data); changes before and after the
// restart all reach the store and the handler.
func TestInformerConvergesAfterAPIServerRestartMidWatch(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	namespaces := []string{"restart-a", "restart-b"}
	createNamespaces(t, cfg, namespaces...)
	cs := clientset(t, cfg)
	wl := workload{cs: cs, namespaces: namespaces, prefix: "restart", workers: 4}
	ctx := t.Context()

	inf, view, errs := watchedInformer(t, cfg)
	if err := wl.create(ctx, 0, 200, all); err != nil {
		t.Fatal(err)
	}
	waitConverged(t, cs, map[string]func() versions{"store": func() versions { return storeWidgets(t, inf.GetStore()) }})

	if err := c.RestartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
	if err := wl.update(ctx, 0, 200, nth(2, 0), 5); err != nil {
		t.Fatal(err)
	}
	if err := wl.remove(ctx, 0, 200, nth(3, 0)); err != nil {
		t.Fatal(err)
	}
	if err := wl.create(ctx, 200, 300, all); err != nil {
		t.Fatal(err)
	}
	waitConverged(t, cs, map[string]func() versions{
		"store":   func() versions { return storeWidgets(t, inf.GetStore()) },
		"handler": view.snapshot,
	})
	view.check(t)
	t.Logf("watch errors seen across the restart: %d", len(errs.snapshot()))
}

// The connection between the informer and the API server is cut (watch
// included) and refused for a while; changes made meanwhile by another
// client reach the informer once the connection is back.
func TestInformerConvergesAfterConnectionCut(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	namespaces := []string{"cut-a", "cut-b"}
	createNamespaces(t, cfg, namespaces...)
	cs := clientset(t, cfg)
	wl := workload{cs: cs, namespaces: namespaces, prefix: "cut", workers: 4}
	ctx := t.Context()
	if err := wl.create(ctx, 0, 200, all); err != nil {
		t.Fatal(err)
	}

	proxy := newProxy(t, c)
	inf, view, errs := watchedInformer(t, proxy.Config(cfg))

	proxy.Cut()
	if err := wl.update(ctx, 0, 200, nth(2, 1), 9); err != nil {
		t.Fatal(err)
	}
	if err := wl.remove(ctx, 0, 200, nth(5, 0)); err != nil {
		t.Fatal(err)
	}
	if err := wl.create(ctx, 200, 250, all); err != nil {
		t.Fatal(err)
	}
	// Let the informer notice the cut and fail to reconnect at least once.
	cachetest.Eventually(t, "a watch or list error while cut", func() bool { return len(errs.snapshot()) > 0 })
	proxy.Restore()

	waitConverged(t, cs, map[string]func() versions{
		"store":   func() versions { return storeWidgets(t, inf.GetStore()) },
		"handler": view.snapshot,
	})
	view.check(t)
}

// With the watch down, objects are deleted and etcd is compacted past the
// informer's resourceVersion: the resumed watch fails with 410 Gone, the
// informer relists, and deletions it missed reach the handler as
// DeletedFinalStateUnknown tombstones. The API server runs without watch
// cache so that the watch is served by etcd and sees the compaction.
func TestInformerRelistsWithTombstonesAfterCompaction(t *testing.T) {
	c := ownCluster(t, cluster.Options{DisableWatchCache: true})
	cfg := c.AdminConfig()
	namespaces := []string{"compact-a", "compact-b"}
	createNamespaces(t, cfg, namespaces...)
	cs := clientset(t, cfg)
	wl := workload{cs: cs, namespaces: namespaces, prefix: "compact", workers: 4}
	ctx := t.Context()
	const n = 300
	if err := wl.create(ctx, 0, n, all); err != nil {
		t.Fatal(err)
	}

	proxy := newProxy(t, c)
	inf, view, errs := watchedInformer(t, proxy.Config(cfg))

	proxy.Cut()
	deleted := nth(4, 0)
	if err := wl.remove(ctx, 0, n, deleted); err != nil {
		t.Fatal(err)
	}
	if err := wl.update(ctx, 0, n, nth(4, 1), 3); err != nil {
		t.Fatal(err)
	}
	if err := wl.create(ctx, n, n+50, all); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CompactEtcd(ctx); err != nil {
		t.Fatal(err)
	}
	proxy.Restore()

	waitConverged(t, cs, map[string]func() versions{
		"store":   func() versions { return storeWidgets(t, inf.GetStore()) },
		"handler": view.snapshot,
	})
	view.check(t)

	wantTombstones := 0
	for i := range n {
		if deleted(i) {
			wantTombstones++
		}
	}
	if got := view.tombstoneCount(); got != wantTombstones {
		t.Errorf("deletes delivered as tombstones: %d, want %d (every deletion missed while cut)", got, wantTombstones)
	}
	expired := false
	for _, err := range errs.snapshot() {
		if apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
			expired = true
		}
	}
	if !expired {
		t.Errorf("the watch error handler never saw 410 Gone; errors: %v", errs.snapshot())
	}
}

// A user who may list but not watch Widgets: the informer syncs from the
// list, every watch fails with 403 Forbidden, and the informer retries with
// back-off instead of spinning. A user who may do neither never syncs and
// backs off too.
func TestInformerBacksOffWhenForbidden(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	createNamespaces(t, cfg, "forbidden")
	cs := clientset(t, cfg)
	wl := workload{cs: cs, namespaces: []string{"forbidden"}, prefix: "forbidden", workers: 4}
	ctx := t.Context()
	if err := wl.create(ctx, 0, 20, all); err != nil {
		t.Fatal(err)
	}

	listerCfg, err := c.AddUser("e2e-lister")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.GrantClusterRole(ctx, "e2e-lister", []rbacv1.PolicyRule{{
		APIGroups: []string{stablev1.GroupName}, Resources: []string{"widgets"}, Verbs: []string{"list"},
	}}); err != nil {
		t.Fatal(err)
	}
	nobodyCfg, err := c.AddUser("e2e-nobody")
	if err != nil {
		t.Fatal(err)
	}

	// How many failures a back-off that starts near a second and doubles
	// can produce in the observation window, with a wide margin; a hot
	// loop produces thousands.
	const window = 6 * time.Second
	const maxFailures = 20

	for _, tc := range []struct {
		name       string
		cfg        *rest.Config
		wantSynced bool
	}{
		{name: "list only", cfg: listerCfg, wantSynced: true},
		{name: "no permission", cfg: nobodyCfg, wantSynced: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inf := newWidgetInformer(t, tc.cfg)
			errs := &errorLog{}
			if err := inf.SetWatchErrorHandler(errs.handler); err != nil {
				t.Fatal(err)
			}
			runInformer(t, inf)
			cachetest.Eventually(t, "a Forbidden error", func() bool {
				for _, err := range errs.snapshot() {
					if apierrors.IsForbidden(err) {
						return true
					}
				}
				return false
			})
			before := len(errs.snapshot())
			time.Sleep(window)
			failures := len(errs.snapshot()) - before
			t.Logf("%d list/watch failures in %v", failures, window)
			if failures > maxFailures {
				t.Errorf("%d list/watch failures in %v: the informer is spinning", failures, window)
			}
			if got := inf.HasSynced(); got != tc.wantSynced {
				t.Errorf("HasSynced = %v, want %v", got, tc.wantSynced)
			}
			if tc.wantSynced {
				want, err := serverWidgets(ctx, cs)
				if err != nil {
					t.Fatal(err)
				}
				if d := diff(storeWidgets(t, inf.GetStore()), want); d != "" {
					t.Errorf("store of the list-only informer: %s", d)
				}
			}
			for _, err := range errs.snapshot() {
				if !apierrors.IsForbidden(err) {
					t.Errorf("unexpected error kind: %v", err)
					break
				}
			}
		})
	}
}

func newProxy(t *testing.T, c *cluster.Cluster) *cluster.Proxy {
	t.Helper()
	p, err := cluster.NewProxy(c.APIServerAddress())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}
