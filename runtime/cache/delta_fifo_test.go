package cache

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
)

// popAll pops every queued key of f, recording the batches.
func popAll(t *testing.T, f *DeltaFIFO) []queue.Popped {
	t.Helper()
	var out []queue.Popped
	for f.Len() > 0 {
		_, err := f.popBatch(0, func(pb queue.Batch) {
			batch := pb.Items
			for _, p := range batch {
				out = append(out, queue.Popped{Key: p.Key, Deltas: append(Deltas(nil), p.Deltas...), InitialDeltas: p.InitialDeltas})
			}
		})
		if err != nil {
			t.Fatalf("popBatch: %v", err)
		}
	}
	return out
}

// deltaTypes renders popped items as key -> delta types.
func deltaTypes(popped []queue.Popped) map[string][]DeltaType {
	out := map[string][]DeltaType{}
	for _, p := range popped {
		for _, d := range p.Deltas {
			out[p.Key] = append(out[p.Key], d.Type)
		}
	}
	return out
}

func poppedKeys(popped []queue.Popped) []string {
	var keys []string
	for _, p := range popped {
		keys = append(keys, p.Key)
	}
	return keys
}

func TestDeltaFIFOPopsKeysInFirstQueuedOrderWithAllTheirDeltas(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	mustNoErr(t, f.Add(testObject("ns", "b", "1")))
	mustNoErr(t, f.Add(testObject("ns", "a", "2")))
	mustNoErr(t, f.Update(testObject("ns", "b", "3")))
	mustNoErr(t, f.Delete(testObject("ns", "a", "4")))
	popped := popAll(t, f)
	if got, want := poppedKeys(popped), []string{"ns/b", "ns/a"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("keys = %v, want %v", got, want)
	}
	want := map[string][]DeltaType{"ns/b": {Added, Updated}, "ns/a": {Added, Deleted}}
	if got := deltaTypes(popped); !reflect.DeepEqual(got, want) {
		t.Fatalf("deltas = %v, want %v", got, want)
	}
}

func TestDeltaFIFOMergesConsecutiveDeletesKeepingTheObservedState(t *testing.T) {
	known := NewIndexer(MetaNamespaceKeyFunc, nil)
	mustNoErr(t, known.Add(testObject("ns", "a", "1")))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
	real := testObject("ns", "a", "2")
	mustNoErr(t, f.Delete(DeletedFinalStateUnknown{Key: "ns/a", Obj: testObject("ns", "a", "1")}))
	mustNoErr(t, f.Delete(real))
	mustNoErr(t, f.Delete(DeletedFinalStateUnknown{Key: "ns/a", Obj: testObject("ns", "a", "1")}))
	popped := popAll(t, f)
	if len(popped) != 1 || len(popped[0].Deltas) != 1 {
		t.Fatalf("popped %+v, want one key with one delta", popped)
	}
	if got := popped[0].Deltas[0].Object; got != real {
		t.Fatalf("kept %#v, want the observed final state", got)
	}
}

func TestDeltaFIFOIgnoresDeleteOfUnknownKey(t *testing.T) {
	tests := []struct {
		name  string
		known KeyListerGetter
	}{
		{"no known objects", nil},
		{"empty cache", NewIndexer(MetaNamespaceKeyFunc, nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: tt.known})
			mustNoErr(t, f.Delete(testObject("ns", "a", "1")))
			if f.Len() != 0 {
				t.Fatalf("Len = %d, want 0", f.Len())
			}
		})
	}
}

func TestDeltaFIFOReplaceTombstonesKeysMissingFromTheList(t *testing.T) {
	known := NewIndexer(MetaNamespaceKeyFunc, nil)
	cachedGone := testObject("ns", "cached-gone", "1")
	mustNoErr(t, known.Add(cachedGone))
	mustNoErr(t, known.Add(testObject("ns", "kept", "1")))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
	queuedGone := testObject("ns", "queued-gone", "5")
	mustNoErr(t, f.Add(testObject("ns", "queued-gone", "4")))
	mustNoErr(t, f.Update(queuedGone))

	mustNoErr(t, f.Replace([]any{testObject("ns", "kept", "2"), testObject("ns", "new", "3")}, "10"))
	popped := popAll(t, f)
	got := deltaTypes(popped)
	want := map[string][]DeltaType{
		"ns/queued-gone": {Added, Updated, Deleted},
		"ns/kept":        {Replaced},
		"ns/new":         {Replaced},
		"ns/cached-gone": {Deleted},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("deltas = %v, want %v", got, want)
	}
	lastState := map[string]any{}
	for _, p := range popped {
		if d := p.Deltas.Newest(); d.Type == Deleted {
			tomb, ok := d.Object.(DeletedFinalStateUnknown)
			if !ok {
				t.Fatalf("%s: delete carries %T, want DeletedFinalStateUnknown", p.Key, d.Object)
			}
			if tomb.Key != p.Key {
				t.Fatalf("tombstone key %q, want %q", tomb.Key, p.Key)
			}
			lastState[p.Key] = tomb.Obj
		}
	}
	if lastState["ns/cached-gone"] != cachedGone || lastState["ns/queued-gone"] != queuedGone {
		t.Fatalf("tombstones carry %v, want the last known states", lastState)
	}
}

func TestDeltaFIFOHasSyncedOnceTheFirstReplaceIsProcessed(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	if f.HasSynced() {
		t.Fatal("synced before any Replace")
	}
	mustNoErr(t, f.Add(testObject("ns", "before", "1")))
	mustNoErr(t, f.Replace([]any{testObject("ns", "a", "1"), testObject("ns", "b", "1")}, "1"))
	mustNoErr(t, f.Add(testObject("ns", "after", "2")))
	var flags []bool
	for i := 0; f.Len() > 0; i++ {
		_, err := f.popBatch(1, func(pb queue.Batch) {
			batch := pb.Items
			flags = append(flags, batch[0].InitialDeltas > 0)
			if batch[0].InitialDeltas > 0 && f.q.Snapshot().InitialPending == 0 {
				t.Error("initial population consumed before processing")
			}
		})
		mustNoErr(t, err)
		// Keys: before (now a tombstone: absent from the list), a, b, after.
		if wantSynced := i >= 2; f.HasSynced() != wantSynced {
			t.Fatalf("after pop %d HasSynced = %v, want %v", i, f.HasSynced(), wantSynced)
		}
	}
	if want := []bool{true, true, true, false}; !reflect.DeepEqual(flags, want) {
		t.Fatalf("IsInInitialList = %v, want %v", flags, want)
	}
}

func TestDeltaFIFOEmptyFirstReplaceSyncsAtOnce(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	mustNoErr(t, f.Replace(nil, "1"))
	if !f.HasSynced() {
		t.Fatal("not synced after an empty first list")
	}
}

func TestDeltaFIFOTransformsEachObjectVersionOnce(t *testing.T) {
	known := NewIndexer(MetaNamespaceKeyFunc, nil)
	cached := testObject("ns", "cached", "1")
	mustNoErr(t, known.Add(cached))
	calls := map[any]int{}
	transform := func(obj any) (any, error) {
		calls[obj]++
		o := obj.(*metav1.PartialObjectMetadata).DeepCopy()
		o.Annotations = map[string]string{"transformed": "yes"}
		return o, nil
	}
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known, Transformer: transform})
	added, updated, deleted := testObject("ns", "a", "2"), testObject("ns", "a", "3"), testObject("ns", "a", "4")
	tombInner := testObject("ns", "t", "5")
	mustNoErr(t, f.Add(added))
	mustNoErr(t, f.Update(updated))
	mustNoErr(t, f.Delete(deleted))
	mustNoErr(t, f.Resync()) // Sync of cached: not transformed again
	mustNoErr(t, f.Add(testObject("ns", "t", "4")))
	mustNoErr(t, f.Delete(DeletedFinalStateUnknown{Key: "ns/t", Obj: tombInner}))
	popped := popAll(t, f)
	for _, o := range []any{added, updated, deleted, tombInner} {
		if calls[o] != 1 {
			t.Errorf("transform called %d times on %v, want 1", calls[o], o)
		}
	}
	if calls[cached] != 0 {
		t.Errorf("cached object transformed again on resync")
	}
	for _, p := range popped {
		for _, d := range p.Deltas {
			obj := d.Object
			if tomb, ok := obj.(DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if d.Type == Sync {
				if obj != cached {
					t.Errorf("sync delta carries %v, want the cached object", obj)
				}
				continue
			}
			if obj.(*metav1.PartialObjectMetadata).Annotations["transformed"] != "yes" {
				t.Errorf("%s %s: object not transformed", p.Key, d.Type)
			}
		}
	}
}

func TestDeltaFIFOResyncQueuesSyncForKnownKeysNotQueued(t *testing.T) {
	known := NewIndexer(MetaNamespaceKeyFunc, nil)
	mustNoErr(t, known.Add(testObject("ns", "idle", "1")))
	mustNoErr(t, known.Add(testObject("ns", "busy", "1")))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
	mustNoErr(t, f.Update(testObject("ns", "busy", "2")))
	mustNoErr(t, f.Resync())
	want := map[string][]DeltaType{"ns/busy": {Updated}, "ns/idle": {Sync}}
	if got := deltaTypes(popAll(t, f)); !reflect.DeepEqual(got, want) {
		t.Fatalf("deltas = %v, want %v", got, want)
	}
}

func mustNoErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
