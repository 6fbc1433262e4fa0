package clientgodyn

import (
	"context"
	"slices"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic/dynamicinformer"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/metadata/fake"
	"k8s.io/client-go/metadata/metadatainformer"
)

var (
	widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	gadgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"}
)

func owner(name string, uid types.UID) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace("a")
	u.SetName(name)
	u.SetUID(uid)
	return u
}

func dependent(name string, owner types.UID) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta: metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Gadget"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: name,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "example.com/v1", Kind: "Widget", Name: "w", UID: owner}}},
	}
}

func TestMonitorFindsDependentsAndSeesOwnersDeleted(t *testing.T) {
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{widgets: "WidgetList"}, owner("w1", "u1"), owner("w2", "u2"))
	scheme := fake.NewTestScheme()
	if err := metav1.AddMetaToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	md := fake.NewSimpleMetadataClient(scheme, dependent("g1", "u1"), dependent("g2", "u1"), dependent("g3", "u2"))
	dynFactory := dynamicinformer.NewDynamicSharedInformerFactory(dyn, 0)
	mdFactory := metadatainformer.NewSharedInformerFactory(md, 0)
	m, err := New(dynFactory, mdFactory, widgets, gadgets)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dynFactory.Start(ctx.Done())
	mdFactory.Start(ctx.Done())
	defer func() { cancel(); dynFactory.Shutdown(); mdFactory.Shutdown() }()
	if synced := dynFactory.WaitForCacheSync(ctx.Done()); !synced[widgets] {
		t.Fatalf("dynamic informers synced: %v", synced)
	}
	if synced := mdFactory.WaitForCacheSync(ctx.Done()); !synced[gadgets] {
		t.Fatalf("metadata informers synced: %v", synced)
	}

	got, err := m.Dependents("a", "w1")
	if err != nil || !slices.Equal(got, []string{"g1", "g2"}) {
		t.Errorf("Dependents(a/w1) = %q, %v; want [g1 g2]", got, err)
	}
	if n, err := m.DependentsIn("a"); err != nil || n != 3 {
		t.Errorf("DependentsIn(a) = %d, %v; want 3", n, err)
	}
	_, err = m.Dependents("a", "missing")
	if !apierrors.IsNotFound(err) || err.Error() != `widgets.example.com "missing" not found` {
		t.Errorf("Dependents(a/missing) error %v, want the lister's NotFound", err)
	}

	if err := dyn.Resource(widgets).Namespace("a").Delete(ctx, "w2", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	for !slices.Equal(m.Deleted(), []string{"a/w2"}) {
		select {
		case <-ctx.Done():
			t.Fatalf("deleted owners %q, want [a/w2]", m.Deleted())
		case <-time.After(time.Millisecond):
		}
	}
}
