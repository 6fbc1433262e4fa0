package metadata

import (
	"context"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

var widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

func runSynced(t *testing.T, inf cache.SharedIndexInformer) {
	t.Helper()
	ctx := t.Context()
	done := make(chan struct{})
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	t.Cleanup(func() { <-done })
	if !cache.WaitForCacheSyncWithContext(ctx, inf.HasSynced) {
		t.Fatal("informer did not sync")
	}
}

// The informer lists and watches resource in its namespace through the
// client, with the tweak applied to both requests, and caches
// PartialObjectMetadata that the lister reads by namespace, selector and
// name.
func TestInformerListsWatchesAndListerReadsTheCache(t *testing.T) {
	client := &fakeClient{items: map[string][]metav1.PartialObjectMetadata{
		"a": {object("a", "one"), object("a", "two")},
		"b": {object("b", "three")},
	}}
	tweak := func(o *metav1.ListOptions) { o.LabelSelector = "tier=web" }
	inf := NewInformer(client, widgets, "a", 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, tweak)
	runSynced(t, inf)

	reqs := client.seen()
	if len(reqs) < 2 {
		t.Fatalf("requests %v, want a list and a watch", reqs)
	}
	for _, r := range reqs[:2] {
		if r.resource != widgets || r.namespace != "a" || r.opts.LabelSelector != "tier=web" {
			t.Errorf("%s of %v in %q with selector %q, want widgets in \"a\" with tier=web", r.verb, r.resource, r.namespace, r.opts.LabelSelector)
		}
	}

	l := NewLister(inf.GetIndexer(), widgets)
	tests := []struct {
		name string
		list func() ([]*metav1.PartialObjectMetadata, error)
		want int
	}{
		{"every namespace", func() ([]*metav1.PartialObjectMetadata, error) { return l.List(labels.Everything()) }, 2},
		{"one namespace", func() ([]*metav1.PartialObjectMetadata, error) { return l.Namespace("a").List(labels.Everything()) }, 2},
		{"a namespace not watched", func() ([]*metav1.PartialObjectMetadata, error) { return l.Namespace("b").List(labels.Everything()) }, 0},
		{"selector", func() ([]*metav1.PartialObjectMetadata, error) {
			return l.List(labels.SelectorFromSet(labels.Set{"app": "two"}))
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.list()
			if err != nil || len(got) != tt.want {
				t.Errorf("got %d objects (err %v), want %d", len(got), err, tt.want)
			}
		})
	}

	got, err := l.Namespace("a").Get("two")
	if err != nil || got.Name != "two" || got.Namespace != "a" {
		t.Errorf("Get(two) = %v, %v", got, err)
	}
	_, err = l.Namespace("a").Get("missing")
	if !apierrors.IsNotFound(err) {
		t.Fatalf("Get(missing) error %v, want NotFound", err)
	}
	if status := err.(apierrors.APIStatus).Status(); status.Details == nil || status.Details.Group != "example.com" || status.Details.Kind != "widgets" {
		t.Errorf("NotFound details %+v, want group example.com, resource widgets", status.Details)
	}

	ri := NewResourceInformer(inf, widgets)
	if ri.Informer() != inf {
		t.Error("NewResourceInformer(inf).Informer() is not inf")
	}
	if objs, err := ri.Lister().List(labels.Everything()); err != nil || len(objs) != 2 {
		t.Errorf("NewResourceInformer(inf).Lister().List = %d objects, %v; want 2", len(objs), err)
	}
}

// NewInformer keeps managedFields: stripping them is the factory's
// default, not the informer's.
func TestInformerKeepsManagedFields(t *testing.T) {
	client := &fakeClient{items: map[string][]metav1.PartialObjectMetadata{"a": {object("a", "one", "kube-scheduler", "kubelet")}}}
	inf := NewInformer(client, widgets, metav1.NamespaceAll, 0, nil, nil)
	runSynced(t, inf)
	obj, ok, err := inf.GetStore().GetByKey("a/one")
	if err != nil || !ok {
		t.Fatalf("a/one not cached: %v", err)
	}
	if got := len(obj.(*metav1.PartialObjectMetadata).ManagedFields); got != 2 {
		t.Errorf("cached %d managedFields entries, want 2", got)
	}
}

// streamingUnsupported is a fakeClient that says it cannot stream lists,
// as client-go's fake metadata client does.
type streamingUnsupported struct{ *fakeClient }

func (streamingUnsupported) IsWatchListSemanticsUnSupported() bool { return true }

// An informer asked to stream its initial list never asks a client that
// says it cannot stream, and gives up on one whose watch ignores
// sendInitialEvents after one try; both sync through a LIST.
func TestInformerListsWhenTheClientCannotStream(t *testing.T) {
	tests := []struct {
		name           string
		client         func(*fakeClient) Client
		wantWatchLists int
	}{
		{"client says it cannot stream", func(c *fakeClient) Client { return streamingUnsupported{c} }, 0},
		{"client's watch ignores sendInitialEvents", func(c *fakeClient) Client { return c }, 1},
	}
	pods := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := &fakeClient{items: map[string][]metav1.PartialObjectMetadata{"a": {object("a", "p1")}}}
			inf := NewInformerWithOptions(tt.client(fake), pods, "a", nil, cache.SharedIndexInformerOptions{UseWatchList: true})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); inf.RunWithContext(ctx) }()
			defer func() { cancel(); <-done }()
			guard, stop := context.WithTimeout(ctx, 10*time.Second) // a failure guard only
			defer stop()
			if !cache.WaitForCacheSyncWithContext(guard, inf.HasSynced) {
				t.Fatal("the informer did not sync")
			}
			lists, watchLists := 0, 0
			for _, r := range fake.seen() {
				switch {
				case r.verb == "list":
					lists++
				case r.opts.SendInitialEvents != nil && *r.opts.SendInitialEvents:
					watchLists++
				}
			}
			if lists != 1 || watchLists != tt.wantWatchLists {
				t.Errorf("%d lists and %d watch lists, want 1 and %d", lists, watchLists, tt.wantWatchLists)
			}
		})
	}
}
