package e2e

import (
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
)

// WithByObject narrows one type's cache to its own namespaces and label
// selector on a real server; RemoveInformer stops that informer and drops
// it, and the type's next informer starts afresh.
func TestFactoryScopesATypeAndRemovesItsInformer(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	cs := clientset(t, cfg)
	namespaces := []string{"scope-a", "scope-b"}
	createNamespaces(t, cfg, namespaces...)
	ctx := t.Context()
	create := func(ns, name, pick string) {
		t.Helper()
		if _, err := cs.StableV1().Widgets(ns).Create(ctx, &stablev1.Widget{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"pick": pick}},
		}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, ns := range namespaces {
		for i := range 6 {
			create(ns, fmt.Sprintf("w-%d", i), fmt.Sprint(i%2 == 0))
		}
	}

	f := externalversions.NewSharedInformerFactoryWithOptions(cs, 0,
		externalversions.WithByObject(&stablev1.Widget{}, factory.ByObject{Namespaces: []string{"scope-a"}, LabelSelector: "pick=true"}))
	t.Cleanup(f.Shutdown)
	first := f.Stable().V1().Widgets()
	firstInformer := first.Informer() // requested before Start, so Start runs it
	told := &stopTold{}
	if _, err := firstInformer.AddEventHandler(told); err != nil {
		t.Fatal(err)
	}
	f.StartWithContext(ctx)
	if err := f.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
		t.Fatal(err)
	}
	cachedNames := func(l interface {
		List(labels.Selector) ([]*stablev1.Widget, error)
	}) []string {
		t.Helper()
		ws, err := l.List(labels.Everything())
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, w := range ws {
			names = append(names, w.Namespace+"/"+w.Name)
		}
		slices.Sort(names)
		return names
	}
	want := []string{"scope-a/w-0", "scope-a/w-2", "scope-a/w-4"}
	if got := cachedNames(first.Lister()); !slices.Equal(got, want) {
		t.Fatalf("scoped cache holds %v, want %v", got, want)
	}

	removed, err := externalversions.RemoveInformer(ctx, f, &stablev1.Widget{})
	if err != nil || !removed {
		t.Fatalf("RemoveInformer = %t, %v; want true, nil", removed, err)
	}
	if !firstInformer.IsStopped() {
		t.Fatal("the removed informer still runs")
	}
	if n := told.stops.Load(); n != 1 {
		t.Errorf("the removed informer's StopHandler was told %d times by the time RemoveInformer returned, want 1", n)
	}
	if _, err := firstInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{}); err == nil {
		t.Error("adding a handler to the removed informer succeeded")
	}

	create("scope-a", "w-6", "true")
	// The accessor asks the factory again: a new informer for the type.
	second := f.Stable().V1().Widgets()
	if second.Informer() == firstInformer {
		t.Fatal("the type's informer after removal is the removed one")
	}
	f.StartWithContext(ctx)
	if err := f.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
		t.Fatal(err)
	}
	want = append(want, "scope-a/w-6")
	if got := cachedNames(second.Lister()); !slices.Equal(got, want) {
		t.Fatalf("new informer's cache holds %v, want %v", got, want)
	}
}

// stopTold is a handler that counts OnStop (cache.StopHandler).
type stopTold struct {
	cache.ResourceEventHandlerFuncs
	stops atomic.Int32
}

func (s *stopTold) OnStop() { s.stops.Add(1) }
