package metadatainformer_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/informer-gen/informer-gen/dynamic/metadatainformer"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
)

var (
	widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	gadgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"}
)

func object(kind, namespace, name, app string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta: metav1.TypeMeta{APIVersion: "example.com/v1", Kind: kind},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: map[string]string{"app": app},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply}}},
	}
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

func fixture() *fake.FakeMetadataClient {
	scheme := fake.NewTestScheme()
	if err := metav1.AddMetaToScheme(scheme); err != nil {
		panic(err)
	}
	return fake.NewSimpleMetadataClient(scheme,
		object("Widget", "a", "w1", "x"), object("Widget", "a", "w2", "y"), object("Widget", "b", "w3", "x"), object("Gadget", "a", "g1", "x"))
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
		m := o.(*metav1.PartialObjectMetadata)
		out = append(out, m.Namespace+"/"+m.Name)
	}
	slices.Sort(out)
	return out
}

// The factory's metadata-only informers sync on client-go's fake metadata
// client (which cannot stream lists: they list at once), one per
// resource, and their listers read the cache by namespace, selector and
// name as the factory's namespace and tweak restrict it.
func TestFactoryInformersSyncAndListersReadTheCache(t *testing.T) {
	tests := []struct {
		name    string
		factory func(*fake.FakeMetadataClient) metadatainformer.SharedInformerFactory
		wantAll []string
		wantInA []string
	}{
		{"every namespace", func(c *fake.FakeMetadataClient) metadatainformer.SharedInformerFactory {
			return metadatainformer.NewSharedInformerFactory(c, 0)
		}, []string{"a/w1", "a/w2", "b/w3"}, []string{"a/w1", "a/w2"}},
		{"one namespace", func(c *fake.FakeMetadataClient) metadatainformer.SharedInformerFactory {
			return metadatainformer.NewFilteredSharedInformerFactory(c, 0, "a", nil)
		}, []string{"a/w1", "a/w2"}, []string{"a/w1", "a/w2"}},
		{"tweaked list options", func(c *fake.FakeMetadataClient) metadatainformer.SharedInformerFactory {
			return metadatainformer.NewFilteredSharedInformerFactory(c, 0, metav1.NamespaceAll, func(o *metav1.ListOptions) { o.LabelSelector = "app=x" })
		}, []string{"a/w1", "b/w3"}, []string{"a/w1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.factory(fixture())
			defer f.Shutdown()
			w := f.ForResource(widgets)
			if again := f.ForResource(widgets); again != w {
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
			inA, err := l.ByNamespace("a").List(labels.Everything())
			if err != nil || !slices.Equal(names(inA), tt.wantInA) {
				t.Errorf("ByNamespace(a).List = %q, %v; want %q", names(inA), err, tt.wantInA)
			}
			obj, err := l.ByNamespace("a").Get("w1")
			if err != nil || obj.(*metav1.PartialObjectMetadata).ManagedFields != nil {
				t.Errorf("Get(a/w1) = %v, %v; want it, without managedFields", obj, err)
			}
			if _, err := l.ByNamespace("a").Get("missing"); !apierrors.IsNotFound(err) || err.Error() != `widgets.example.com "missing" not found` {
				t.Errorf("Get(missing) error %v, want client-go's NotFound", err)
			}
		})
	}
}

// Deletes through the client reach the handlers; Shutdown stops the
// informers without the stop channel being closed.
func TestDeletesReachHandlersAndShutdownStops(t *testing.T) {
	client := fixture()
	watching := watchRegistered(client.PrependWatchReactor, client.Tracker(), "widgets")
	f := metadatainformer.NewSharedInformerFactory(client, 0)
	inf := f.ForResource(widgets).Informer()
	var mu sync.Mutex
	var deleted []string
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: func(obj any) {
		mu.Lock()
		defer mu.Unlock()
		deleted = append(deleted, obj.(*metav1.PartialObjectMetadata).Name)
	}}); err != nil {
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
	if err := client.Resource(widgets).Namespace("b").Delete(t.Context(), "w3", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	for {
		mu.Lock()
		got := slices.Clone(deleted)
		mu.Unlock()
		if slices.Equal(got, []string{"w3"}) {
			break
		}
		select {
		case <-stop:
			t.Fatalf("deleted %q, want [w3]", got)
		case <-time.After(time.Millisecond):
		}
	}
	f.Shutdown()
	if !inf.IsStopped() {
		t.Error("the informer runs after Shutdown")
	}
}

// NewSharedInformerFactoryWithOptions applies WithTransform after
// managedFields are dropped, and WithFactoryOptions' runtime/factory
// options (WithManagedFields keeps them).
func TestFactoryOptions(t *testing.T) {
	tests := []struct {
		name       string
		opts       []metadatainformer.SharedInformerOption
		keepFields bool
	}{
		{"transform", nil, false},
		{"transform and managedFields kept", []metadatainformer.SharedInformerOption{metadatainformer.WithFactoryOptions(factory.WithManagedFields())}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var sawFields []bool
			transform := metadatainformer.WithTransform(func(obj any) (any, error) {
				m := obj.(*metav1.PartialObjectMetadata)
				mu.Lock()
				sawFields = append(sawFields, m.ManagedFields != nil)
				mu.Unlock()
				m.Annotations = map[string]string{"transformed": "yes"}
				return m, nil
			})
			f := metadatainformer.NewSharedInformerFactoryWithOptions(fixture(), 0, append(tt.opts, transform)...)
			defer f.Shutdown()
			w := f.ForResource(widgets)
			stop := guard(t)
			f.Start(stop)
			f.WaitForCacheSync(stop)
			obj, err := w.Lister().ByNamespace("a").Get("w1")
			if err != nil {
				t.Fatal(err)
			}
			m := obj.(*metav1.PartialObjectMetadata)
			if m.Annotations["transformed"] != "yes" || (m.ManagedFields != nil) != tt.keepFields {
				t.Errorf("cached %v with managedFields %v; want transformed, managedFields kept %t", m.Annotations, m.ManagedFields, tt.keepFields)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(sawFields) == 0 || slices.Contains(sawFields, !tt.keepFields) {
				t.Errorf("the transform saw managedFields %v, want all %t", sawFields, tt.keepFields)
			}
		})
	}
}

// NewFilteredMetadataInformer makes an informer of its own that keeps
// managedFields.
func TestNewFilteredMetadataInformer(t *testing.T) {
	inf := metadatainformer.NewFilteredMetadataInformer(fixture(), widgets, "a", 0, cache.Indexers{}, nil)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); inf.Informer().RunWithContext(ctx) }()
	defer func() { cancel(); <-done }()
	if !cache.WaitForCacheSync(guard(t), inf.Informer().HasSynced) {
		t.Fatal("did not sync")
	}
	objs, err := inf.Lister().List(labels.Everything())
	if err != nil || !slices.Equal(names(objs), []string{"a/w1", "a/w2"}) {
		t.Fatalf("List = %q, %v; want a/w1, a/w2", names(objs), err)
	}
	if objs[0].(*metav1.PartialObjectMetadata).ManagedFields == nil {
		t.Error("the standalone informer dropped managedFields")
	}
}
