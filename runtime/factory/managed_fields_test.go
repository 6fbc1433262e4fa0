package factory

import (
	"context"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

var twoManagers = []metav1.ManagedFieldsEntry{
	{Manager: "kube-scheduler", Operation: metav1.ManagedFieldsOperationUpdate},
	{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationApply, Subresource: "status"},
}

func TestStripManagedFieldsClearsThemAndPassesOtherObjectsThrough(t *testing.T) {
	withFields := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "a", ManagedFields: twoManagers, Labels: map[string]string{"k": "v"}}}
	tombstone := cache.DeletedFinalStateUnknown{Key: "ns/a", Obj: withFields}
	tests := []struct {
		name string
		in   any
		want func(t *testing.T, out any)
	}{
		{"object with managedFields", withFields, func(t *testing.T, out any) {
			m := out.(*metav1.PartialObjectMetadata)
			if m.ManagedFields != nil || m.Labels["k"] != "v" {
				t.Errorf("got managedFields %v labels %v, want none and the labels kept", m.ManagedFields, m.Labels)
			}
		}},
		{"object without metadata", "not an object", func(t *testing.T, out any) {
			if out != "not an object" {
				t.Errorf("got %v, want the input", out)
			}
		}},
		{"tombstone", tombstone, func(t *testing.T, out any) {
			if _, ok := out.(cache.DeletedFinalStateUnknown); !ok {
				t.Errorf("got %T, want the tombstone back", out)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := StripManagedFields(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			tt.want(t, out)
		})
	}
}

// metaInformer and unstructuredInformer are real informers of two types
// over one listed object with managedFields from two managers.
func metaInformer(InformerConfig) cache.SharedIndexInformer {
	item := metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "meta", ResourceVersion: "1", ManagedFields: twoManagers}}
	return listedInformer(&metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: []metav1.PartialObjectMetadata{item}}, &metav1.PartialObjectMetadata{})
}

func unstructuredInformer(InformerConfig) cache.SharedIndexInformer {
	u := unstructured.Unstructured{}
	u.SetAPIVersion("v1")
	u.SetKind("Thing")
	u.SetNamespace("ns")
	u.SetName("thing")
	u.SetResourceVersion("1")
	u.SetManagedFields(twoManagers)
	list := &unstructured.UnstructuredList{Items: []unstructured.Unstructured{u}}
	list.SetResourceVersion("1")
	return listedInformer(list, &unstructured.Unstructured{})
}

func listedInformer(list runtime.Object, obj runtime.Object) cache.SharedIndexInformer {
	lw := &cache.ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) { return list.DeepCopyObject(), nil },
		WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			return watch.NewFake(), nil
		},
	}
	return cache.NewSharedIndexInformer(lw, obj, 0, cache.Indexers{})
}

// The factory strips managedFields before the cache, the handlers and the
// user's own transform see an object, unless WithManagedFields keeps them.
func TestFactoryStripsManagedFieldsUnlessKept(t *testing.T) {
	tests := []struct {
		name                       string
		opts                       []Option
		keepMeta, keepUnstructured bool
	}{
		{name: "default strips every type"},
		{name: "WithManagedFields keeps every type", opts: []Option{WithManagedFields()}, keepMeta: true, keepUnstructured: true},
		{name: "WithManagedFields of one type keeps only that type",
			opts: []Option{WithManagedFields(&unstructured.Unstructured{})}, keepUnstructured: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			userSaw := map[string]int{} // managedFields entries the user's transform saw, by name
			userTransform := func(obj any) (any, error) {
				if m, ok := obj.(metav1.Object); ok {
					mu.Lock()
					userSaw[m.GetName()] = len(m.GetManagedFields())
					mu.Unlock()
				}
				return obj, nil
			}
			s := New(append([]Option{WithTransform(userTransform)}, tt.opts...)...)
			defer s.Shutdown()
			metaInf := s.InformerFor(&metav1.PartialObjectMetadata{}, metaInformer)
			unstructuredInf := s.InformerFor(&unstructured.Unstructured{}, unstructuredInformer)
			s.Start(t.Context())
			if err := s.WaitForCacheSync(t.Context()).AsError(); err != nil {
				t.Fatal(err)
			}
			check := func(inf cache.SharedIndexInformer, name string, keep bool) {
				t.Helper()
				obj, ok, err := inf.GetIndexer().GetByKey("ns/" + name)
				if err != nil || !ok {
					t.Fatalf("ns/%s not cached: %v", name, err)
				}
				if got := len(obj.(metav1.Object).GetManagedFields()); (got > 0) != keep {
					t.Errorf("ns/%s cached with %d managedFields entries, want kept=%t", name, got, keep)
				}
				mu.Lock()
				defer mu.Unlock()
				if saw, ran := userSaw[name]; !ran || (saw > 0) != keep {
					t.Errorf("user transform ran=%t and saw %d managedFields entries of ns/%s, want kept=%t", ran, saw, name, keep)
				}
			}
			check(metaInf, "meta", tt.keepMeta)
			check(unstructuredInf, "thing", tt.keepUnstructured)
		})
	}
}
