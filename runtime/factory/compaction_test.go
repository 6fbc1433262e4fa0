package factory

import (
	"context"
	"reflect"
	"testing"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// Compaction is on for every informer the factory makes, in every
// namespace; WithoutCompaction turns it off for every type,
// ByObject.DisableCompaction for one. The factory says so in the
// InformerConfig it hands the informer's constructor: it has no other
// way, as it changes no informer's compaction after making it.
func TestCompactionIsAConstructorArgumentOnByDefault(t *testing.T) {
	other := &metav1.Status{}
	tests := []struct {
		name            string
		opts            []Option
		want, wantOther bool
	}{
		{"default compacts", nil, true, true},
		{"default compacts, several namespaces", []Option{WithNamespaces("a", "b")}, true, true},
		{"WithoutCompaction turns it off", []Option{WithoutCompaction(), WithNamespaces("a", "b")}, false, false},
		{"ByObject.DisableCompaction turns it off for that type only", []Option{WithByObject(&metav1.PartialObjectMetadata{}, ByObject{DisableCompaction: true, Namespaces: []string{"a", "b"}})}, false, true},
	}
	makers := map[string]func(s *Shared, obj runtime.Object, newInformer NewInformerFunc){
		"InformerFor":        func(s *Shared, obj runtime.Object, f NewInformerFunc) { s.InformerFor(obj, f) },
		"ClusterInformerFor": func(s *Shared, obj runtime.Object, f NewInformerFunc) { s.ClusterInformerFor(obj, f) },
		"ResourceInformerFor": func(s *Shared, obj runtime.Object, f NewInformerFunc) {
			s.ResourceInformerFor(obj, widgetsResource, true, f)
		},
	}
	for _, tt := range tests {
		for maker, makeInformer := range makers {
			t.Run(tt.name+"/"+maker, func(t *testing.T) {
				s := New(tt.opts...)
				check := func(obj runtime.Object, want bool) {
					t.Helper()
					var made []*fakeInformer
					makeInformer(s, obj, func(c InformerConfig) cache.SharedIndexInformer {
						f := newFakeInformer(c)
						made = append(made, f)
						return f
					})
					if len(made) == 0 {
						t.Fatalf("%T: no informer made", obj)
					}
					for _, f := range made {
						if f.config.Compact != want {
							t.Errorf("%T, namespace %q: InformerConfig.Compact %t, want %t", obj, f.config.Namespace, f.config.Compact, want)
						}
					}
				}
				check(&metav1.PartialObjectMetadata{}, tt.want)
				check(other, tt.wantOther)
			})
		}
	}
}

// labelledClient is a metadata.Client serving three objects with equal
// labels, each in a map of its own, as a client decodes them.
type labelledClient struct{}

func (labelledClient) List(_ context.Context, _ schema.GroupVersionResource, namespace string, _ metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	list := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}
	for _, name := range []string{"one", "two", "three"} {
		list.Items = append(list.Items, metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
			Namespace: namespace, Name: name, ResourceVersion: "1",
			Labels: map[string]string{"app": "web", "tier": "front"},
		}})
	}
	return list, nil
}

func (labelledClient) Watch(ctx context.Context, _ schema.GroupVersionResource, _ string, _ metav1.ListOptions) (watch.Interface, error) {
	w := watch.NewFake()
	context.AfterFunc(ctx, w.Stop)
	return w, nil
}

// IsWatchListSemanticsUnSupported makes the informer list at once.
func (labelledClient) IsWatchListSemanticsUnSupported() bool { return true }

// MetadataInformerFor builds its informers with the factory's compaction:
// the cached objects share their equal labels by default (a value is
// shared from its second sighting on: at least two of the three hold one
// map), and keep their own under WithoutCompaction.
func TestMetadataInformersCompactUnlessTurnedOff(t *testing.T) {
	for _, tt := range []struct {
		name       string
		opts       []Option
		wantShared bool
	}{
		{"default", nil, true},
		{"WithoutCompaction", []Option{WithoutCompaction()}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := New(append([]Option{WithNamespace("ns")}, tt.opts...)...)
			defer s.Shutdown()
			inf := s.MetadataInformerFor(labelledClient{}, widgetsResource, true)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s.Start(ctx)
			if err := s.WaitForCacheSync(ctx).AsError(); err != nil {
				t.Fatal(err)
			}
			objs := inf.GetStore().List()
			maps := map[unsafe.Pointer]bool{}
			for _, obj := range objs {
				labels := obj.(*metav1.PartialObjectMetadata).Labels
				if want := map[string]string{"app": "web", "tier": "front"}; !reflect.DeepEqual(labels, want) {
					t.Fatalf("cached labels %v, want %v", labels, want)
				}
				maps[reflect.ValueOf(labels).UnsafePointer()] = true
			}
			if len(objs) != 3 {
				t.Fatalf("%d objects cached, want 3", len(objs))
			}
			if shared := len(maps) < len(objs); shared != tt.wantShared {
				t.Errorf("equal labels of cached objects shared: %t (%d maps for %d objects), want %t", shared, len(maps), len(objs), tt.wantShared)
			}
		})
	}
}
