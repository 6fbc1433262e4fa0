package factory

import (
	"context"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// ResourceInformerFor keeps one informer per resource for informers that
// all cache one Go type, apart from the typed informer of that type;
// namespaced resources get the factory's namespaces, cluster-scoped ones
// every namespace; WaitForCacheSync reports them by resource.
func TestResourceInformerForKeepsOneInformerPerResource(t *testing.T) {
	tests := []struct {
		name       string
		opts       []Option
		namespaced bool
		wantNS     []string
	}{
		{name: "every namespace", namespaced: true, wantNS: []string{""}},
		{name: "the factory's namespaces", opts: []Option{WithNamespaces("a", "b")}, namespaced: true, wantNS: []string{"a", "b"}},
		{name: "cluster-scoped ignores namespaces", opts: []Option{WithNamespaces("a", "b")}, wantNS: []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tt.opts...)
			defer s.Shutdown()
			var namespaces []string
			newInformer := func(c InformerConfig) cache.SharedIndexInformer {
				namespaces = append(namespaces, c.Namespace)
				return unstructuredInformer(c)
			}
			u := &unstructured.Unstructured{}
			widgets := s.ResourceInformerFor(u, widgetsResource, tt.namespaced, newInformer)
			if again := s.ResourceInformerFor(u, widgetsResource, tt.namespaced, newInformer); again != widgets {
				t.Error("a second request for the resource made a second informer")
			}
			nodes := s.ResourceInformerFor(u, nodesResource, false, unstructuredInformer)
			if nodes == widgets || s.InformerFor(u, unstructuredInformer) == widgets {
				t.Error("two resources, or the typed informer of the type, share an informer")
			}
			if !slices.Equal(namespaces, tt.wantNS) {
				t.Errorf("made for namespaces %q, want %q", namespaces, tt.wantNS)
			}
			s.Start(t.Context())
			res := s.WaitForCacheSync(t.Context())
			if err := res.AsError(); err != nil {
				t.Fatal(err)
			}
			want := map[schema.GroupVersionResource]bool{widgetsResource: true, nodesResource: true}
			if len(res.SyncedResources) != 2 || !res.SyncedResources[widgetsResource] || !res.SyncedResources[nodesResource] || len(res.Synced) != 1 {
				t.Errorf("SyncedResources = %v, Synced = %v; want %v and the typed informer", res.SyncedResources, res.Synced, want)
			}
			if removed, err := s.RemoveResourceInformer(context.Background(), u, widgetsResource); !removed || err != nil {
				t.Fatalf("RemoveResourceInformer = %t, %v", removed, err)
			}
			if !widgets.IsStopped() || nodes.IsStopped() {
				t.Errorf("after removing widgets: widgets stopped %t, nodes stopped %t; want true, false", widgets.IsStopped(), nodes.IsStopped())
			}
			if s.ResourceInformerFor(u, widgetsResource, tt.namespaced, newInformer) == widgets {
				t.Error("the removed informer is handed out again")
			}
		})
	}
}
