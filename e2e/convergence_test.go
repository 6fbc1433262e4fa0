package e2e

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned"
	"github.com/informer-gen/informer-gen/runtime/cache"
)

// convergeTimeout bounds how long a store may take to catch up with the
// server after the last change or fault (generous: CI runs under -race on
// two cores).
const convergeTimeout = 2 * time.Minute

// widgetListWatch lists and watches Widgets of every namespace through cs.
func widgetListWatch(cs versioned.Interface) *cache.ListWatch {
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return cs.StableV1().Widgets(metav1.NamespaceAll).List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return cs.StableV1().Widgets(metav1.NamespaceAll).Watch(ctx, opts)
		},
	}
}

// newWidgetInformer returns an informer of every Widget, indexed by
// namespace, talking to the API server with cfg.
func newWidgetInformer(t *testing.T, cfg *rest.Config) cache.SharedIndexInformer {
	t.Helper()
	return cache.NewSharedIndexInformer(widgetListWatch(clientset(t, cfg)), &stablev1.Widget{}, 0,
		cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
}

func clientset(t *testing.T, cfg *rest.Config) versioned.Interface {
	t.Helper()
	cs, err := versioned.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// runInformer runs inf until the test ends and waits for Run to return
// then.
func runInformer(t *testing.T, inf cache.SharedInformer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.RunWithContext(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("informer.Run did not return 30s after its context was cancelled")
		}
		if !inf.IsStopped() {
			t.Error("IsStopped is false after Run returned")
		}
	})
}

// waitSynced waits for inf's first list to be stored.
func waitSynced(t *testing.T, inf cache.SharedInformer) {
	t.Helper()
	err := wait.PollUntilContextTimeout(t.Context(), 20*time.Millisecond, convergeTimeout, true, func(context.Context) (bool, error) {
		return inf.HasSynced(), nil
	})
	if err != nil {
		t.Fatalf("informer did not sync: %v", err)
	}
}

// versions maps "namespace/name" to resourceVersion.
type versions map[string]string

// serverWidgets lists every Widget on the server.
func serverWidgets(ctx context.Context, cs versioned.Interface) (versions, error) {
	list, err := cs.StableV1().Widgets(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	v := make(versions, len(list.Items))
	for i := range list.Items {
		w := &list.Items[i]
		v[w.Namespace+"/"+w.Name] = w.ResourceVersion
	}
	return v, nil
}

// storeWidgets reads every Widget in an informer's store.
func storeWidgets(t *testing.T, store cache.Store) versions {
	t.Helper()
	v := versions{}
	for _, obj := range store.List() {
		w, ok := obj.(*stablev1.Widget)
		if !ok {
			t.Fatalf("store holds %T, want *v1.Widget", obj)
		}
		v[w.Namespace+"/"+w.Name] = w.ResourceVersion
	}
	return v
}

// diff describes how got differs from want, in a few lines.
func diff(got, want versions) string {
	var missing, extra, stale []string
	for k, rv := range want {
		switch g, ok := got[k]; {
		case !ok:
			missing = append(missing, k)
		case g != rv:
			stale = append(stale, fmt.Sprintf("%s@%s (server %s)", k, g, rv))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			extra = append(extra, k)
		}
	}
	if len(missing)+len(extra)+len(stale) == 0 {
		return ""
	}
	short := func(s []string) []string {
		slices.Sort(s)
		if len(s) > 5 {
			return append(s[:5:5], fmt.Sprintf("... (%d in all)", len(s)))
		}
		return s
	}
	return fmt.Sprintf("%d objects vs %d on the server; missing %v; extra %v; stale %v",
		len(got), len(want), short(missing), short(extra), short(stale))
}

// waitConverged waits until every view (store, handler state) holds
// exactly the Widgets of the server with the same resourceVersions, the
// server being read again on every attempt; it fails t with the last
// difference otherwise.
func waitConverged(t *testing.T, cs versioned.Interface, views map[string]func() versions) {
	t.Helper()
	waitConvergedWith(t, func(ctx context.Context) (versions, error) { return serverWidgets(ctx, cs) }, views)
}

// waitConvergedWith is waitConverged against the state server returns.
func waitConvergedWith(t *testing.T, server func(context.Context) (versions, error), views map[string]func() versions) {
	t.Helper()
	var last string
	err := wait.PollUntilContextTimeout(t.Context(), 200*time.Millisecond, convergeTimeout, true, func(ctx context.Context) (bool, error) {
		want, err := server(ctx)
		if err != nil {
			last = "list from server: " + err.Error()
			return false, nil
		}
		for _, name := range slices.Sorted(maps.Keys(views)) {
			if d := diff(views[name](), want); d != "" {
				last = name + ": " + d
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		t.Fatalf("no convergence with the server after %v: %s", convergeTimeout, last)
	}
}

// handlerView is the state a ResourceEventHandler rebuilds from the
// notifications it receives: it must end equal to the server's too.
type handlerView struct {
	mu         sync.Mutex
	objs       versions
	tombstones int // deletes delivered as DeletedFinalStateUnknown
	errs       []string
}

func newHandlerView() *handlerView { return &handlerView{objs: versions{}} }

func (h *handlerView) key(obj any) (string, string, bool) {
	w, ok := obj.(*stablev1.Widget)
	if !ok {
		h.errs = append(h.errs, fmt.Sprintf("handler got %T", obj))
		return "", "", false
	}
	return w.Namespace + "/" + w.Name, w.ResourceVersion, true
}

func (h *handlerView) handler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			h.mu.Lock()
			defer h.mu.Unlock()
			if k, rv, ok := h.key(obj); ok {
				if _, dup := h.objs[k]; dup {
					h.errs = append(h.errs, "add of an object already present: "+k)
				}
				h.objs[k] = rv
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			h.mu.Lock()
			defer h.mu.Unlock()
			k, rv, ok := h.key(newObj)
			if !ok {
				return
			}
			if _, known := h.objs[k]; !known {
				h.errs = append(h.errs, "update of an unknown object: "+k)
			}
			h.objs[k] = rv
		},
		DeleteFunc: func(obj any) {
			h.mu.Lock()
			defer h.mu.Unlock()
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				h.tombstones++
				obj = d.Obj
			}
			if k, _, ok := h.key(obj); ok {
				if _, known := h.objs[k]; !known {
					h.errs = append(h.errs, "delete of an unknown object: "+k)
				}
				delete(h.objs, k)
			}
		},
	}
}

func (h *handlerView) snapshot() versions {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.objs)
}

func (h *handlerView) tombstoneCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.tombstones
}

// check fails t if the notifications were inconsistent (add of a present
// object, update or delete of an unknown one, foreign types).
func (h *handlerView) check(t *testing.T) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.errs) > 0 {
		t.Errorf("%d inconsistent notifications, first ones: %v", len(h.errs), h.errs[:min(5, len(h.errs))])
	}
}

// createNamespaces creates the namespaces (idempotently) with the admin
// configuration.
func createNamespaces(t *testing.T, cfg *rest.Config, names ...string) {
	t.Helper()
	kc, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		_, err := kc.CoreV1().Namespaces().Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: n}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
}
