package cache

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
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

func TestDeltaFIFOCloseUnblocksPopBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
		var wg sync.WaitGroup
		wg.Add(1)
		var err error
		go func() {
			defer wg.Done()
			_, err = f.popBatch(0, func(queue.Batch) { t.Error("processed from an empty queue") })
		}()
		synctest.Wait() // popBatch is blocked waiting for deltas
		f.Close()
		wg.Wait()
		if !errors.Is(err, ErrFIFOClosed) {
			t.Fatalf("err = %v, want ErrFIFOClosed", err)
		}
	})
}

func TestDeltaFIFOPopBatchHonoursMax(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	for _, name := range []string{"a", "b", "c"} {
		mustNoErr(t, f.Add(testObject("ns", name, "1")))
	}
	n, err := f.popBatch(2, func(pb queue.Batch) {
		batch := pb.Items
		if len(batch) != 2 {
			t.Errorf("batch of %d, want 2", len(batch))
		}
	})
	if n != 2 || err != nil || f.Len() != 1 {
		t.Fatalf("popBatch = %d, %v; Len = %d; want 2, nil, 1", n, err, f.Len())
	}
}

func mustNoErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestDeltaFIFOConcurrentProducersAndConsumerLoseNoKey(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	consumed := make(chan struct{})
	go func() {
		defer close(consumed)
		for {
			_, err := f.popBatch(3, func(pb queue.Batch) {
				batch := pb.Items
				mu.Lock()
				for _, p := range batch {
					seen[p.Key] += len(p.Deltas)
				}
				mu.Unlock()
			})
			if err != nil {
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for p := 0; p < 4; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				mustNoErr(t, f.Add(testObject("ns", "p"+strconv.Itoa(p)+"-"+strconv.Itoa(i), "1")))
			}
		}()
	}
	wg.Wait()
	cachetest.Eventually(t, "all keys processed", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(seen) == 2000
	})
	f.Close()
	<-consumed
}

func TestDeltaFIFOReplaceWaitsForTheBatchBeingProcessed(t *testing.T) {
	known := NewIndexer(MetaNamespaceKeyFunc, nil)
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
	mustNoErr(t, f.Add(testObject("ns", "limbo", "1")))
	inProcess, release := make(chan struct{}), make(chan struct{})
	popped := make(chan struct{})
	go func() {
		defer close(popped)
		_, err := f.popBatch(0, func(pb queue.Batch) {
			batch := pb.Items
			close(inProcess)
			<-release
			// Apply the batch to the cache, as the informer does.
			for _, p := range batch {
				mustNoErr(t, known.Add(p.Deltas.Newest().Object))
			}
		})
		mustNoErr(t, err)
	}()
	<-inProcess
	replaced := make(chan error, 1)
	go func() { replaced <- f.Replace(nil, "2") }()
	select {
	case <-replaced:
		t.Fatal("Replace ran while a popped batch was not yet in the cache")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	<-popped
	mustNoErr(t, <-replaced)
	want := map[string][]DeltaType{"ns/limbo": {Deleted}}
	if got := deltaTypes(popAll(t, f)); !reflect.DeepEqual(got, want) {
		t.Fatalf("deltas = %v, want %v: the key in flight must be tombstoned", got, want)
	}
}

func TestDeltaFIFOSecondReplaceTombstonesKeysOfTheFirstStillQueued(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	gone := testObject("ns", "gone", "1")
	mustNoErr(t, f.Replace([]any{testObject("ns", "kept", "1"), gone, testObject("ns", "kept", "2")}, "1"))
	mustNoErr(t, f.Replace([]any{testObject("ns", "kept", "3")}, "2"))
	popped := popAll(t, f)
	want := map[string][]DeltaType{
		"ns/kept": {Replaced, Replaced, Replaced},
		"ns/gone": {Replaced, Deleted},
	}
	if got := deltaTypes(popped); !reflect.DeepEqual(got, want) {
		t.Fatalf("deltas = %v, want %v", got, want)
	}
	for _, p := range popped {
		if p.Key != "ns/gone" {
			continue
		}
		if tomb, ok := p.Deltas.Newest().Object.(DeletedFinalStateUnknown); !ok || tomb.Obj != gone {
			t.Fatalf("tombstone of ns/gone = %#v, want one carrying the listed object", p.Deltas.Newest().Object)
		}
	}
	// The first list held two distinct keys: both count for HasSynced,
	// the duplicate does not.
	if !f.HasSynced() {
		t.Fatal("not synced after popping every key of the first list")
	}
}

func TestDeltaFIFOInitialPopulationCountsDistinctKeys(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	mustNoErr(t, f.Replace([]any{testObject("ns", "a", "1"), testObject("ns", "a", "2"), testObject("ns", "b", "1")}, "1"))
	if got := f.q.Snapshot().InitialPending; got != 2 {
		t.Fatalf("initial population = %d, want 2 (distinct keys)", got)
	}
}

func TestDeltaFIFORecycledEntriesCarryNoStaleDeltas(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	// A key with many deltas (beyond the inline one and past the recycle
	// cap), then fresh keys reusing the recycled entries.
	for i := 0; i < 20; i++ {
		mustNoErr(t, f.Update(testObject("ns", "busy", strconv.Itoa(i))))
	}
	mustNoErr(t, f.Add(testObject("ns", "other", "1")))
	popAll(t, f)
	for round := 0; round < 3; round++ {
		mustNoErr(t, f.Add(testObject("ns", "x", strconv.Itoa(round))))
		mustNoErr(t, f.Add(testObject("ns", "y", strconv.Itoa(round))))
		popped := popAll(t, f)
		want := map[string][]DeltaType{"ns/x": {Added}, "ns/y": {Added}}
		if got := deltaTypes(popped); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: deltas = %v, want %v", round, got, want)
		}
		for _, p := range popped {
			if rv := p.Deltas[0].Object.(*metav1.PartialObjectMetadata).ResourceVersion; rv != strconv.Itoa(round) {
				t.Fatalf("round %d: %s carries resourceVersion %s", round, p.Key, rv)
			}
		}
	}
}

func TestDeltaFIFOTellsPoppedKeysOfALargeQueueFromQueuedOnes(t *testing.T) {
	const n = queue.ShrinkThreshold + 1000
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: NewIndexer(MetaNamespaceKeyFunc, nil)})
	list := make([]any, n)
	for i := range list {
		list[i] = testObject("ns", "o"+strconv.Itoa(i), "1")
	}
	mustNoErr(t, f.Replace(list, "1"))
	_, err := f.popBatch(100, func(queue.Batch) {})
	mustNoErr(t, err)
	// o0 was popped (and, here, never stored): deleting it is a no-op.
	mustNoErr(t, f.Delete(testObject("ns", "o0", "2")))
	// o1 was popped: an update queues it anew, at the back.
	mustNoErr(t, f.Update(testObject("ns", "o1", "2")))
	// o500 is still queued: an update joins its entry.
	mustNoErr(t, f.Update(testObject("ns", "o500", "2")))
	if got, want := f.Len(), n-100+1; got != want {
		t.Fatalf("Len = %d, want %d", got, want)
	}
	popped := popAll(t, f)
	if last := popped[len(popped)-1]; last.Key != "ns/o1" || len(last.Deltas) != 1 || last.Deltas[0].Type != Updated || last.InitialDeltas != 0 {
		t.Fatalf("last popped %+v, want ns/o1 with one Updated delta, not initial", last)
	}
	types := deltaTypes(popped)
	if got := types["ns/o500"]; !reflect.DeepEqual(got, []DeltaType{Replaced, Updated}) {
		t.Fatalf("ns/o500 deltas = %v, want [Replaced Updated]", got)
	}
	if _, ok := types["ns/o0"]; ok {
		t.Fatal("the delete of a popped, unknown key was queued")
	}
	if len(types) != n-100+1 {
		t.Fatalf("%d distinct keys popped, want %d", len(types), n-100+1)
	}
	if !f.HasSynced() {
		t.Fatal("not synced after popping everything")
	}
}

func TestDeltaFIFOFirstReplaceWithAConcurrentConsumer(t *testing.T) {
	const n = 20 * 256 // 20 times the keys a fresh Replace queues between releases of the lock
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: NewIndexer(MetaNamespaceKeyFunc, nil)})
	list := make([]any, n)
	for i := range list {
		list[i] = testObject("ns", "o"+strconv.Itoa(i%(n-10)), "1") // 10 duplicates
	}
	replaced := make(chan struct{})
	seen := map[string]int{}
	var mu sync.Mutex
	consumerDone := make(chan struct{})
	go func() {
		defer close(consumerDone)
		for {
			_, err := f.popBatch(64, func(pb queue.Batch) {
				batch := pb.Items
				mu.Lock()
				defer mu.Unlock()
				for _, p := range batch {
					// A duplicate listed while its key is still queued
					// joins the entry: every change is initial.
					if p.InitialDeltas != len(p.Deltas) {
						t.Errorf("%s popped with %d of %d changes in the initial list", p.Key, p.InitialDeltas, len(p.Deltas))
					}
					seen[p.Key]++
				}
			})
			if errors.Is(err, ErrFIFOClosed) {
				return
			}
			if !f.HasSynced() {
				continue
			}
			// HasSynced may turn true between Replace returning and
			// close(replaced): what must hold is that every listed key
			// was popped and processed by then.
			mu.Lock()
			if len(seen) != n-10 {
				t.Errorf("synced with %d of %d keys processed", len(seen), n-10)
			}
			mu.Unlock()
			select {
			case <-replaced:
				f.Close()
			default:
			}
		}
	}()
	mustNoErr(t, f.Replace(list, "1"))
	close(replaced)
	// Wake the consumer if it is waiting on an empty queue.
	cachetest.Eventually(t, "the consumer to sync", func() bool {
		if f.HasSynced() {
			f.Close()
			return true
		}
		return false
	})
	<-consumerDone
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != n-10 {
		t.Fatalf("%d distinct keys popped, want %d", len(seen), n-10)
	}
}

func TestDeltaFIFOInitialDeltasCoverOnlyTheChangesOfTheFirstList(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	mustNoErr(t, f.Add(testObject("ns", "before", "1")))
	mustNoErr(t, f.Replace([]any{testObject("ns", "before", "2"), testObject("ns", "a", "2")}, "2"))
	mustNoErr(t, f.Delete(testObject("ns", "a", "3")))
	mustNoErr(t, f.Add(testObject("ns", "a", "4")))
	mustNoErr(t, f.Update(testObject("ns", "before", "5")))
	mustNoErr(t, f.Add(testObject("ns", "after", "6")))
	got := map[string]int{}
	for _, p := range popAll(t, f) {
		got[p.Key] = p.InitialDeltas
	}
	want := map[string]int{"ns/before": 2, "ns/a": 1, "ns/after": 0}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("InitialDeltas = %v, want %v", got, want)
	}
}

// afterProcessed runs at once on an idle queue, and otherwise once every
// key queued before it was popped and processed, not before.
func TestDeltaFIFOAfterProcessedWaitsForTheKeysQueuedBefore(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KeyFunction: MetaNamespaceKeyFunc})
	ran := 0
	f.q.AfterApplied(func() { ran++ })
	if ran != 1 {
		t.Fatalf("on an idle queue: ran %d times, want 1", ran)
	}
	for _, name := range []string{"a", "b"} {
		if err := f.Add(testObject("ns", name, "1")); err != nil {
			t.Fatal(err)
		}
	}
	f.q.AfterApplied(func() { ran++ })
	if err := f.Add(testObject("ns", "c", "1")); err != nil {
		t.Fatal(err)
	}
	var seen []int
	for range 3 {
		if _, err := f.popBatch(1, func(queue.Batch) { seen = append(seen, ran) }); err != nil {
			t.Fatal(err)
		}
	}
	// Processing a and b saw the barrier pending; it ran after b, before c.
	if want := []int{1, 1, 2}; !slices.Equal(seen, want) || ran != 2 {
		t.Errorf("barrier count seen while processing = %v (final %d), want %v (final 2)", seen, ran, want)
	}
}

// pruneOutside tombstones what keep refuses, judging a queued key by its
// newest queued state and any other by the cache's, and leaves queued
// deletes alone.
func TestDeltaFIFOPruneOutsideTombstonesWhatKeepRefuses(t *testing.T) {
	known := NewStore(MetaNamespaceKeyFunc)
	for _, name := range []string{"cached-kept", "cached-dropped", "queued-now-dropped", "queued-deleted"} {
		if err := known.Add(testObjectWithLabels("ns", name, "1", map[string]string{"keep": "yes"})); err != nil {
			t.Fatal(err)
		}
	}
	if err := known.Update(testObjectWithLabels("ns", "cached-dropped", "1", nil)); err != nil {
		t.Fatal(err)
	}
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KeyFunction: MetaNamespaceKeyFunc, KnownObjects: known})
	for _, err := range []error{
		f.Update(testObjectWithLabels("ns", "queued-now-dropped", "2", nil)),
		f.Delete(testObjectWithLabels("ns", "queued-deleted", "1", nil)),
		f.Add(testObjectWithLabels("ns", "queued-kept", "1", map[string]string{"keep": "yes"})),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	keep := func(obj any) bool { return obj.(*metav1.PartialObjectMetadata).Labels["keep"] == "yes" }
	if _, err := f.q.Prune(keep); err != nil {
		t.Fatal(err)
	}
	got := map[string][]DeltaType{}
	tombstones := map[string]bool{}
	if _, err := f.popBatch(0, func(pb queue.Batch) {
		batch := pb.Items
		for _, item := range batch {
			for _, d := range item.Deltas {
				got[item.Key] = append(got[item.Key], d.Type)
				if _, ok := d.Object.(DeletedFinalStateUnknown); ok {
					tombstones[item.Key] = true
				}
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	want := map[string][]DeltaType{
		"ns/queued-now-dropped": {Updated, Deleted},
		"ns/queued-deleted":     {Deleted},
		"ns/queued-kept":        {Added},
		"ns/cached-dropped":     {Deleted},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("queued deltas %v, want %v", got, want)
	}
	if wantTomb := map[string]bool{"ns/queued-now-dropped": true, "ns/cached-dropped": true}; !reflect.DeepEqual(tombstones, wantTomb) {
		t.Errorf("tombstones %v, want %v", tombstones, wantTomb)
	}
}
