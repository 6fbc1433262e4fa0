package e2e

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
)

// nextEvent returns the next event of w or fails t after a generous wait.
func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("watch closed early")
		}
		return ev
	case <-time.After(time.Minute):
		t.Fatal("no watch event within a minute")
	}
	panic("unreachable")
}

// The harness itself: the generated clientset lists and watches the CRDs
// installed on the real API server, status goes through the subresource,
// and the cluster-scoped kind works without a namespace.
func TestGeneratedClientsetListsAndWatchesCRDs(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	createNamespaces(t, cfg, "clientset")
	cs := clientset(t, cfg)
	ctx := t.Context()
	widgets := cs.StableV1().Widgets("clientset")

	list, err := widgets.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := widgets.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	created, err := widgets.Create(ctx, &stablev1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: "w1"},
		Spec:       stablev1.WidgetSpec{Size: 3, Color: "green"},
		Status:     stablev1.WidgetStatus{Phase: "ignored on create"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if created.Status.Phase != "" {
		t.Errorf("status set through the main resource: %q (status subresource not enabled?)", created.Status.Phase)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Added || ev.Object.(*stablev1.Widget).Name != "w1" {
		t.Fatalf("first event = %s %T, want ADDED w1", ev.Type, ev.Object)
	}

	created.Status.Phase = "Ready"
	updated, err := widgets.UpdateStatus(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if updated.Status.Phase != "Ready" || updated.ResourceVersion == created.ResourceVersion {
		t.Fatalf("UpdateStatus returned phase %q rv %s (was %s)", updated.Status.Phase, updated.ResourceVersion, created.ResourceVersion)
	}
	ev := nextEvent(t, w)
	if got := ev.Object.(*stablev1.Widget); ev.Type != watch.Modified || got.ResourceVersion != updated.ResourceVersion || got.Status.Phase != "Ready" {
		t.Fatalf("second event = %s rv %s phase %q, want MODIFIED rv %s phase Ready", ev.Type, got.ResourceVersion, got.Status.Phase, updated.ResourceVersion)
	}

	if err := widgets.Delete(ctx, "w1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Deleted {
		t.Fatalf("third event = %s, want DELETED", ev.Type)
	}

	gadgets := cs.StableV1().Gadgets()
	g, err := gadgets.Create(ctx, &stablev1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "clientset-g1"}, Spec: stablev1.GadgetSpec{Model: "m", Replicas: 2}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Namespace != "" {
		t.Errorf("cluster-scoped Gadget got namespace %q", g.Namespace)
	}
	got, err := gadgets.Get(ctx, "clientset-g1", metav1.GetOptions{})
	if err != nil || got.Spec != g.Spec {
		t.Fatalf("Get gadget = %+v, %v; want spec %+v", got, err, g.Spec)
	}
	if err := gadgets.Delete(ctx, "clientset-g1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}
