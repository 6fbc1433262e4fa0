package e2e

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	"github.com/informer-gen/informer-gen/runtime/cache"
)

// syncGuard bounds the wait of a WaitForCacheSync expected to fail: the
// informers cannot sync, so without fail fast it always ends there. It is
// never a speed assertion.
const syncGuard = 3 * time.Second

// syncCase is one way of waiting for caches that cannot all sync: without
// fail fast WaitForCacheSync waits for its context and reports why; with
// WithFailFastSync it returns before, with the failure as Err.
var syncCases = []struct {
	name     string
	opts     []externalversions.SharedInformerOption
	failFast bool
}{
	{"default waits and reports", nil, false},
	{"WithFailFastSync returns at once", []externalversions.SharedInformerOption{externalversions.WithFailFastSync()}, true},
}

// waitUnsynced starts f and waits for its caches under syncGuard (and the
// test's context when failFast: then nothing but the failure ends it),
// checking that waiting ended as the case says.
func waitUnsynced(t *testing.T, f externalversions.SharedInformerFactory, failFast bool) cache.SyncResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), syncGuard)
	if failFast {
		ctx, cancel = context.WithCancel(t.Context())
		// A failure guard only: fail fast must not need it.
		time.AfterFunc(time.Minute, cancel)
	}
	defer cancel()
	f.StartWithContext(t.Context())
	res := f.WaitForCacheSyncWithContext(ctx)
	switch {
	case res.Err == nil:
		t.Fatal("WaitForCacheSync reports every cache synced")
	case failFast && ctx.Err() != nil:
		t.Fatalf("WaitForCacheSync with WithFailFastSync waited until its context ended: %v", res.Err)
	case !failFast && !errors.Is(res.Err, context.DeadlineExceeded):
		t.Fatalf("Err = %v, want the context's deadline", res.Err)
	}
	return res
}

// A typed informer of a resource whose CRD is not installed does not sync;
// WaitForCacheSync says which resource the server does not serve and asks
// whether its CRD is installed, keeping the 404 reachable.
func TestWaitForCacheSyncNamesAResourceWhoseCRDIsNotInstalled(t *testing.T) {
	root, err := cluster.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	// A cluster with the widgets CRD only: gadgets are not served.
	crds := t.TempDir()
	manifest, err := os.ReadFile(filepath.Join(root, "examples", "crd", "config", "crd", "stable.example.com_widgets.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(crds, "widgets.yaml"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	c := ownCluster(t, cluster.Options{CRDDirectory: crds})
	for _, tc := range syncCases {
		t.Run(tc.name, func(t *testing.T) {
			f := externalversions.NewSharedInformerFactoryWithOptions(clientset(t, c.AdminConfig()), 0, tc.opts...)
			t.Cleanup(f.Shutdown)
			f.Stable().V1().Widgets().Informer()
			f.Stable().V1().Gadgets().Informer()
			res := waitUnsynced(t, f, tc.failFast)
			gadget := reflect.TypeOf(&stablev1.Gadget{})
			if res.Synced[gadget] {
				t.Fatal("the gadget informer synced without its CRD")
			}
			if !tc.failFast && !res.Synced[reflect.TypeOf(&stablev1.Widget{})] {
				t.Error("the widget informer, whose CRD is installed, did not sync")
			}
			err := res.AsError()
			const want = "gadgets.stable.example.com v1: the server does not serve this resource (is the CRD installed?)"
			if !apierrors.IsNotFound(res.Errors[gadget]) || !apierrors.IsNotFound(err) || !strings.Contains(err.Error(), want) {
				t.Fatalf("AsError() = %v\nwant it to say %q and wrap the 404", err, want)
			}
			t.Logf("AsError() = %v", err)
		})
	}
}

// An informer whose user may not list its resource does not sync;
// WaitForCacheSync says it is forbidden and where, keeping the 403
// reachable.
func TestWaitForCacheSyncNamesAResourceTheUserMayNotList(t *testing.T) {
	c := sharedCluster(t)
	cfg, err := c.AddUser("no-widgets")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range syncCases {
		t.Run(tc.name, func(t *testing.T) {
			f := externalversions.NewSharedInformerFactoryWithOptions(clientset(t, cfg), 0, tc.opts...)
			t.Cleanup(f.Shutdown)
			f.Stable().V1().Widgets().Informer()
			res := waitUnsynced(t, f, tc.failFast)
			widget := reflect.TypeOf(&stablev1.Widget{})
			if res.Synced[widget] {
				t.Fatal("the widget informer synced without permission to list")
			}
			err := res.AsError()
			const want = "widgets.stable.example.com: forbidden: list at the cluster scope (RBAC)"
			if !apierrors.IsForbidden(res.Errors[widget]) || !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), want) {
				t.Fatalf("AsError() = %v\nwant it to say %q and wrap the 403", err, want)
			}
			t.Logf("AsError() = %v", err)
		})
	}
}
