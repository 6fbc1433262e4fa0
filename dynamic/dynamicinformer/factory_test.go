package dynamicinformer_test

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/informer-gen/informer-gen/dynamic/dynamicinformer"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
)

var (
	widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	gadgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"}
)

func object(kind, namespace, name string, labels map[string]string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind(kind)
	u.SetNamespace(namespace)
	u.SetName(name)
	u.SetLabels(labels)
	u.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply}})
	return u
}

func newClient(objs ...runtime.Object) *fake.FakeDynamicClient {
	return fake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{widgets: "WidgetList", gadgets: "GadgetList"}, objs...)
}

func fixture() *fake.FakeDynamicClient {
	return newClient(
		object("Widget", "a", "w1", map[string]string{"app": "x"}),
		object("Widget", "a", "w2", map[string]string{"app": "y"}),
		object("Widget", "b", "w3", map[string]string{"app": "x"}),
		object("Gadget", "a", "g1", nil),
	)
}

// watchRegistered closes the returned channel once the fake client's
// tracker registered a watch of resource. Changes made after that reach
// the informer; the fake does not replay changes since a resourceVersion,
// so one made between the informer's list and its watch would be lost.
func watchRegistered(prepend func(string, clienttesting.WatchReactionFunc), tracker clienttesting.ObjectTracker, resource string) <-chan struct{} {
	registered := make(chan struct{})
	var once sync.Once
	prepend(resource, func(action clienttesting.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if w, ok := action.(clienttesting.WatchActionImpl); ok {
			opts = w.ListOptions
		}
		w, err := tracker.Watch(action.GetResource(), action.GetNamespace(), opts)
		if err != nil {
			return false, nil, err
		}
		once.Do(func() { close(registered) })
		return true, w, nil
	})
	return registered
}

// guard is a failure guard only: a test that would otherwise hang ends.
func guard(t *testing.T) <-chan struct{} {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx.Done()
}

func names(objs []runtime.Object) []string {
	var out []string
	for _, o := range objs {
		u := o.(*unstructured.Unstructured)
		out = append(out, u.GetNamespace()+"/"+u.GetName())
	}
	slices.Sort(out)
	return out
}

// The factory's informers sync on client-go's fake dynamic client (which
// cannot stream lists: they list at once), one per resource, and their
// listers read the cache by namespace, selector and name, as the
// factory's namespace and tweak restrict it.
func TestFactoryInformersSyncAndListersReadTheCache(t *testing.T) {
	tests := []struct {
		name      string
		factory   func(*fake.FakeDynamicClient) dynamicinformer.DynamicSharedInformerFactory
		wantAll   []string
		wantInA   []string
		wantInB   []string
		wantFound bool // a/w1 is cached
	}{
		{"every namespace", func(c *fake.FakeDynamicClient) dynamicinformer.DynamicSharedInformerFactory {
			return dynamicinformer.NewDynamicSharedInformerFactory(c, 0)
		}, []string{"a/w1", "a/w2", "b/w3"}, []string{"a/w1", "a/w2"}, []string{"b/w3"}, true},
		{"one namespace", func(c *fake.FakeDynamicClient) dynamicinformer.DynamicSharedInformerFactory {
			return dynamicinformer.NewFilteredDynamicSharedInformerFactory(c, 0, "b", nil)
		}, []string{"b/w3"}, []string{}, []string{"b/w3"}, false},
		{"tweaked list options", func(c *fake.FakeDynamicClient) dynamicinformer.DynamicSharedInformerFactory {
			return dynamicinformer.NewFilteredDynamicSharedInformerFactory(c, 0, metav1.NamespaceAll, func(o *metav1.ListOptions) { o.LabelSelector = "app=x" })
		}, []string{"a/w1", "b/w3"}, []string{"a/w1"}, []string{"b/w3"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.factory(fixture())
			defer f.Shutdown()
			w := f.ForResource(widgets)
			if again := f.ForResource(widgets); again != w || again.Informer() != w.Informer() {
				t.Error("a second ForResource of the resource gave another informer")
			}
			if g := f.ForResource(gadgets); g.Informer() == w.Informer() {
				t.Error("two resources share an informer")
			}
			stop := guard(t)
			f.Start(stop)
			synced := f.WaitForCacheSync(stop)
			if len(synced) != 2 || !synced[widgets] || !synced[gadgets] {
				t.Fatalf("WaitForCacheSync = %v, want widgets and gadgets synced", synced)
			}
			l := w.Lister()
			all, err := l.List(labels.Everything())
			if err != nil || !slices.Equal(names(all), tt.wantAll) {
				t.Errorf("List = %q, %v; want %q", names(all), err, tt.wantAll)
			}
			for ns, want := range map[string][]string{"a": tt.wantInA, "b": tt.wantInB} {
				got, err := l.ByNamespace(ns).List(labels.Everything())
				if err != nil || got == nil || !slices.Equal(names(got), want) {
					t.Errorf("ByNamespace(%s).List = %q (nil %t), %v; want %q, not nil", ns, names(got), got == nil, err, want)
				}
			}
			obj, err := l.ByNamespace("a").Get("w1")
			if tt.wantFound != (err == nil) {
				t.Fatalf("ByNamespace(a).Get(w1) = %v, %v; want found %t", obj, err, tt.wantFound)
			}
			if err == nil {
				if u := obj.(*unstructured.Unstructured); u.GetName() != "w1" || u.GetManagedFields() != nil {
					t.Errorf("Get(w1) = %s with managedFields %v, want w1 without", u.GetName(), u.GetManagedFields())
				}
			} else if !apierrors.IsNotFound(err) || err.Error() != `widgets.example.com "w1" not found` {
				t.Errorf("Get(w1) error %q, want client-go's NotFound", err)
			}
		})
	}
}

// recorder records the events a handler receives.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) add(e string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

func (r *recorder) handler() cache.ResourceEventHandlerFuncs {
	name := func(obj any) string { return obj.(*unstructured.Unstructured).GetName() }
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { r.add("add " + name(obj)) },
		UpdateFunc: func(_, obj any) { r.add("update " + name(obj)) },
		DeleteFunc: func(obj any) { r.add("delete " + name(obj)) },
	}
}

// Objects created, updated and deleted through the client after the
// informer synced reach its handlers, in order.
func TestEventsReachHandlers(t *testing.T) {
	client := fixture()
	watching := watchRegistered(client.PrependWatchReactor, client.Tracker(), "widgets")
	f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, 0, "a", nil)
	defer f.Shutdown()
	rec := &recorder{}
	if _, err := f.ForResource(widgets).Informer().AddEventHandler(rec.handler()); err != nil {
		t.Fatal(err)
	}
	stop := guard(t)
	f.Start(stop)
	f.WaitForCacheSync(stop)
	select {
	case <-watching:
	case <-stop:
		t.Fatal("the informer never watched")
	}
	ctx := t.Context()
	res := client.Resource(widgets).Namespace("a")
	created, err := res.Create(ctx, object("Widget", "a", "w9", nil), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created.SetLabels(map[string]string{"app": "z"})
	if _, err := res.Update(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := res.Delete(ctx, "w9", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	want := []string{"add w1", "add w2", "add w9", "update w9", "delete w9"}
	for {
		got := rec.seen()
		slices.Sort(got[:min(2, len(got))])
		if slices.Equal(got, want) {
			return
		}
		select {
		case <-stop:
			t.Fatalf("events %q, want %q", got, want)
		case <-time.After(time.Millisecond):
		}
	}
}

// Shutdown stops the informers without the stop channel being closed,
// and Start after it starts nothing.
func TestShutdownStopsTheInformers(t *testing.T) {
	f := dynamicinformer.NewDynamicSharedInformerFactory(fixture(), 0)
	w := f.ForResource(widgets).Informer()
	stop := guard(t)
	f.Start(stop)
	f.WaitForCacheSync(stop)
	f.Shutdown()
	if !w.IsStopped() {
		t.Error("the informer runs after Shutdown")
	}
	g := f.ForResource(gadgets).Informer()
	f.Start(stop)
	if synced := f.WaitForCacheSync(stop); len(synced) != 1 || g.HasSynced() {
		t.Errorf("after Shutdown, Start started an informer: WaitForCacheSync = %v", synced)
	}
	f.Shutdown() // again: returns
}

// NewDynamicSharedInformerFactoryWithOptions takes runtime/factory's
// options: WithManagedFields keeps managedFields, WithNamespaces watches
// several namespaces through one cache.
func TestFactoryOptions(t *testing.T) {
	f := dynamicinformer.NewDynamicSharedInformerFactoryWithOptions(fixture(), 0, factory.WithManagedFields(), factory.WithNamespaces("a", "b"))
	defer f.Shutdown()
	w := f.ForResource(widgets)
	stop := guard(t)
	f.Start(stop)
	f.WaitForCacheSync(stop)
	all, err := w.Lister().List(labels.Everything())
	if err != nil || len(all) != 3 {
		t.Fatalf("List = %q, %v; want 3 objects", names(all), err)
	}
	for _, o := range all {
		if o.(*unstructured.Unstructured).GetManagedFields() == nil {
			t.Errorf("%s lost its managedFields", o.(*unstructured.Unstructured).GetName())
		}
	}
}

// NewFilteredDynamicInformer makes an informer of its own, with the
// indexers given, that keeps managedFields.
func TestNewFilteredDynamicInformer(t *testing.T) {
	inf := dynamicinformer.NewFilteredDynamicInformer(fixture(), widgets, "a", 0, cache.Indexers{"app": func(obj any) ([]string, error) {
		return []string{obj.(*unstructured.Unstructured).GetLabels()["app"]}, nil
	}}, nil)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); inf.Informer().RunWithContext(ctx) }()
	defer func() { cancel(); <-done }()
	if !cache.WaitForCacheSync(guard(t), inf.Informer().HasSynced) {
		t.Fatal("did not sync")
	}
	byApp, err := inf.Informer().GetIndexer().ByIndex("app", "x")
	if err != nil || len(byApp) != 1 || byApp[0].(*unstructured.Unstructured).GetName() != "w1" {
		t.Fatalf("ByIndex(app, x) = %v, %v; want w1", byApp, err)
	}
	if byApp[0].(*unstructured.Unstructured).GetManagedFields() == nil {
		t.Error("the standalone informer dropped managedFields")
	}
}

// An object deleted while the watch was down reaches handlers as a
// runtime/cache DeletedFinalStateUnknown tombstone after the relist, as in
// client-go (whose tombstone type is tools/cache's).
func TestObjectsGoneAtRelistReachHandlersAsTombstones(t *testing.T) {
	client := fixture()
	first := watch.NewFake()
	var watches atomic.Int32
	client.PrependWatchReactor("widgets", func(clienttesting.Action) (bool, watch.Interface, error) {
		if watches.Add(1) == 1 {
			return true, first, nil
		}
		return false, nil, nil // the tracker's watch
	})
	f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, 0, "a", nil)
	defer f.Shutdown()
	tombstones := make(chan cache.DeletedFinalStateUnknown, 1)
	if _, err := f.ForResource(widgets).Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: func(obj any) {
		if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			tombstones <- d
		}
	}}); err != nil {
		t.Fatal(err)
	}
	stop := guard(t)
	f.Start(stop)
	f.WaitForCacheSync(stop)
	// w1 goes while the informer's watch (first) does not tell it; then the
	// watch expires, so the informer lists again.
	if err := client.Tracker().Delete(widgets, "a", "w1"); err != nil {
		t.Fatal(err)
	}
	first.Error(&metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired, Message: "too old resource version"})
	select {
	case d := <-tombstones:
		if u, ok := d.Obj.(*unstructured.Unstructured); d.Key != "a/w1" || !ok || u.GetName() != "w1" {
			t.Errorf("tombstone %q of %T, want a/w1 holding the last cached *unstructured.Unstructured", d.Key, d.Obj)
		}
	case <-stop:
		t.Fatal("no tombstone reached the handler")
	}
}
