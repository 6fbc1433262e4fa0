package e2e

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	"github.com/informer-gen/informer-gen/runtime/cache"
)

// Objects written by two field managers carry managedFields on the server.
// The generated factory's informers drop them by default, from listed and
// watched objects alike; WithManagedFields keeps them.
func TestFactoryStripsManagedFieldsFromServerObjectsUnlessKept(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	cs := clientset(t, cfg)
	tests := []struct {
		name string
		opts []externalversions.SharedInformerOption
		keep bool
	}{
		{"default strips them", nil, false},
		{"WithManagedFields keeps them", []externalversions.SharedInformerOption{externalversions.WithManagedFields()}, true},
		{"WithManagedFields of Widget keeps them", []externalversions.SharedInformerOption{externalversions.WithManagedFields(&stablev1.Widget{})}, true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := fmt.Sprintf("managed-fields-%d", i)
			createNamespaces(t, cfg, ns)
			ctx := t.Context()
			widgets := cs.StableV1().Widgets(ns)
			const n = 20
			for j := range n {
				name := fmt.Sprintf("w-%02d", j)
				if _, err := widgets.Create(ctx, &stablev1.Widget{
					ObjectMeta: metav1.ObjectMeta{Name: name},
					Spec:       stablev1.WidgetSpec{Size: int32(j), Color: "red"},
				}, metav1.CreateOptions{FieldManager: "e2e-creator"}); err != nil {
					t.Fatal(err)
				}
				if _, err := widgets.Patch(ctx, name, types.MergePatchType, []byte(`{"status":{"phase":"Ready"}}`),
					metav1.PatchOptions{FieldManager: "e2e-status-writer"}, "status"); err != nil {
					t.Fatal(err)
				}
			}
			onServer, err := widgets.Get(ctx, "w-00", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(onServer.ManagedFields) < 2 {
				t.Fatalf("server holds %d managedFields entries for w-00, want one per manager", len(onServer.ManagedFields))
			}

			f := externalversions.NewSharedInformerFactoryWithOptions(cs, 0, append(tt.opts, externalversions.WithNamespace(ns))...)
			inf := f.Stable().V1().Widgets()
			var mu sync.Mutex
			handlerSaw := map[string]int{} // name@resourceVersion -> managedFields entries
			if _, err := inf.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
				AddFunc: func(obj any) {
					w := obj.(*stablev1.Widget)
					mu.Lock()
					defer mu.Unlock()
					handlerSaw[w.Name+"@"+w.ResourceVersion] = len(w.ManagedFields)
				},
				UpdateFunc: func(_, obj any) {
					w := obj.(*stablev1.Widget)
					mu.Lock()
					defer mu.Unlock()
					handlerSaw[w.Name+"@"+w.ResourceVersion] = len(w.ManagedFields)
				},
			}); err != nil {
				t.Fatal(err)
			}
			f.StartWithContext(ctx)
			t.Cleanup(f.Shutdown)
			if err := f.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
				t.Fatal(err)
			}
			// A watched change, by a third manager.
			updated, err := widgets.Patch(ctx, "w-01", types.MergePatchType, []byte(`{"spec":{"color":"blue"}}`),
				metav1.PatchOptions{FieldManager: "e2e-painter"})
			if err != nil {
				t.Fatal(err)
			}
			watchedKey := "w-01@" + updated.ResourceVersion
			if err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, convergeTimeout, true, func(context.Context) (bool, error) {
				mu.Lock()
				defer mu.Unlock()
				_, ok := handlerSaw[watchedKey]
				return ok, nil
			}); err != nil {
				t.Fatalf("the handler never saw %s: %v", watchedKey, err)
			}

			cached, err := inf.Lister().Widgets(ns).List(labels.Everything())
			if err != nil {
				t.Fatal(err)
			}
			if len(cached) != n {
				t.Fatalf("lister holds %d widgets, want %d", len(cached), n)
			}
			for _, w := range cached {
				if got := len(w.ManagedFields); (got > 0) != tt.keep {
					t.Errorf("cached %s/%s has %d managedFields entries, want kept=%t", ns, w.Name, got, tt.keep)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			for key, got := range handlerSaw {
				if (got > 0) != tt.keep {
					t.Errorf("handler saw %s with %d managedFields entries, want kept=%t", key, got, tt.keep)
				}
			}
		})
	}
}
