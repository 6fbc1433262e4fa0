package factory

import (
	"context"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

func TestByObjectScopesOneTypeOnTopOfTheFactory(t *testing.T) {
	factoryTweak := func(o *metav1.ListOptions) { o.LabelSelector = "team=a" }
	scoped := WithByObject(&otherType{}, ByObject{
		Namespaces:    []string{"x", "y", "x"},
		LabelSelector: "tier=web",
		FieldSelector: "metadata.name=n",
		ResyncPeriod:  time.Hour,
	})
	tests := []struct {
		name           string
		opts           []Option
		obj            runtime.Object
		wantNamespaces []string
		wantResync     time.Duration
		wantLabels     string
		wantFields     string
	}{
		{"scoped type gets its namespaces, selectors and resync", []Option{WithNamespace("a"), WithResyncPeriod(time.Minute), WithTweakListOptions(factoryTweak), scoped},
			&otherType{}, []string{"x", "y"}, time.Hour, "team=a,tier=web", "metadata.name=n"},
		{"other types keep the factory's", []Option{WithNamespace("a"), WithResyncPeriod(time.Minute), WithTweakListOptions(factoryTweak), scoped},
			&metav1.PartialObjectMetadata{}, []string{"a"}, time.Minute, "team=a", ""},
		{"zero fields keep the factory's", []Option{WithNamespaces("a", "b"), WithResyncPeriod(time.Minute), WithByObject(&otherType{}, ByObject{LabelSelector: "tier=web"})},
			&otherType{}, []string{"a", "b"}, time.Minute, "tier=web", ""},
		{"NamespaceAll in the scope means every namespace", []Option{WithByObject(&otherType{}, ByObject{Namespaces: []string{"x", metav1.NamespaceAll}})},
			&otherType{}, []string{""}, 0, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec recorder
			New(tt.opts...).InformerFor(tt.obj, rec.newInformer)
			var namespaces []string
			for _, f := range rec.made {
				namespaces = append(namespaces, f.config.Namespace)
				if f.config.ResyncPeriod != tt.wantResync {
					t.Errorf("namespace %q: resync %v, want %v", f.config.Namespace, f.config.ResyncPeriod, tt.wantResync)
				}
				var opts metav1.ListOptions
				if f.config.TweakListOptions != nil {
					f.config.TweakListOptions(&opts)
				}
				if opts.LabelSelector != tt.wantLabels || opts.FieldSelector != tt.wantFields {
					t.Errorf("namespace %q: selectors %q / %q, want %q / %q", f.config.Namespace, opts.LabelSelector, opts.FieldSelector, tt.wantLabels, tt.wantFields)
				}
			}
			if !slices.Equal(namespaces, tt.wantNamespaces) {
				t.Errorf("informers for namespaces %q, want %q", namespaces, tt.wantNamespaces)
			}
		})
	}
}

func TestByObjectTransformAndManagedFieldsApplyToTheirTypeOnly(t *testing.T) {
	var calls []string
	factoryTransform := func(o any) (any, error) { calls = append(calls, "factory"); return o, nil }
	typeTransform := func(o any) (any, error) { calls = append(calls, "type"); return o, nil }
	s := New(WithTransform(factoryTransform), WithByObject(&otherType{}, ByObject{Transform: typeTransform, KeepManagedFields: true}))
	withFields := func() *metav1.PartialObjectMetadata {
		return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{ManagedFields: twoManagers}}
	}

	out, _ := s.config.transformFor(reflect.TypeOf(&otherType{}))(withFields())
	if len(out.(*metav1.PartialObjectMetadata).ManagedFields) == 0 {
		t.Error("scoped type lost its managedFields despite KeepManagedFields")
	}
	out, _ = s.config.transformFor(reflect.TypeOf(&metav1.PartialObjectMetadata{}))(withFields())
	if len(out.(*metav1.PartialObjectMetadata).ManagedFields) != 0 {
		t.Error("other type kept managedFields")
	}
	if !slices.Equal(calls, []string{"type", "factory"}) {
		t.Errorf("transforms called %v, want the type's for the scoped type and the factory's for the other", calls)
	}
}

func TestRemoveInformerStopsAndForgetsIt(t *testing.T) {
	var rec recorder
	s := New()
	defer s.Shutdown()
	first := s.InformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer)
	other := s.InformerFor(&otherType{}, rec.newInformer)
	s.Start(t.Context())

	ok, err := s.RemoveInformer(t.Context(), &metav1.PartialObjectMetadata{})
	if !ok || err != nil {
		t.Fatalf("RemoveInformer = %t, %v; want true, nil", ok, err)
	}
	if !first.IsStopped() {
		t.Error("the removed informer still runs")
	}
	if other.IsStopped() {
		t.Error("removing one type stopped another")
	}
	if ok, _ := s.RemoveInformer(t.Context(), &metav1.PartialObjectMetadata{}); ok {
		t.Error("a second removal found an informer")
	}
	second := s.InformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer)
	if second == first {
		t.Fatal("InformerFor after removal returned the removed informer")
	}
	s.Start(t.Context())
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if res := s.WaitForCacheSync(ctx); !res.Synced[reflect.TypeOf(&metav1.PartialObjectMetadata{})] {
		t.Fatalf("the new informer did not run and sync: %+v", res)
	}
}

// stopCounter counts OnStop calls.
type stopCounter struct {
	cache.ResourceEventHandlerFuncs
	stops atomic.Int32
}

func (s *stopCounter) OnStop() { s.stops.Add(1) }

// RemoveInformer tells the removed informer's handlers that implement
// cache.StopHandler, once each, before it returns, with one namespace or
// several behind the informer.
func TestRemoveInformerTellsStopHandlersOnce(t *testing.T) {
	tests := []struct {
		name string
		opts []Option
	}{
		{"one namespace", nil},
		{"several namespaces", []Option{WithNamespaces("a", "b", "c")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tt.opts...)
			defer s.Shutdown()
			inf := s.InformerFor(&metav1.PartialObjectMetadata{}, metaInformer)
			h := &stopCounter{}
			if _, err := inf.AddEventHandler(h); err != nil {
				t.Fatal(err)
			}
			s.Start(t.Context())
			if err := s.WaitForCacheSync(t.Context()).AsError(); err != nil {
				t.Fatal(err)
			}
			if got := h.stops.Load(); got != 0 {
				t.Fatalf("OnStop called %d times while running", got)
			}
			if removed, err := s.RemoveInformer(t.Context(), &metav1.PartialObjectMetadata{}); !removed || err != nil {
				t.Fatalf("RemoveInformer = %t, %v", removed, err)
			}
			if got := h.stops.Load(); got != 1 {
				t.Errorf("OnStop called %d times by the time RemoveInformer returned, want 1", got)
			}
		})
	}
}
