package cache

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
)

func withUID(o *metav1.PartialObjectMetadata, uid string) *metav1.PartialObjectMetadata {
	o.UID = types.UID(uid)
	return o
}

func page(continueToken string, objs ...*metav1.PartialObjectMetadata) *metav1.PartialObjectMetadataList {
	l := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "9", Continue: continueToken}}
	for _, o := range objs {
		l.Items = append(l.Items, *o)
	}
	return l
}

// A relist through a Reflector into a DeltaFIFO prepares each page as it
// arrives: an object the cache holds at the same resourceVersion is queued
// as the cached object itself and never transformed, every other object is
// transformed exactly once, before the next page is requested; deletions
// are found as by Replace.
func TestReflectorRelistIntoDeltaFIFOPreparesPagesAsTheyArrive(t *testing.T) {
	indexer := NewIndexer(MetaNamespaceKeyFunc, Indexers{})
	cached := map[string]*metav1.PartialObjectMetadata{
		"ns/same":    withUID(testObject("ns", "same", "5"), "u-same"),
		"ns/changed": withUID(testObject("ns", "changed", "5"), "u-changed"),
		"ns/queued":  withUID(testObject("ns", "queued", "5"), "u-queued"),
		"ns/renewed": withUID(testObject("ns", "renewed", "5"), "u-renewed-old"),
		"ns/gone":    withUID(testObject("ns", "gone", "5"), "u-gone"),
	}
	for _, o := range cached {
		if err := indexer.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	var transforms atomic.Int64
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: indexer, Transformer: func(obj any) (any, error) {
		transforms.Add(1)
		o := obj.(*metav1.PartialObjectMetadata).DeepCopy()
		o.Annotations = map[string]string{"transformed": "yes"}
		return o, nil
	}})
	// "queued" has a delta waiting: the cache's object for it is stale.
	if err := fifo.Update(withUID(testObject("ns", "queued", "5"), "u-queued")); err != nil {
		t.Fatal(err)
	}
	transforms.Store(0)

	pages := map[string]*metav1.PartialObjectMetadataList{
		"": page("p2",
			withUID(testObject("ns", "same", "5"), "u-same"),
			withUID(testObject("ns", "changed", "6"), "u-changed")),
		"p2": page("",
			withUID(testObject("ns", "queued", "5"), "u-queued"),
			withUID(testObject("ns", "renewed", "5"), "u-renewed-new"),
			withUID(testObject("ns", "new", "7"), "u-new")),
	}
	var transformsBeforePage2 int64 = -1
	lw := &ListWatch{
		ListWithContextFunc: func(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			if opts.Continue == "p2" {
				transformsBeforePage2 = transforms.Load()
			}
			return pages[opts.Continue].DeepCopy(), nil
		},
		WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
	}
	r := NewReflectorWithOptions(lw, &metav1.PartialObjectMetadata{}, fifo, ReflectorOptions{PageSize: 2})
	if err := r.engine.List(t.Context(), "0"); err != nil {
		t.Fatal(err)
	}
	if transformsBeforePage2 != 1 {
		t.Errorf("%d transforms before the second page was requested, want 1 (the first page's changed object)", transformsBeforePage2)
	}
	if got := transforms.Load(); got != 4 {
		t.Errorf("%d transforms for the list, want 4 (every listed object but the unchanged cached one)", got)
	}

	got := map[string]Deltas{}
	for fifo.Len() > 0 {
		if _, err := fifo.popBatch(0, func(pb queue.Batch) {
			batch := pb.Items
			for _, p := range batch {
				got[p.Key] = append(Deltas(nil), p.Deltas...) // popped entries are recycled
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		key         string
		typ         DeltaType
		cachedObj   bool // the delta holds the cache's own object
		transformed bool
	}{
		{"ns/same", Replaced, true, false},
		{"ns/changed", Replaced, false, true},
		{"ns/queued", Replaced, false, true},
		{"ns/renewed", Replaced, false, true},
		{"ns/new", Replaced, false, true},
		{"ns/gone", Deleted, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			ds, ok := got[tt.key]
			if !ok {
				t.Fatalf("%s not queued", tt.key)
			}
			d := ds.Newest()
			if d.Type != tt.typ {
				t.Fatalf("newest delta %s, want %s", d.Type, tt.typ)
			}
			if tt.typ == Deleted {
				return
			}
			o := d.Object.(*metav1.PartialObjectMetadata)
			if isCached := o == cached[tt.key]; isCached != tt.cachedObj {
				t.Errorf("delta holds the cached object: %t, want %t", isCached, tt.cachedObj)
			}
			if isTransformed := o.Annotations["transformed"] == "yes"; isTransformed != tt.transformed {
				t.Errorf("delta object transformed: %t, want %t", isTransformed, tt.transformed)
			}
		})
	}
	if len(got) != len(tests) {
		t.Errorf("queued keys %v, want %d", got, len(tests))
	}
}

// endOfInitialEvents is the bookmark that ends a watch list's initial
// events at resourceVersion rv.
func endOfInitialEvents(rv string) watch.Event {
	return watch.Event{Type: watch.Bookmark, Object: &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
		ResourceVersion: rv, Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}}}
}

// A watch list into a DeltaFIFO prepares each object as its event arrives,
// as a paged list does; an object whose transform fails fails the whole
// watch list rather than going missing from it (which would delete it from
// the cache).
func TestReflectorWatchListIntoDeltaFIFOPreparesObjects(t *testing.T) {
	tests := []struct {
		name    string
		failOn  string // the transform fails on this object
		wantErr bool
	}{
		{name: "unchanged object queued as the cached one, others transformed"},
		{name: "a failed transform fails the watch list", failOn: "changed", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			indexer := NewIndexer(MetaNamespaceKeyFunc, Indexers{})
			same := withUID(testObject("ns", "same", "5"), "u-same")
			if err := indexer.Add(same); err != nil {
				t.Fatal(err)
			}
			fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: indexer, Transformer: func(obj any) (any, error) {
				o := obj.(*metav1.PartialObjectMetadata).DeepCopy()
				if o.Name == tt.failOn {
					return nil, errTransform
				}
				o.Annotations = map[string]string{"transformed": "yes"}
				return o, nil
			}})
			w := watch.NewFakeWithChanSize(4, false)
			w.Add(withUID(testObject("ns", "same", "5"), "u-same"))
			w.Add(withUID(testObject("ns", "changed", "6"), "u-changed"))
			w.Action(watch.Bookmark, endOfInitialEvents("9").Object)
			lw := &ListWatch{
				ListWithContextFunc:  func(context.Context, metav1.ListOptions) (runtime.Object, error) { return page(""), nil },
				WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) { return w, nil },
			}
			r := NewReflectorWithOptions(lw, &metav1.PartialObjectMetadata{}, fifo, ReflectorOptions{UseWatchList: true})
			_, err := r.engine.WatchList(t.Context(), "")
			if tt.wantErr {
				if err == nil || fifo.Len() != 0 {
					t.Fatalf("watch list error %v with %d keys queued, want an error and nothing queued", err, fifo.Len())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]any{}
			if _, err := fifo.popBatch(0, func(pb queue.Batch) {
				batch := pb.Items
				for _, p := range batch {
					got[p.Key] = p.Deltas.Newest().Object
				}
			}); err != nil {
				t.Fatal(err)
			}
			if got["ns/same"] != any(same) {
				t.Errorf("unchanged object queued as %p, want the cached %p", got["ns/same"], same)
			}
			if o, ok := got["ns/changed"].(*metav1.PartialObjectMetadata); !ok || o.Annotations["transformed"] != "yes" {
				t.Errorf("changed object queued as %#v, want it transformed", got["ns/changed"])
			}
		})
	}
}

var errTransform = errors.New("transform failed")

// Replace called directly is all or nothing too: a failed transform
// queues nothing and leaves the caller's list as it was.
func TestDeltaFIFOReplaceWithAFailedTransformQueuesNothing(t *testing.T) {
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: NewIndexer(MetaNamespaceKeyFunc, Indexers{}), Transformer: func(obj any) (any, error) {
		if obj.(*metav1.PartialObjectMetadata).Name == "bad" {
			return nil, errTransform
		}
		return obj.(*metav1.PartialObjectMetadata).DeepCopy(), nil
	}})
	good := testObject("ns", "good", "1")
	list := []any{good, testObject("ns", "bad", "1")}
	if err := fifo.Replace(list, "1"); !errors.Is(err, errTransform) {
		t.Fatalf("Replace error %v, want the transform's", err)
	}
	if fifo.Len() != 0 || fifo.HasSynced() {
		t.Errorf("after a failed Replace: %d keys queued, HasSynced %t; want none and false", fifo.Len(), fifo.HasSynced())
	}
	if list[0] != any(good) {
		t.Error("Replace changed the caller's list")
	}
}
