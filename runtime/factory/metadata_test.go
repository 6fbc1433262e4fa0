package factory

import (
	"context"
	"slices"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
)

var (
	widgetsResource = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	nodesResource   = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}
)

// metadataClient serves one object with managedFields in each namespace
// it is asked for ("cluster" for metav1.NamespaceAll) and records the
// namespaces and label selectors of its lists.
type metadataClient struct {
	mu    sync.Mutex
	lists []string // "resource namespace selector"
}

func (c *metadataClient) List(_ context.Context, resource schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	c.mu.Lock()
	c.lists = append(c.lists, resource.Resource+" "+namespace+" "+opts.LabelSelector)
	c.mu.Unlock()
	name := namespace
	if name == metav1.NamespaceAll {
		name = "cluster"
	}
	item := metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, ResourceVersion: "1", ManagedFields: slices.Clone(twoManagers)}}
	// A fresh object per list, as a client decodes one: the informer owns
	// what it lists (the transform and compaction write to it).
	return &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: []metav1.PartialObjectMetadata{item}}, nil
}

func (c *metadataClient) Watch(ctx context.Context, _ schema.GroupVersionResource, _ string, _ metav1.ListOptions) (watch.Interface, error) {
	w := watch.NewFake()
	context.AfterFunc(ctx, w.Stop)
	return w, nil
}

// IsWatchListSemanticsUnSupported says that the client cannot stream
// lists, as client-go's fake metadata client does: informers list at once.
func (c *metadataClient) IsWatchListSemanticsUnSupported() bool { return true }

func (c *metadataClient) listed() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Clone(c.lists)
	slices.Sort(out)
	return out
}

// A factory makes one metadata-only informer per resource, apart from the
// typed informers, scoped by the factory's namespaces (namespaced resources
// only) and list options, with managedFields stripped unless
// WithManagedFields() keeps them; WaitForCacheSync reports it by resource.
func TestMetadataInformerForScopesSharesAndStrips(t *testing.T) {
	tweak := WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = "team=a" })
	tests := []struct {
		name       string
		opts       []Option
		resource   schema.GroupVersionResource
		namespaced bool
		wantLists  []string
		wantKeys   []string
		keepFields bool
	}{
		{name: "namespaced resource, every namespace", opts: []Option{tweak}, resource: widgetsResource, namespaced: true,
			wantLists: []string{"widgets  team=a"}, wantKeys: []string{"cluster"}},
		{name: "namespaced resource, factory namespaces", opts: []Option{WithNamespaces("a", "b")}, resource: widgetsResource, namespaced: true,
			wantLists: []string{"widgets a ", "widgets b "}, wantKeys: []string{"a/a", "b/b"}},
		{name: "cluster-scoped resource ignores namespaces", opts: []Option{WithNamespaces("a", "b")}, resource: nodesResource,
			wantLists: []string{"nodes  "}, wantKeys: []string{"cluster"}},
		{name: "WithManagedFields keeps them", opts: []Option{WithManagedFields()}, resource: nodesResource,
			wantLists: []string{"nodes  "}, wantKeys: []string{"cluster"}, keepFields: true},
		{name: "WithManagedFields of a type does not keep them", opts: []Option{WithManagedFields(&metav1.PartialObjectMetadata{})}, resource: nodesResource,
			wantLists: []string{"nodes  "}, wantKeys: []string{"cluster"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := &metadataClient{}
			s := New(tt.opts...)
			defer s.Shutdown()
			inf := s.MetadataInformerFor(client, tt.resource, tt.namespaced)
			if again := s.MetadataInformerFor(&metadataClient{}, tt.resource, tt.namespaced); again != inf {
				t.Error("a second request for the resource made a second informer")
			}
			typed := s.InformerFor(&metav1.PartialObjectMetadata{}, metaInformer)
			if typed == inf {
				t.Error("the typed informer of PartialObjectMetadata is the metadata-only informer")
			}
			s.Start(t.Context())
			res := s.WaitForCacheSync(t.Context())
			if err := res.AsError(); err != nil {
				t.Fatal(err)
			}
			if !res.SyncedMetadata[tt.resource] || len(res.SyncedMetadata) != 1 {
				t.Errorf("SyncedMetadata = %v, want only %v synced", res.SyncedMetadata, tt.resource)
			}
			if got := client.listed(); !slices.Equal(got, tt.wantLists) {
				t.Errorf("lists %q, want %q", got, tt.wantLists)
			}
			keys := inf.GetIndexer().ListKeys()
			slices.Sort(keys)
			if !slices.Equal(keys, tt.wantKeys) {
				t.Fatalf("cached keys %q, want %q", keys, tt.wantKeys)
			}
			for _, key := range keys {
				obj, _, _ := inf.GetIndexer().GetByKey(key)
				if got := len(obj.(*metav1.PartialObjectMetadata).ManagedFields); (got > 0) != tt.keepFields {
					t.Errorf("%s cached with %d managedFields entries, want kept=%t", key, got, tt.keepFields)
				}
			}
		})
	}
}

// RemoveMetadataInformer stops the resource's informer and forgets it; the
// next request makes a new one, and the typed informers are untouched.
func TestRemoveMetadataInformerStopsAndForgetsIt(t *testing.T) {
	s := New()
	defer s.Shutdown()
	client := &metadataClient{}
	inf := s.MetadataInformerFor(client, widgetsResource, true)
	typed := s.InformerFor(&metav1.PartialObjectMetadata{}, metaInformer)
	s.Start(t.Context())
	if err := s.WaitForCacheSync(t.Context()).AsError(); err != nil {
		t.Fatal(err)
	}
	removed, err := s.RemoveMetadataInformer(t.Context(), widgetsResource)
	if !removed || err != nil {
		t.Fatalf("RemoveMetadataInformer = %t, %v; want true, nil", removed, err)
	}
	if !inf.IsStopped() {
		t.Error("the removed informer is still running")
	}
	if typed.IsStopped() {
		t.Error("removing the metadata-only informer stopped the typed one")
	}
	if again := s.MetadataInformerFor(client, widgetsResource, true); again == inf {
		t.Error("after removal the factory handed out the removed informer")
	}
	if removed, err := s.RemoveMetadataInformer(t.Context(), nodesResource); removed || err != nil {
		t.Errorf("removing an informer never made = %t, %v; want false, nil", removed, err)
	}
}
