package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/metadata"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	"github.com/informer-gen/informer-gen/runtime/cache"
)

// A metadata-only informer from the generated factory lists and watches a
// real server's objects as PartialObjectMetadata: namespaced resources in
// the factory's namespaces, cluster-scoped ones cluster-wide, labels kept
// and managedFields dropped, changes and deletes delivered to handlers,
// apart from the typed informer of the same resource.
func TestGeneratedFactoryMetadataInformerServesServerObjects(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	cs := clientset(t, cfg)
	ctx := t.Context()
	namespaces := []string{"metadata-a", "metadata-b", "metadata-unwatched"}
	createNamespaces(t, cfg, namespaces...)
	const perNamespace = 5
	for _, ns := range namespaces {
		widgets := cs.StableV1().Widgets(ns)
		for j := range perNamespace {
			name := fmt.Sprintf("w-%d", j)
			if _, err := widgets.Create(ctx, &stablev1.Widget{
				ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "metadata-e2e", "index": fmt.Sprint(j)}},
				Spec:       stablev1.WidgetSpec{Size: int32(j), Color: "red"},
			}, metav1.CreateOptions{FieldManager: "e2e-creator"}); err != nil {
				t.Fatal(err)
			}
			if _, err := widgets.Patch(ctx, name, types.MergePatchType, []byte(`{"status":{"phase":"Ready"}}`),
				metav1.PatchOptions{FieldManager: "e2e-status-writer"}, "status"); err != nil {
				t.Fatal(err)
			}
		}
	}
	gadgetNames := []string{"metadata-gadget-0", "metadata-gadget-1"}
	for _, name := range gadgetNames {
		if _, err := cs.StableV1().Gadgets().Create(ctx, &stablev1.Gadget{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "metadata-e2e"}},
			Spec:       stablev1.GadgetSpec{Model: "m", Replicas: 1},
		}, metav1.CreateOptions{FieldManager: "e2e-creator"}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cs.StableV1().Gadgets().Delete(context.Background(), name, metav1.DeleteOptions{}) })
	}

	plain := externalversions.NewSharedInformerFactory(cs, 0)
	if _, err := externalversions.ForMetadata(plain, stablev1.SchemeGroupVersion.WithResource("widgets")); err == nil || !strings.Contains(err.Error(), "WithMetadataClient") {
		t.Errorf("ForMetadata on a factory without a metadata client: error %v, want one that names WithMetadataClient", err)
	}

	f := externalversions.NewSharedInformerFactoryWithOptions(cs, 0,
		externalversions.WithNamespaces(namespaces[0], namespaces[1]),
		externalversions.WithMetadataClient(metadata.NewForConfigOrDie(cfg)))
	t.Cleanup(f.Shutdown)
	widgetsResource := stablev1.SchemeGroupVersion.WithResource("widgets")
	widgetsMeta, err := externalversions.ForMetadata(f, widgetsResource)
	if err != nil {
		t.Fatal(err)
	}
	gadgetsMeta, err := externalversions.ForMetadata(f, stablev1.SchemeGroupVersion.WithResource("gadgets"))
	if err != nil {
		t.Fatal(err)
	}
	if widgetsMeta.Informer() == f.Stable().V1().Widgets().Informer() {
		t.Fatal("the metadata-only informer of widgets is the typed one")
	}

	var mu sync.Mutex
	var events []string // "update name label" and "delete name", after the first list
	if _, err := widgetsMeta.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj any) {
			m := obj.(*metav1.PartialObjectMetadata)
			mu.Lock()
			defer mu.Unlock()
			events = append(events, fmt.Sprintf("update %s/%s %s managedFields=%d", m.Namespace, m.Name, m.Labels["phase"], len(m.ManagedFields)))
		},
		DeleteFunc: func(obj any) {
			m := obj.(*metav1.PartialObjectMetadata)
			mu.Lock()
			defer mu.Unlock()
			events = append(events, "delete "+m.Namespace+"/"+m.Name)
		},
	}); err != nil {
		t.Fatal(err)
	}
	f.StartWithContext(ctx)
	syncCtx, cancel := context.WithTimeout(ctx, convergeTimeout)
	defer cancel()
	res := f.WaitForCacheSyncWithContext(syncCtx)
	if err := res.AsError(); err != nil {
		t.Fatal(err)
	}
	if !res.SyncedMetadata[widgetsResource] {
		t.Errorf("SyncedMetadata = %v, want widgets synced", res.SyncedMetadata)
	}

	lister := widgetsMeta.Lister()
	selector := labels.SelectorFromSet(labels.Set{"app": "metadata-e2e"})
	// A first list may be served from the watch cache a little behind the
	// writes above; the watch brings the rest.
	if err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, convergeTimeout, true, func(context.Context) (bool, error) {
		w, _ := lister.List(selector)
		g, _ := gadgetsMeta.Lister().List(selector)
		return len(w) >= 2*perNamespace && len(g) >= len(gadgetNames), nil
	}); err != nil {
		t.Fatalf("the metadata-only caches never held every widget and gadget: %v", err)
	}
	for _, tc := range []struct {
		namespace string
		want      int
	}{{namespaces[0], perNamespace}, {namespaces[1], perNamespace}, {namespaces[2], 0}} {
		got, err := lister.Namespace(tc.namespace).List(selector)
		if err != nil || len(got) != tc.want {
			t.Errorf("namespace %s: %d widgets cached (err %v), want %d", tc.namespace, len(got), err, tc.want)
		}
	}
	all, err := lister.List(selector)
	if err != nil || len(all) != 2*perNamespace {
		t.Fatalf("%d widgets cached in all (err %v), want %d", len(all), err, 2*perNamespace)
	}
	for _, m := range all {
		if len(m.ManagedFields) != 0 || m.Labels["index"] == "" || m.UID == "" || m.ResourceVersion == "" {
			t.Errorf("cached %s/%s: managedFields %d, labels %v, uid %q, rv %q; want metadata without managedFields",
				m.Namespace, m.Name, len(m.ManagedFields), m.Labels, m.UID, m.ResourceVersion)
		}
	}
	gadgets, err := gadgetsMeta.Lister().List(selector)
	if err != nil {
		t.Fatal(err)
	}
	var gotGadgets []string
	for _, g := range gadgets {
		gotGadgets = append(gotGadgets, g.Name)
	}
	slices.Sort(gotGadgets)
	if !slices.Equal(gotGadgets, gadgetNames) {
		t.Errorf("cluster-scoped gadgets cached %v, want %v (cluster-wide despite the factory's namespaces)", gotGadgets, gadgetNames)
	}

	widgets := cs.StableV1().Widgets(namespaces[0])
	if _, err := widgets.Patch(ctx, "w-1", types.MergePatchType, []byte(`{"metadata":{"labels":{"phase":"patched"}}}`),
		metav1.PatchOptions{FieldManager: "e2e-labeler"}); err != nil {
		t.Fatal(err)
	}
	if err := widgets.Delete(ctx, "w-2", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	want := []string{"update metadata-a/w-1 patched managedFields=0", "delete metadata-a/w-2"}
	if err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, convergeTimeout, true, func(context.Context) (bool, error) {
		mu.Lock()
		defer mu.Unlock()
		return slices.Equal(events, want), nil
	}); err != nil {
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("handler saw %q, want %q", events, want)
	}
	if _, err := lister.Namespace(namespaces[0]).Get("w-2"); err == nil {
		t.Error("the deleted widget is still cached")
	}
}
